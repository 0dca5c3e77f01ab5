import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config.ts';
import type { Db, Queryable } from '../../../src/server/db/client.ts';
import { openDatabase } from '../../../src/server/db/open.ts';
import { movedToFinal } from '../../../src/server/delivery/repo.ts';
import {
  freshDatabaseUrl,
  useMigratedTemplate,
} from '../../support/start-server.ts';

/**
 * Statements that run once per delivery write must find their messages by key, whatever the
 * table holds: a scan of `messages` costs nothing on a test's few rows and grows with every
 * message ever sent (one did: accepting fell to 46 % after 200,000 messages, bench:sms with
 * BENCH_PREFILL). With sequential scans disabled, PostgreSQL still plans one only where no
 * index can answer, so the plan shows it on an empty table as on a full one.
 */
let db: Db;
let drop: () => Promise<void>;
beforeAll(async () => {
  const database = await freshDatabaseUrl();
  drop = database.drop;
  const config = loadConfig({
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });
  if (!database.url) useMigratedTemplate(config);
  db = await openDatabase(config);
});
afterAll(async () => {
  await db.close();
  await drop();
});

/** The plan (JSON) of each statement `run` sends, in one transaction without seq scans. */
async function plansOf(
  run: (q: Queryable) => Promise<unknown>,
): Promise<string[]> {
  const plans: string[] = [];
  await db.transaction(async (tx) => {
    await tx.query(`SELECT set_config('enable_seqscan', 'off', true)`);
    const explaining: Queryable = {
      async query<T>(text: string, params?: unknown[]) {
        const rows = await tx.query<Record<string, unknown>>(
          `EXPLAIN (FORMAT JSON) ${text}`,
          params,
        );
        plans.push(JSON.stringify(rows));
        return [] as T[];
      },
      exec: (text) => tx.exec(text),
    };
    await run(explaining);
  });
  return plans;
}

describe('what a delivery write looks up', () => {
  it("counts the messages it moved to a final state through their keys and their parts' keys", async () => {
    const plans = await plansOf((q) =>
      movedToFinal(
        q,
        new Date().toISOString(),
        [{ messageId: '00000000-0000-4000-8000-000000000001' } as never],
        [
          {
            method: 'MELROSE_SMPP',
            providerMessageId: 'abc',
            state: 'DELIVERED',
            error: null,
          },
        ],
      ),
    );
    expect(plans).toHaveLength(1);
    expect(plans[0]).toContain('messages_pkey');
    expect(plans[0]).not.toMatch(/Seq Scan[^}]*"Relation Name":"messages"/);
    expect(plans[0]).not.toMatch(
      /Seq Scan[^}]*"Relation Name":"message_parts"/,
    );
  });
});
