import { fromPglite, PgBoss } from 'pg-boss';
import { queuePoolSize, type Db, type Queryable } from '../db/client.ts';
import type { DeliveryLogger } from './types.ts';

/** The queue of delivery jobs; enqueue_delivery_jobs (migrations/functions/) writes it by name. */
export const DELIVERY_QUEUE = 'sms-delivery';
/** The queue of status callbacks; enqueue_status_callbacks (migrations/functions/) writes it. */
export const CALLBACK_QUEUE = 'status-callback';
/**
 * The queue of keyword auto-replies (issue 32): inbound_messages_keywords (migrations/functions/)
 * writes one job per inbound STOP, START or HELP in the inbound write's transaction.
 */
export const KEYWORD_REPLY_QUEUE = 'keyword-reply';

/**
 * pg-boss's schema version (package.json `pgboss.schema` of pg-boss) that the SQL writing into its
 * job table was written for: enqueue_delivery_jobs, enqueue_status_callbacks and
 * inbound_messages_keywords (migrations/functions/) insert jobs straight into its partitions,
 * and activeJobIds reads them. A pg-boss upgrade that changes its schema must be checked against
 * that SQL before this number moves.
 */
export const PGBOSS_SCHEMA_VERSION = 46;

/** Fails loudly when the installed pg-boss schema is not the one our SQL writes into. */
export async function checkQueueSchema(db: Queryable): Promise<void> {
  const [row] = await db.query<{ version: number | string }>(
    'SELECT version FROM pgboss.version',
  );
  const installed = Number(row?.version);
  if (installed !== PGBOSS_SCHEMA_VERSION) {
    throw new Error(
      `pg-boss schema version ${row?.version ?? 'unknown'} is installed, but the delivery SQL ` +
        `(enqueue_delivery, enqueue_status_callbacks) was written for version ` +
        `${PGBOSS_SCHEMA_VERSION}: check that SQL against pg-boss's job table, then update ` +
        'PGBOSS_SCHEMA_VERSION in src/server/delivery/queue.ts',
    );
  }
}

/**
 * Per-job retry budget of pg-boss. The worker decides itself when a method is exhausted (see
 * MAX_TRIES_PER_METHOD); this only has to be larger than every method's tries together.
 */
export const QUEUE_RETRY_LIMIT = 30;

/**
 * Seconds without a heartbeat after which an active job counts as abandoned (PostgreSQL). Above
 * pg-boss's minimum of 10 so that a busy but living worker (a long commit, a GC pause) keeps its
 * jobs: taking them over would send their messages twice.
 */
export const HEARTBEAT_SECONDS = 15;

/** The callback queue's own first retry delay (a worker that died, a database error). */
export const CALLBACK_RETRY_DELAY_SECONDS = 15;

export interface QueueOptions {
  databaseUrl: string | undefined;
  db: Db;
  /** Workers in this process; 0: only install the queue, run no maintenance. */
  workers: number;
  logger: DeliveryLogger;
  /** First retry delay of a transient failure in seconds, doubled each time (default 1). */
  retryDelaySeconds?: number;
  /** A job active this long (its worker died) is retried (default 60 s). */
  expireInSeconds?: number;
}

/** Whether the database is one node's alone (the embedded engines), not a fleet's. */
export function oneNode(db: Db): boolean {
  return db.kind === 'pglite' || db.embedded === true;
}

/**
 * pg-boss on the database of the server: on the embedded PGlite through its adapter (pg-boss's
 * multi-statement SQL goes through PGlite's exec and the rows of every statement come back), on
 * PostgreSQL with a small pool of its own. Starting installs or migrates pg-boss's schema and
 * creates the delivery queue, which every node needs before it accepts a send.
 */
export async function startQueue(options: QueueOptions): Promise<PgBoss> {
  const { db, workers } = options;
  // A fleet supervises every 10 s (a killed node's jobs are taken over within the minute the
  // CONTRACT allows); one node alone (embedded) only has its own hung jobs to expire, its
  // killed predecessor's are handed back when it starts: each pass is a few transactions, on an
  // idle node most of what it still does.
  const superviseSeconds = oneNode(db) ? 60 : 10;
  const common = {
    schema: 'pgboss',
    schedule: false,
    // Expiry of jobs whose worker died is supervision: only nodes that deliver do it.
    supervise: workers > 0,
    superviseIntervalSeconds: superviseSeconds,
    // Expiry and lost heartbeats are checked in the monitor pass, every 60 s by default: a dead
    // worker's jobs could then wait a minute more before anyone looked.
    monitorIntervalSeconds: superviseSeconds,
    maintenanceIntervalSeconds: 300,
    // pg-boss's flow resolver (job dependencies, which we do not use) would write to its
    // version table every 5 s on an idle node, and its background index builder (after a
    // pg-boss upgrade) look every minute: the first rarely, the second every 10 minutes.
    flowIntervalSeconds: 3600,
    bamIntervalSeconds: 600,
    monitorVacuum: false,
    reindex: false,
    registerInstance: false,
    openTelemetry: { enabled: false },
  };
  let boss: PgBoss;
  if (db.kind === 'pglite') {
    if (!db.pglite)
      throw new Error('embedded database without its PGlite handle');
    boss = new PgBoss({
      ...common,
      db: fromPglite(db.pglite),
      backend: 'pglite',
    });
  } else {
    if (!options.databaseUrl)
      throw new Error('PostgreSQL without DATABASE_URL');
    boss = new PgBoss({
      ...common,
      connectionString: options.databaseUrl,
      max: queuePoolSize(workers),
      application_name: 'console-delivery',
    });
  }
  boss.on('error', (err) =>
    options.logger.error({ err }, 'delivery queue error'),
  );
  await boss.start();
  await checkQueueSchema(db);
  // On PostgreSQL other processes may deliver too: a worker heartbeats its active jobs, and a
  // job whose heartbeat stops (its process was killed) is handed back at the next supervision
  // (superviseIntervalSeconds) and taken over, within about 25 s rather than at expiry. The
  // embedded database is one process: its jobs are handed back when it starts again.
  const heartbeat =
    db.kind === 'postgres' ? { heartbeatSeconds: HEARTBEAT_SECONDS } : {};
  const settings = {
    ...heartbeat,
    retryLimit: QUEUE_RETRY_LIMIT,
    retryDelay: options.retryDelaySeconds ?? 1,
    retryBackoff: true,
    retryDelayMax: 300,
    expireInSeconds: options.expireInSeconds ?? 60,
    // Delivered jobs are only history: the message log keeps what matters.
    deleteAfterSeconds: 3600,
  };
  if (await boss.getQueue(DELIVERY_QUEUE)) {
    await boss.updateQueue(DELIVERY_QUEUE, settings);
  } else {
    await boss.createQueue(DELIVERY_QUEUE, settings);
  }
  // Status callbacks: a job is one try (its worker queues the next one on a failure); the
  // queue's own retries only cover a worker that died or a database error.
  const callbackSettings = {
    ...heartbeat,
    retryLimit: 5,
    retryDelay: CALLBACK_RETRY_DELAY_SECONDS,
    retryBackoff: true,
    retryDelayMax: 600,
    // A try takes at most the 10 s answer timeout and a DNS lookup.
    expireInSeconds: 60,
    deleteAfterSeconds: 3600,
  };
  if (await boss.getQueue(CALLBACK_QUEUE)) {
    await boss.updateQueue(CALLBACK_QUEUE, callbackSettings);
  } else {
    await boss.createQueue(CALLBACK_QUEUE, callbackSettings);
  }
  // Keyword auto-replies: a job is one send through send_sms_batch, written once per inbound
  // message whatever the retries (messages.reply_to); retried when the database failed, the
  // worker died, or the client was beyond its messages a second.
  const replySettings = {
    ...heartbeat,
    retryLimit: 10,
    retryDelay: 2,
    retryBackoff: true,
    retryDelayMax: 300,
    expireInSeconds: 60,
    deleteAfterSeconds: 3600,
  };
  if (await boss.getQueue(KEYWORD_REPLY_QUEUE)) {
    await boss.updateQueue(KEYWORD_REPLY_QUEUE, replySettings);
  } else {
    await boss.createQueue(KEYWORD_REPLY_QUEUE, replySettings);
  }
  return boss;
}
