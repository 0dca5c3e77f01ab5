// @also-on-pglite: grouped sends share PGlite's one connection instead of a pool of concurrent transactions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../../support/engine.ts';
import { expectLedgerBalanced } from '../../support/ledger.ts';
import {
  createClient,
  giveCredit,
  registerUser,
  setPrice,
  uniquePrefix,
} from '../../support/seed.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';

/**
 * Sends are written in groups: the requests that arrive while one write runs go to the
 * database together in the next (src/server/db/group-commit.ts, send_sms_batch). Whatever
 * the grouping and the order, the ledger must read as if each send had been alone: a send is
 * accepted exactly when its amount fits the balance left at its turn, and a group that fails
 * fails each of its requests, never answering 201 for a send that was rolled back.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server.close());

/** Amounts in ten-thousandths, the balance's scale, so sums are exact integers. */
const units = (amount: number) => Math.round(amount * 10_000);

async function fundedClient(credit: string) {
  const owner = await registerUser(server.url);
  const client = await createClient(owner.http);
  await giveCredit(server.url, client.id, credit);
  const send = (recipient: string, body: string, reference: string) =>
    owner.http.post(`/api/clients/${client.id}/messages/sms`, {
      sender: 'Shop',
      recipient,
      body,
      reference,
    });
  const balance = async () =>
    units(
      (await owner.http.get(`/api/clients/${client.id}/balances/default`)).body
        .amount,
    );
  return { client, send, balance };
}

/** A shuffled copy (Fisher–Yates), so each round interleaves differently. */
function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

describe('concurrent sends of mixed amounts near a zero balance', () => {
  it('accepts exactly the sends that fit, in any interleaving, with the ledger exact', async () => {
    // Three destinations at three prices; 1 to 3 segments each: amounts from 0.03 to 0.2175.
    const destinations = [
      { prefix: uniquePrefix(), price: '0.03' },
      { prefix: uniquePrefix(), price: '0.0725' },
      { prefix: uniquePrefix(), price: '0.05' },
    ];
    for (const d of destinations) {
      await setPrice(server.url, d.prefix, {
        name: `Batching ${d.prefix}`,
        pricePerSegment: d.price,
      });
    }
    const bodies = ['a', 'b'.repeat(200), 'c'.repeat(400)]; // 1, 2 and 3 segments
    for (let round = 0; round < 3; round++) {
      const { send, balance } = await fundedClient('1.37');
      const sends = shuffled(
        Array.from({ length: 45 }, (_, i) => {
          const d = destinations[i % 3]!;
          const segments = (Math.floor(i / 3) % 3) + 1;
          return {
            recipient: `${d.prefix}${String(i).padStart(3, '0')}`,
            body: bodies[segments - 1]!,
            reference: `round ${round} send ${i}`,
            amount: units(Number(d.price)) * segments,
          };
        }),
      );
      const answers = await Promise.all(
        sends.map((s) => send(s.recipient, s.body, s.reference)),
      );
      const final = await balance();
      const accepted = sends.filter((_, i) => answers[i]!.status === 201);
      const refused = sends.filter((_, i) => answers[i]!.status === 402);
      expect(accepted.length + refused.length).toBe(sends.length);
      // Each accepted send paid its own amount, and nothing else left the balance.
      answers
        .filter((a) => a.status === 201)
        .forEach((a, i) =>
          expect(units(a.body.price)).toBe(accepted[i]!.amount),
        );
      const spent = accepted.reduce((sum, s) => sum + s.amount, 0);
      expect(final).toBe(units(1.37) - spent);
      expect(final).toBeGreaterThanOrEqual(0);
      // A send refused for the balance did not fit what was left at its turn, and the balance
      // only went down since: it does not fit what is left now either.
      for (const s of refused) expect(s.amount).toBeGreaterThan(final);
      expect(refused.length).toBeGreaterThan(0);
      await expectLedgerBalanced(server);
    }
  }, 60_000);
});

describe('a group write that fails in the middle', () => {
  afterAll(async () => {
    await server.app.db.query(
      'DROP TRIGGER IF EXISTS test_fail_some_sends ON messages',
    );
    await server.app.db.query('DROP FUNCTION IF EXISTS test_fail_some_sends()');
  });

  it('rolls back its group: every request in it gets an error, and every 201 was kept', async () => {
    // A trigger of the test's own fails any message whose body asks for it, inside the
    // statement that writes the whole group.
    await server.app.db.query(`
      CREATE FUNCTION test_fail_some_sends() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.body = 'fail this group' THEN
          RAISE EXCEPTION 'injected failure';
        END IF;
        RETURN NEW;
      END $$`);
    await server.app.db.query(`
      CREATE TRIGGER test_fail_some_sends BEFORE INSERT ON messages
      FOR EACH ROW EXECUTE FUNCTION test_fail_some_sends()`);
    const { client, send, balance } = await fundedClient('10');
    const sends = Array.from({ length: 60 }, (_, i) => ({
      body: i % 15 === 7 ? 'fail this group' : `fine ${i}`,
      reference: `group ${i}`,
    }));
    const answers = await Promise.all(
      sends.map((s) => send('447700900123', s.body, s.reference)),
    );
    const statuses = answers.map((a) => a.status);
    for (const [i, s] of sends.entries()) {
      if (s.body === 'fail this group') expect(statuses[i]).toBe(500);
      else expect([201, 500]).toContain(statuses[i]);
    }
    const rows = await server.app.db.query<{ reference: string }>(
      'SELECT reference FROM messages WHERE client_id = $1',
      [client.id],
    );
    const stored = rows.map((r) => r.reference).sort();
    const answered201 = sends
      .filter((_, i) => statuses[i] === 201)
      .map((s) => s.reference)
      .sort();
    // Exactly the sends answered 201 are stored: no false success, no orphan.
    expect(stored).toEqual(answered201);
    expect(await balance()).toBe(units(10) - units(0.05) * answered201.length);
    await expectLedgerBalanced(server);
    // A failed group leaves the next one unharmed.
    expect((await send('447700900123', 'fine alone', 'after')).status).toBe(
      201,
    );
  }, 60_000);
});

describe.skipIf(!onPostgres)(
  'two groups of several clients written at once',
  () => {
    it('queue on the balances they share instead of deadlocking', async () => {
      // Two nodes (or one node's two groups in flight) write groups holding the same two
      // clients in opposite orders. Locking each balance when the group first needs it
      // deadlocked about one pair in ten, and PostgreSQL broke the deadlock by failing one
      // group: every request in it answered 500.
      const owner = await registerUser(server.url);
      const a = await createClient(owner.http);
      const b = await createClient(owner.http);
      for (const client of [a, b]) {
        await giveCredit(server.url, client.id, '100');
      }
      const send = (client: { id: string }) => ({
        clientId: client.id,
        ownerId: owner.id,
        defaultPrice: '0.05',
        sender: 'Shop',
        recipient: '447700900123',
        body: 'Hello',
        reference: '',
        encoding: 'GSM7',
        segments: 1,
        actorUserId: owner.id,
        key: null,
        hash: null,
        sendAt: null,
      });
      const groups = [
        [send(a), send(b)],
        [send(b), send(a)],
      ].map((group) => JSON.stringify(group));
      const failures: string[] = [];
      for (let round = 0; round < 100; round++) {
        const written = await Promise.allSettled(
          groups.map((group) =>
            server.app.db.query(
              'SELECT idx, refusal FROM send_sms_batch($1::jsonb)',
              [group],
            ),
          ),
        );
        for (const result of written) {
          if (result.status === 'rejected') {
            failures.push(String(result.reason));
          }
        }
      }
      expect(failures).toEqual([]);
      await expectLedgerBalanced(server);
    }, 60_000);
  },
);
