/**
 * Checks that every balance equals the sum of its ledger rows, and that each row's balance
 * after it is the running sum: `npm run ledger:verify`. Uses DATABASE_URL when set, otherwise
 * the embedded database in DATA_DIR (default ./data; DATABASE_ENGINE's engine), which only one
 * process may open: stop the server first. Prints every difference and exits 1 if there is any,
 * 0 when the books hold. It reads only; it neither migrates nor repairs.
 */
import { loadConfig } from '../src/server/config.ts';
import { openPostgres, type Db } from '../src/server/db/client.ts';
import { openEmbedded } from '../src/server/db/open.ts';
import { ledgerDifferences } from '../src/server/features/balances/ledger-check.ts';

async function open(): Promise<{ db: Db; where: string }> {
  const config = loadConfig({
    DATA_DIR: process.env.DATA_DIR,
    DATABASE_URL: process.env.DATABASE_URL,
    DATABASE_ENGINE: process.env.DATABASE_ENGINE,
    LOG_LEVEL: 'silent',
  });
  if (config.databaseUrl) {
    const url = new URL(config.databaseUrl);
    return {
      db: await openPostgres(config.databaseUrl, 1),
      where: `PostgreSQL ${url.host}${url.pathname}`,
    };
  }
  return {
    db: await openEmbedded(config),
    where: `DATA_DIR ${config.dataDir}`,
  };
}

const { db, where } = await open();
try {
  const [counts] = await db.query<{ balances: number; entries: number }>(
    `SELECT (SELECT count(*) FROM balances)::int AS balances,
            (SELECT count(*) FROM balance_ledger)::int AS entries`,
  );
  const { balances, entries } = counts!;
  const differences = await ledgerDifferences(db);
  for (const d of differences) {
    console.log(`client ${d.clientId} (balance ${d.balanceId}): ${d.problem}`);
  }
  console.log(
    differences.length === 0
      ? `ledger verified on ${where}: ${balances} balances, ${entries} entries, no difference`
      : `ledger NOT verified on ${where}: ${differences.length} difference(s) in ${balances} balances`,
  );
  process.exitCode = differences.length === 0 ? 0 : 1;
} finally {
  await db.close();
}
