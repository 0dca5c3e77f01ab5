import {
  DELIVERY_METHODS,
  type DeliveryMethod,
} from '../../../shared/limits.ts';
import type { Operations } from '../../../shared/schemas/operations.ts';
import { backupStatus } from '../../backup/history.ts';
import type { Version } from '../../../shared/schemas/version.ts';
import { buildInfo } from '../../build-info.ts';
import type { EngineInUse } from '../../db/open.ts';
import type { Deps } from '../../deps.ts';
import * as repo from './repo.ts';

/** What the answering node knows of delivery itself: the queue and its own connections. */
export interface DeliveryState {
  queueDepth(): Promise<number>;
  binds(): Partial<Record<DeliveryMethod, boolean>>;
  readonly simulatedMethods: readonly DeliveryMethod[];
}

const MINUTES = 60;

/**
 * The Operations screen: per delivery method the last hour's messages by state, the latency from
 * acceptance to a provider taking a message (p50, p95), the bind as this node sees it, the
 * inbound messages it brought (last hour, last 24 hours), and the queue depth. The numbers come from the database, so every node answers the same, except `bound`.
 */
export async function operations(
  deps: Deps,
  delivery: DeliveryState,
): Promise<Operations> {
  const since = await repo.hourStart(deps.db);
  const [states, latencies, minutes, queueDepth, backup, inbound] =
    await Promise.all([
      repo.statesByMethod(deps.db, since),
      repo.latencyByMethod(deps.db, since),
      repo.perMinuteByMethod(deps.db, since),
      delivery.queueDepth(),
      backupStatus(deps.db),
      repo.inboundByMethod(deps.db, since),
    ]);
  const schedule = deps.config.backup;
  const binds = delivery.binds();
  const unrouted: Record<string, number> = {};
  for (const row of states) {
    if (row.method === null) unrouted[row.state] = row.count;
  }
  return {
    since: since.toISOString(),
    queueDepth,
    unrouted,
    methods: DELIVERY_METHODS.map((method) => {
      const latency = latencies.find((row) => row.method === method);
      const received = inbound.find((row) => row.method === method);
      const perMinute = new Array<number>(MINUTES).fill(0);
      for (const row of minutes) {
        if (row.method === method && row.minute >= 0 && row.minute < MINUTES) {
          perMinute[row.minute] = row.count;
        }
      }
      return {
        method,
        states: Object.fromEntries(
          states
            .filter((row) => row.method === method)
            .map((row) => [row.state, row.count]),
        ),
        latency: { p50: latency?.p50 ?? null, p95: latency?.p95 ?? null },
        simulated: delivery.simulatedMethods.includes(method),
        bound: binds[method] ?? null,
        perMinute,
        inbound: {
          lastHour: received?.hour ?? 0,
          lastDay: received?.day ?? 0,
        },
      };
    }),
    backup: {
      lastSuccessAt: backup.lastSuccessAt?.toISOString() ?? null,
      last: backup.last && {
        kind: backup.last.kind,
        finishedAt: backup.last.finishedAt.toISOString(),
        ok: backup.last.ok,
        error: backup.last.error,
      },
      schedule: schedule && {
        intervalHours: schedule.intervalMs / 3_600_000,
        keep: schedule.keep,
      },
    },
  };
}

/**
 * GET /api/version: the release and commit of this process, the database's schema (read each
 * time: a newer node may have migrated it since this one started) and the engine.
 */
export async function version(
  deps: Deps,
  engine: EngineInUse,
): Promise<Version> {
  const { version, commit } = buildInfo();
  return {
    version,
    commit,
    schemaVersion: await repo.schemaVersion(deps.db),
    engine,
  };
}
