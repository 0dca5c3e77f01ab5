import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { isFinal } from '../../support/delivery.ts';
import { onPostgres } from '../../support/engine.ts';
import { eventually } from '../../support/eventually.ts';
import {
  spawnFleet,
  WORKER_ENTRY as WORKER,
  type Fleet,
} from '../../support/fleet.ts';
import { httpClient } from '../../support/http.ts';
import {
  launchServer,
  stopServer,
  type SpawnedServer,
} from '../../support/spawn-server.ts';
import { createClient, giveCredit, registerUser } from '../../support/seed.ts';

/**
 * An API node killed with SIGKILL in the middle of a burst (issue 18, "kill -9 of node A during
 * a burst"): two accept-only API nodes and one delivery worker on one PostgreSQL. Every send
 * acknowledged with 201, by either node, must be in the database, debited exactly once and
 * delivered; a send A never answered may or may not exist, but if it does it is debited once and
 * delivered too. Nothing is charged twice: the debits add up to the balance's fall.
 *
 * What makes it fail: a node that answered 201 before its write committed (an acknowledgement
 * ahead of the group commit, a write left in the dead process's memory) leaves an acknowledged id
 * missing from `messages`; a send written twice (a retry inside the node, a replayed batch) shows
 * as a body found twice or a second debit; a debit without its message, or one for a message that
 * is not there, breaks the sums. PostgreSQL pass only: the embedded database is one process.
 */
const SENDS = 300;
const PRICE = 0.05;
const CREDIT = 100;
const fleets: Fleet[] = [];
const workers: SpawnedServer[] = [];
afterAll(async () => {
  for (const worker of workers) await stopServer(worker, 'SIGKILL');
  for (const fleet of fleets) await fleet.close();
});

describe.skipIf(!onPostgres)(
  'an API node killed with SIGKILL during a burst',
  () => {
    it('keeps every acknowledged send, debited once and delivered; an unanswered one is there once or not at all', async () => {
      // The API nodes only accept; the worker delivers through the simulator.
      const fleet = await spawnFleet(2, {
        DELIVERY_WORKERS: '0',
        SMS_PRICE: String(PRICE),
      });
      fleets.push(fleet);
      const [a, b] = fleet.nodes as [SpawnedServer, SpawnedServer];
      workers.push(
        await launchServer(
          {
            DATABASE_URL: fleet.databaseUrl,
            DELIVERY_WORKERS: '1',
            SMS_PRICE: String(PRICE),
          },
          WORKER,
        ),
      );
      const owner = await registerUser(a.url);
      const client = await createClient(owner.http);
      await giveCredit(a.url, client.id, CREDIT);
      const on = (url: string) =>
        httpClient(url, { username: owner.email, password: owner.password });
      const onA = on(a.url);
      const onB = on(b.url);

      // 16 loops send SENDS messages, every other one to A while A lives, each with its own
      // body (how an unanswered send is found again). A is killed once it has taken 40.
      const acked = new Map<string, string>(); // body → id
      const unanswered: string[] = [];
      const answeredOther: number[] = [];
      let ackedOnA = 0;
      let killed = false;
      let next = 0;
      const loops = Array.from({ length: 16 }, async () => {
        while (next < SENDS) {
          const n = next++;
          const body = `crash ${n}`;
          const toA = n % 2 === 0 && !killed;
          try {
            const answer = await (toA ? onA : onB).post(
              `/api/clients/${client.id}/messages/sms`,
              { sender: 'Fleet', recipient: '447700900123', body },
            );
            if (answer.status !== 201) {
              answeredOther.push(answer.status);
              continue;
            }
            expect(acked.has(body)).toBe(false);
            acked.set(body, answer.body.id as string);
            if (toA && ++ackedOnA === 40 && !killed) {
              killed = true;
              a.child.kill('SIGKILL');
            }
          } catch {
            // No answer: the connection was cut by the kill (or refused after it).
            expect(toA).toBe(true);
            unanswered.push(body);
          }
        }
      });
      await Promise.all(loops);
      await a.exited;
      expect(killed).toBe(true);
      expect(answeredOther).toEqual([]);

      const db = new pg.Client({ connectionString: fleet.databaseUrl });
      await db.connect();
      try {
        const messages = await eventually(
          async () =>
            (
              await db.query<{ id: string; body: string; state: string }>(
                'SELECT id, body, state FROM messages WHERE client_id = $1',
                [client.id],
              )
            ).rows,
          (rows) => rows.every((m) => isFinal(m.state)),
          { what: 'every message final', timeout: 60_000, interval: 250 },
        );
        const byBody = new Map<string, { id: string; state: string }[]>();
        for (const m of messages) {
          byBody.set(m.body, [
            ...(byBody.get(m.body) ?? []),
            { id: m.id, state: m.state },
          ]);
        }
        const debits = (
          await db.query<{ message_id: string; n: number; total: string }>(
            `SELECT message_id, count(*)::int AS n, sum(amount) AS total FROM balance_ledger
             WHERE client_id = $1 AND reason = 'SMS' GROUP BY message_id`,
            [client.id],
          )
        ).rows;
        const debitOf = new Map(debits.map((d) => [d.message_id, d]));
        const balance = await onB.get(
          `/api/clients/${client.id}/balances/default`,
        );
        const unansweredFound = unanswered.filter((body) => byBody.has(body));
        console.log(
          `fleet crash: ${acked.size} acknowledged (${ackedOnA} by A), ${unanswered.length} ` +
            `unanswered by A (${unansweredFound.length} of them found), ${messages.length} ` +
            `messages found, ${debits.length} debited, balance ${balance.body.amount}`,
        );

        // Every acknowledged send: its message, once, delivered, debited once.
        for (const [body, id] of acked) {
          expect(byBody.get(body), body).toEqual([{ id, state: 'DELIVERED' }]);
          expect(debitOf.get(id)?.n, body).toBe(1);
        }
        // Every unanswered send: absent, or there once, delivered and debited once.
        for (const body of unanswered) {
          const found = byBody.get(body) ?? [];
          expect(found.length, body).toBeLessThanOrEqual(1);
          for (const m of found) {
            expect(m.state, body).toBe('DELIVERED');
            expect(debitOf.get(m.id)?.n, body).toBe(1);
          }
        }
        // Nothing else was written, and nothing charged twice or for nothing.
        expect(acked.size + unanswered.length).toBe(SENDS);
        expect(messages).toHaveLength(acked.size + unansweredFound.length);
        expect(debits).toHaveLength(messages.length);
        for (const d of debits) expect(Number(d.total)).toBeCloseTo(-PRICE, 8);
        expect(balance.body.amount).toBeCloseTo(
          CREDIT - PRICE * messages.length,
          8,
        );
      } finally {
        await db.end();
      }
    }, 180_000);
  },
);
