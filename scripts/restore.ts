/**
 * `npm run restore -- FILE`: restores a backup of `npm run backup` (or BACKUP_DIR) into an empty
 * place: the database of DATABASE_URL when set (no table in it), otherwise DATA_DIR (absent or an
 * empty folder), where it creates the embedded PostgreSQL. Anything else is refused. The whole
 * file is checked (SHA-256) before anything is written, and the rows are loaded in one
 * transaction: a damaged file or a failure leaves the target as it was. Then start the server on
 * it: it applies this release's newer migrations, as after any upgrade.
 */
import { resolve } from 'node:path';
import { loadConfigOrExit } from '../src/server/config.ts';
import {
  DamagedBackupError,
  verifyBackup,
} from '../src/server/backup/backup-file.ts';
import { connectToTarget, type Target } from '../src/server/backup/connect.ts';
import {
  assertEmptyDatabase,
  migrationsFor,
  restoreBackup,
  RestoreRefusedError,
} from '../src/server/backup/restore-backup.ts';

const source = process.argv[2];
if (!source || process.argv.length > 3) {
  console.error('usage: npm run restore -- FILE');
  process.exit(2);
}
// npm runs scripts in the package's folder: FILE is relative to where npm was called.
const file = resolve(process.env.INIT_CWD ?? process.cwd(), source);
const config = loadConfigOrExit({
  DATA_DIR: process.env.DATA_DIR,
  DATABASE_URL: process.env.DATABASE_URL,
  DATABASE_ENGINE: process.env.DATABASE_ENGINE,
  LOG_LEVEL: 'silent',
});

const started = Date.now();
let target: Target | undefined;
try {
  const backup = await verifyBackup(file);
  const migrations = await migrationsFor(backup);
  target = await connectToTarget(config);
  await assertEmptyDatabase(target.client, target.where);
  const result = await restoreBackup(target.client, backup, migrations);
  await target.close();
  console.log(
    `restored ${file} (taken ${backup.header.createdAt}) into ${target.where}: ` +
      `${result.tables} tables, ${result.rows} rows, ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
} catch (error) {
  const refused =
    error instanceof DamagedBackupError || error instanceof RestoreRefusedError;
  const message =
    (error as NodeJS.ErrnoException).code === 'ENOENT'
      ? `${file}: no such file`
      : (error as Error).message;
  await target?.undo().catch(() => undefined);
  console.error(`restore ${refused ? 'refused' : 'failed'}: ${message}`);
  process.exitCode = 1;
}
