import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { EngineInUse } from './open.ts';

/** What repos need from a connection or a transaction: parameterised queries. */
export interface Queryable {
  query<T = Record<string, unknown>>(
    text: string,
    params?: unknown[],
  ): Promise<T[]>;
  /** Runs SQL without parameters, possibly several statements (migrations). */
  exec(text: string): Promise<void>;
}

/** One interface over the embedded PGlite and a PostgreSQL server, so queries are written once. */
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * The embedded engine of DATA_DIR (PGlite, or the PostgreSQL the server runs itself): one
   * node by nature, DATA_DIR's lock keeps any other out.
   */
  readonly embedded?: boolean;
  /** Which engine and where (db/open.ts), set by openDatabase and openEmbedded. */
  readonly engine?: EngineInUse;
  /** The embedded instance itself (kind 'pglite'), for the job queue's adapter. */
  readonly pglite?: PGlite;
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export async function openPglite(
  dataDir: string,
  template?: Blob,
): Promise<Db> {
  // Loaded only here: a node on PostgreSQL (npm start's default) keeps its ~7 MB out of memory.
  const [{ PGlite, types }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]);
  // Both drivers return numeric as its exact decimal text; repos convert at the edge.
  const pgliteParsers = { [types.NUMERIC]: (value: string) => value };
  // pg_trgm backs the admin search's index (migrations/004-accountability.sql).
  const lite = await PGlite.create(dataDir, {
    parsers: pgliteParsers,
    extensions: { pg_trgm },
    ...(template ? { loadDataDir: template } : {}),
  });
  const wrap = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T>(text: string, params?: unknown[]) {
      const result = await q.query<T>(text, params);
      return result.rows;
    },
    async exec(text: string) {
      await q.exec(text);
    },
  });
  return {
    kind: 'pglite',
    pglite: lite,
    ...wrap(lite),
    transaction: (fn) => lite.transaction((tx) => fn(wrap(tx))),
    close: () => lite.close(),
  };
}

/** Connections of the server's own pool on PostgreSQL. */
export const POOL_SIZE = 20;
/**
 * How long a pooled connection may stay idle before it closes (pg's default is 10 s). An idle
 * node still queries now and then (the inbound sweep every 15 s): each time it opens a
 * connection, a PostgreSQL backend of some 13 MB resident, which stays for this long (issue 34).
 * Under load the connections never idle this long, so nothing reconnects.
 */
const POOL_IDLE_MS = 5_000;
/** Connections of the job queue's own pool (pg-boss) with `workers` delivery workers. */
export function queuePoolSize(workers: number): number {
  return Math.max(4, workers + 3);
}
/** Connections held by LISTEN: one, shared by the credential revocations and the queue alarm. */
const LISTEN_CONNECTIONS = 1;
/** Every connection one node opens on PostgreSQL, at most, with `workers` delivery workers. */
export function connectionsPerNode(workers: number): number {
  return POOL_SIZE + queuePoolSize(workers) + LISTEN_CONNECTIONS;
}

export async function openPostgres(
  connectionString: string,
  poolSize = POOL_SIZE,
): Promise<Db> {
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    idleTimeoutMillis: POOL_IDLE_MS,
  });
  // An idle connection dropped by the server (restart, failover) is discarded by the pool;
  // without a listener its 'error' event would be thrown and take the whole process down.
  pool.on('error', () => undefined);
  // Fail at start, not on the first request, when the server is unreachable.
  const probe = await pool.connect();
  probe.release();
  const wrap = (q: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(text: string, params?: unknown[]) {
      const result = await q.query(text, params);
      return result.rows as T[];
    },
    async exec(text: string) {
      await q.query(text);
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      // Checked out, the connection is not the pool's to watch: dropped between two statements
      // (a PostgreSQL restart), its 'error' event would have no listener and end the process.
      // The statement after it fails instead, and the broken connection is destroyed.
      let broken: Error | undefined;
      const onError = (error: Error) => {
        broken = error;
      };
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollback: Error) => {
          broken ??= rollback;
        });
        throw error;
      } finally {
        client.off('error', onError);
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
