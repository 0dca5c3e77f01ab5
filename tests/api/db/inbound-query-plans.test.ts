import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config.ts';
import type { Db, Queryable } from '../../../src/server/db/client.ts';
import { openDatabase } from '../../../src/server/db/open.ts';
import {
  conversationItems,
  findInbound,
  isOptedOut,
  listConversations,
  listInbound,
} from '../../../src/server/features/inbound/repo.ts';
import { clientNumbers } from '../../../src/server/features/numbers/repo.ts';
import {
  freshDatabaseUrl,
  useMigratedTemplate,
} from '../../support/start-server.ts';

/**
 * The reads of two-way messaging run against the two largest tables (every message a client
 * ever sent, every one it received): each must reach a client's rows through an index, never
 * scan the table, so that a client's inbox costs what that client holds, not what everyone
 * does. With sequential scans disabled, PostgreSQL still plans one only where no index can
 * answer, so the plan on an empty table shows it as on a full one.
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
        // One empty row where an answer is read: the callers read rows[0] or map them.
        return [] as T[];
      },
      exec: (text) => tx.exec(text),
    };
    await run(explaining).catch(() => undefined);
  });
  return plans;
}

const CLIENT = '00000000-0000-4000-8000-000000000001';
const ID = '00000000-0000-4000-8000-000000000002';
const page = { count: 30, offset: 0 };

function expectNoTableScan(plan: string) {
  for (const table of ['messages', 'inbound_messages', 'optouts', 'numbers']) {
    expect(plan).not.toMatch(
      new RegExp(`Seq Scan[^}]*"Relation Name":"${table}"`),
    );
  }
}

describe('what the inbound and conversation reads look up', () => {
  it("groups a client's conversations from both conversation indexes, without sorting a table", async () => {
    const plans = await plansOf((q) => listConversations(q, CLIENT, page));
    // The page, then (on an empty page) the count.
    expect(plans.length).toBeGreaterThanOrEqual(1);
    for (const plan of plans) {
      expectNoTableScan(plan);
      expect(plan).toContain('messages_conversation_idx');
      expect(plan).toContain('inbound_messages_conversation_idx');
    }
    // Each side is read in number order from its index alone: grouped as it is read.
    expect(plans[0]).toMatch(
      /Index Only Scan[^}]*"Index Name":"messages_conversation_idx"/,
    );
    expect(plans[0]).toMatch(
      /Index Only Scan[^}]*"Index Name":"inbound_messages_conversation_idx"/,
    );
  });

  it('reads an inbox (numbers that wrote) from the inbound index, then one range of sends per number', async () => {
    const plans = await plansOf((q) =>
      listConversations(q, CLIENT, page, true),
    );
    for (const plan of plans) expectNoTableScan(plan);
    expect(plans[0]).toMatch(
      /Index Only Scan[^}]*"Index Name":"inbound_messages_conversation_idx"/,
    );
    expect(plans[0]).toMatch(
      /Index Only Scan[^}]*"Index Name":"messages_conversation_idx"/,
    );
  });

  it('reads one thread through the conversation indexes', async () => {
    const plans = await plansOf((q) =>
      conversationItems(q, CLIENT, '447700900123', page),
    );
    for (const plan of plans) {
      expectNoTableScan(plan);
      expect(plan).toContain('messages_conversation_idx');
      expect(plan).toContain('inbound_messages_conversation_idx');
    }
    const optedOut = await plansOf((q) =>
      isOptedOut(q, CLIENT, '447700900123'),
    );
    expect(optedOut[0]).toContain('optouts_pkey');
  });

  it("lists a client's inbound messages through its indexes", async () => {
    const [all] = await plansOf((q) => listInbound(q, CLIENT, {}, page));
    expectNoTableScan(all!);
    expect(all).toContain('inbound_messages_client_idx');
    const [bySender] = await plansOf((q) =>
      listInbound(q, CLIENT, { from: '447700900123' }, page),
    );
    expectNoTableScan(bySender!);
    expect(bySender).toMatch(/inbound_messages_(client|conversation)_idx/);
    const [one] = await plansOf((q) => findInbound(q, CLIENT, ID));
    expectNoTableScan(one!);
    const [numbers] = await plansOf((q) => clientNumbers(q, CLIENT));
    expectNoTableScan(numbers!);
    expect(numbers).toContain('numbers_client_idx');
  });
});
