import type pg from 'pg';
import type { Queryable } from '../db/client.ts';

/** A backup attempt as migrations/030-backups.sql keeps it: every node reads the same. */
export interface BackupAttempt {
  kind: 'manual' | 'scheduled';
  startedAt: Date;
  ok: boolean;
  file: string | null;
  bytes: number | null;
  error: string | null;
}

/**
 * Records an attempt in `backups`. A database of an older release (no such table yet) keeps
 * no history: the backup itself is what counts.
 */
export async function recordAttempt(
  client: pg.Client,
  attempt: BackupAttempt,
): Promise<void> {
  const { rows } = await client.query<{ found: boolean }>(
    "SELECT to_regclass('public.backups') IS NOT NULL AS found",
  );
  if (!rows[0]?.found) return;
  await client.query(
    `INSERT INTO backups (kind, started_at, ok, file, bytes, error)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      attempt.kind,
      attempt.startedAt,
      attempt.ok,
      attempt.file,
      attempt.bytes,
      attempt.error?.slice(0, 1000) ?? null,
    ],
  );
}

export interface BackupStatus {
  /** When the last successful backup (of any kind) finished; null: none yet. */
  lastSuccessAt: Date | null;
  /** The last attempt, successful or not. */
  last: {
    kind: 'manual' | 'scheduled';
    finishedAt: Date;
    ok: boolean;
    file: string | null;
    bytes: number | null;
    error: string | null;
  } | null;
}

export async function backupStatus(db: Queryable): Promise<BackupStatus> {
  const [success] = await db.query<{ at: Date | string | null }>(
    'SELECT max(finished_at) AS at FROM backups WHERE ok',
  );
  const [last] = await db.query<{
    kind: 'manual' | 'scheduled';
    finished_at: Date | string;
    ok: boolean;
    file: string | null;
    bytes: string | number | null;
    error: string | null;
  }>(
    `SELECT kind, finished_at, ok, file, bytes, error FROM backups
      ORDER BY finished_at DESC, id DESC LIMIT 1`,
  );
  return {
    lastSuccessAt: success?.at ? new Date(success.at) : null,
    last: last
      ? {
          kind: last.kind,
          finishedAt: new Date(last.finished_at),
          ok: last.ok,
          file: last.file,
          bytes: last.bytes === null ? null : Number(last.bytes),
          error: last.error,
        }
      : null,
  };
}
