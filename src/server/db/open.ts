import { join } from 'node:path';
import type { Config } from '../config.ts';
import { openPglite, openPostgres, type Db } from './client.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { migrate } from './migrate.ts';

/** Opens the configured database (PostgreSQL if DATABASE_URL is set) and migrates it. */
export async function openDatabase(config: Config): Promise<Db> {
  let db: Db;
  if (config.databaseUrl) {
    db = await openPostgres(config.databaseUrl);
  } else if (config.dataDir.startsWith('memory://')) {
    db = await openPglite(config.dataDir, config.pgliteTemplate);
  } else {
    const unlock = await lockDataDir(config.dataDir);
    try {
      const opened = await openPglite(join(config.dataDir, 'pgdata'));
      db = {
        ...opened,
        close: async () => {
          await opened.close();
          unlock();
        },
      };
    } catch (error) {
      unlock();
      throw error;
    }
  }
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
