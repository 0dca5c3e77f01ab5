import fp from 'fastify-plugin';
import { Gauge, type Registry } from 'prom-client';
import type { Config } from '../config.ts';
import { backupStatus } from './history.ts';
import { BackupSchedule } from './schedule.ts';

export interface BackupsOptions {
  config: Config;
  /** The /metrics registry, where the last backup's gauge goes. */
  registry: Registry;
}

/**
 * The last successful backup in /metrics (from the database: every node reports the same), and
 * with BACKUP_DIR the scheduled backups themselves. Registered after the database opens.
 */
export const backups = fp<BackupsOptions>(async (app, { config, registry }) => {
  const db = app.db;
  new Gauge({
    name: 'backup_last_success_timestamp_seconds',
    help: 'When the last successful backup (npm run backup or BACKUP_DIR) finished, Unix seconds; 0: none yet',
    registers: [registry],
    async collect() {
      const { lastSuccessAt } = await backupStatus(db);
      this.set(lastSuccessAt ? lastSuccessAt.getTime() / 1000 : 0);
    },
  });
  if (!config.backup) return;
  if (db.kind === 'pglite' || !config.databaseUrl) {
    throw new Error(
      'BACKUP_DIR needs PostgreSQL (the embedded default or DATABASE_URL): on PGlite ' +
        '(DATABASE_ENGINE=pglite) back up by copying DATA_DIR while the server is stopped',
    );
  }
  const schedule = new BackupSchedule({
    connection: config.databaseUrl,
    ...config.backup,
    log: app.log,
  });
  app.addHook('onReady', async () => schedule.start());
  app.addHook('onClose', () => schedule.stop());
});
