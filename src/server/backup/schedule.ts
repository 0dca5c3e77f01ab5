import { mkdir, readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { recordAttempt } from './history.ts';
import { takeBackup } from './take-backup.ts';

/** Any constant: one node of a fleet takes the scheduled backup, the others skip their turn. */
export const BACKUP_LOCK_KEY = 7_340_230;

/** Our complete backups in BACKUP_DIR, named by the instant they began (UTC, ms). */
export const BACKUP_FILE = /^console-\d{8}T\d{9}Z\.backup$/;
/** A scheduled backup still being written (or left by a killed node): never counted, removed. */
const PARTIAL_FILE = /^console-\d{8}T\d{9}Z\.backup\.partial-\d+$/;

export function backupFileName(at: Date): string {
  const stamp = at.toISOString().replace(/[-:.]/g, ''); // 20261128T053000123Z
  return `console-${stamp}.backup`;
}

/** The files retention removes: ours only, all but the newest `keep`. */
export function expiredBackups(names: string[], keep: number): string[] {
  return names
    .filter((name) => BACKUP_FILE.test(name))
    .sort()
    .reverse()
    .slice(keep);
}

interface ScheduleLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface ScheduleOptions {
  /** How to reach the database (the server's own: DATABASE_URL or the embedded cluster's). */
  connection: string;
  dir: string;
  intervalMs: number;
  keep: number;
  log: ScheduleLog;
}

/** After a failed attempt, the next one waits this long at most (not a whole interval). */
const RETRY_AFTER_FAILURE_MS = 10 * 60_000;
/** How often a node looks whether a backup is due (at most): cheap, one query. */
const LOOK_EVERY_MS = 60_000;

/**
 * Scheduled backups (BACKUP_DIR): every node looks now and then whether one is due (the last
 * scheduled success, recorded in the database, is BACKUP_INTERVAL_HOURS old); the node that
 * takes the advisory lock takes the backup, the others skip. Each file is written under a
 * temporary name, made durable and renamed; then retention keeps the newest BACKUP_KEEP.
 */
export class BackupSchedule {
  readonly #options: ScheduleOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #client: pg.Client | undefined;
  #stopped = false;

  constructor(options: ScheduleOptions) {
    this.#options = { ...options, dir: resolve(options.dir) };
  }

  start(): void {
    this.#tick(0);
  }

  #tick(delay: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#running = this.#lookOnce()
        .catch((err: Error) =>
          this.#options.log.error({ err }, 'scheduled backup failed'),
        )
        .finally(() => {
          this.#running = undefined;
          this.#tick(Math.min(this.#options.intervalMs, LOOK_EVERY_MS));
        });
    }, delay);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    // A backup in progress is cut short: its temporary file is removed, no file is published.
    await this.#client?.end().catch(() => undefined);
    await this.#running;
  }

  async #lookOnce(): Promise<void> {
    const { connection, intervalMs, dir, keep, log } = this.#options;
    const client = new pg.Client({ connectionString: connection });
    client.on('error', () => undefined); // ended by stop(): the query in progress fails instead
    this.#client = client;
    await client.connect();
    try {
      const { rows: locked } = await client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1) AS locked',
        [BACKUP_LOCK_KEY],
      );
      if (!locked[0]?.locked) return; // another node is taking it
      const { rows } = await client.query<{
        success: number | null;
        attempt: number | null;
      }>(
        `SELECT extract(epoch FROM now() - max(finished_at) FILTER (WHERE ok)) * 1000 AS success,
                extract(epoch FROM now() - max(finished_at)) * 1000 AS attempt
           FROM backups WHERE kind = 'scheduled'`,
      );
      const sinceSuccess = rows[0]?.success ?? null;
      const sinceAttempt = rows[0]?.attempt ?? null;
      const due =
        (sinceSuccess === null || Number(sinceSuccess) >= intervalMs) &&
        (sinceAttempt === null ||
          Number(sinceAttempt) >= Math.min(intervalMs, RETRY_AFTER_FAILURE_MS));
      if (!due || this.#stopped) return;
      await mkdir(dir, { recursive: true });
      // Left by a node killed while writing: no one else writes while we hold the lock.
      for (const name of await readdir(dir)) {
        if (PARTIAL_FILE.test(name)) await rm(join(dir, name), { force: true });
      }
      const startedAt = new Date();
      const file = join(dir, backupFileName(startedAt));
      try {
        const taken = await takeBackup(client, file);
        await recordAttempt(client, {
          kind: 'scheduled',
          startedAt,
          ok: true,
          file,
          bytes: taken.bytes,
          error: null,
        });
        log.info({ file, bytes: taken.bytes }, 'scheduled backup written');
      } catch (error) {
        if (!this.#stopped) {
          await recordAttempt(client, {
            kind: 'scheduled',
            startedAt,
            ok: false,
            file: null,
            bytes: null,
            error: (error as Error).message,
          }).catch(() => undefined);
        }
        throw error;
      }
      for (const name of expiredBackups(await readdir(dir), keep)) {
        await rm(join(dir, name), { force: true });
      }
    } finally {
      this.#client = undefined;
      // Ending the session releases the advisory lock too.
      await client.end().catch(() => undefined);
    }
  }
}
