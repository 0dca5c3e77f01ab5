/**
 * `npm run backup -- FILE`: writes a consistent backup of the whole database to FILE while the
 * server keeps serving (README "Backups"). DATABASE_URL when set, otherwise the embedded
 * PostgreSQL of DATA_DIR (default ./data): through the running server's socket, or started here
 * when no server holds DATA_DIR. Exits 0 once FILE is complete and on disk, 1 otherwise (then no
 * FILE is left behind).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfigOrExit } from '../src/server/config.ts';
import { connectToSource } from '../src/server/backup/connect.ts';
import { recordAttempt } from '../src/server/backup/history.ts';
import { takeBackup } from '../src/server/backup/take-backup.ts';

const target = process.argv[2];
if (!target || process.argv.length > 3) {
  console.error('usage: npm run backup -- FILE');
  process.exit(2);
}
// npm runs scripts in the package's folder: FILE is relative to where npm was called.
const file = resolve(process.env.INIT_CWD ?? process.cwd(), target);
if (existsSync(file)) {
  console.error(
    `${file} exists: a backup never overwrites a file, choose another name`,
  );
  process.exit(1);
}
const config = loadConfigOrExit({
  DATA_DIR: process.env.DATA_DIR,
  DATABASE_URL: process.env.DATABASE_URL,
  DATABASE_ENGINE: process.env.DATABASE_ENGINE,
  LOG_LEVEL: 'silent',
});

let connection;
try {
  connection = await connectToSource(config);
} catch (error) {
  console.error(`backup failed: ${(error as Error).message}`);
  process.exit(1);
}
const startedAt = new Date();
try {
  const taken = await takeBackup(connection.client, file);
  await recordAttempt(connection.client, {
    kind: 'manual',
    startedAt,
    ok: true,
    file,
    bytes: taken.bytes,
    error: null,
  }).catch(() => undefined);
  const rows = taken.header.tables.reduce((sum, t) => sum + t.rows, 0);
  console.log(
    `backup of ${connection.where} written to ${file}: ${taken.header.tables.length} tables, ` +
      `${rows} rows, ${taken.bytes} bytes, ${((Date.now() - startedAt.getTime()) / 1000).toFixed(1)} s`,
  );
} catch (error) {
  const message = (error as Error).message;
  await recordAttempt(connection.client, {
    kind: 'manual',
    startedAt,
    ok: false,
    file: null,
    bytes: null,
    error: message,
  }).catch(() => undefined);
  console.error(`backup of ${connection.where} failed: ${message}`);
  process.exitCode = 1;
} finally {
  await connection.close();
}
