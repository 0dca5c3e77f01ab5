import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgres, type Db } from '../../../src/server/db/client.ts';
import { ledgerDifferences } from '../../../src/server/features/balances/ledger-check.ts';
import { isFinal } from '../../support/delivery.ts';
import { onPostgres } from '../../support/engine.ts';
import { eventually } from '../../support/eventually.ts';
import { smscBind, spawnFleet, type Fleet } from '../../support/fleet.ts';
import {
  adminHttp,
  createClient,
  giveCredit,
  registerUser,
} from '../../support/seed.ts';
import { startSmsc, type TestSmsc } from '../../support/smsc.ts';
import type { SpawnedServer } from '../../support/spawn-server.ts';

/**
 * Fair delivery (CONTRACT "Destinations") across a fleet, and through a SIGKILL: the lanes and
 * the served round live in the database, so a client's backlog queued through one node does not
 * hold back another client's message sent through another, even once the first node is killed
 * in the middle of delivering that backlog. Afterwards nothing is lost (every message of the
 * backlog reached the SMSC or was cancelled and refunded) and nothing is doubled beyond what
 * at-least-once delivery allows: a message sent twice was one the killed node had submitted
 * before it died (its answer not yet recorded). PostgreSQL only: the embedded database is one
 * process.
 */
const BUDGET_MS = 5000;
let smsc: TestSmsc | undefined;
let fleet: Fleet | undefined;
let db: Db | undefined;
afterAll(async () => {
  await db?.close();
  await fleet?.close();
  await smsc?.close();
});

describe.skipIf(!onPostgres)(
  'fair delivery on two nodes, one killed with SIGKILL',
  () => {
    it("hands another client's message to the SMSC within 5 s; the backlog is neither lost nor doubled", async () => {
      smsc = await startSmsc();
      fleet = await spawnFleet(2, { ...smscBind(smsc), SMPP_MAX_TPS: '50' });
      const [one, two] = fleet.nodes as [SpawnedServer, SpawnedServer];
      db = await openPostgres(fleet.databaseUrl, 2);

      // Client A's batch of 2,000 through node one: both nodes deliver it, 50/s each.
      const a = await registerUser(one.url);
      const clientA = await createClient(a.http);
      await giveCredit(one.url, clientA.id, 1000);
      const textA = `Fleet backlog ${randomUUID()}`;
      const batch = await a.http.post(`/api/clients/${clientA.id}/batches`, {
        recipients: Array.from(
          { length: 2000 },
          (_, i) => `+4477${String(i).padStart(8, '0')}`,
        ),
        body: textA,
      });
      expect(batch.status, JSON.stringify(batch.body)).toBe(201);
      const ofA = () => smsc!.submits.filter((s) => s.text === textA);
      await eventually(ofA, (list) => list.length >= 100, {
        what: "A's backlog flowing",
        timeout: 20_000,
      });

      // Node one dies holding jobs of A's; client B sends through node two.
      one.child.kill('SIGKILL');
      await one.exited;
      const killedAt = performance.now();
      const b = await registerUser(two.url);
      const clientB = await createClient(b.http);
      await giveCredit(two.url, clientB.id, 10);
      const textB = `Fleet newcomer ${randomUUID()}`;
      const sentAt = performance.now();
      const sent = await b.http.post(
        `/api/clients/${clientB.id}/messages/sms`,
        {
          sender: 'Shop',
          recipient: '+44 7700 900999',
          body: textB,
        },
      );
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      const [atSmsc] = await eventually(
        () => smsc!.submits.filter((s) => s.text === textB),
        (list) => list.length > 0,
        { what: "B's message at the SMSC", timeout: 15_000, interval: 20 },
      );
      expect(atSmsc!.receivedAt - sentAt).toBeLessThan(BUDGET_MS);

      // Staff stop the rest of A's backlog; what node one held is taken over by node two after
      // its heartbeat stops (within the minute the CONTRACT allows) and sent.
      const stop = await adminHttp(two.url).post(
        `/api/admin/clients/${clientA.id}/messages/cancel`,
        {},
      );
      expect(stop.status, JSON.stringify(stop.body)).toBe(200);
      const messages = await eventually(
        () =>
          db!.query<{ recipient: string; state: string }>(
            'SELECT recipient, state FROM messages WHERE client_id = $1',
            [clientA.id],
          ),
        (rows) =>
          rows.length === 2000 &&
          rows.every(
            (m) =>
              isFinal(m.state) || ['SUBMITTED', 'CANCELED'].includes(m.state),
          ),
        { what: "every message of A's sent or cancelled", timeout: 90_000 },
      );
      const canceled = messages.filter((m) => m.state === 'CANCELED');
      const sentOnes = messages.filter((m) => m.state !== 'CANCELED');
      expect(canceled.length).toBeGreaterThan(0);
      expect(sentOnes.every((m) => m.state === 'SUBMITTED')).toBe(true);

      // None lost: every message not cancelled reached the SMSC; none cancelled did.
      const times = new Map<string, number[]>();
      for (const s of ofA()) {
        times.set(s.destinationAddr, [
          ...(times.get(s.destinationAddr) ?? []),
          s.receivedAt,
        ]);
      }
      expect(new Set(times.keys())).toEqual(
        new Set(sentOnes.map((m) => m.recipient)),
      );
      // Doubled only where at-least-once allows it: first sent before the kill.
      for (const [to, at] of times) {
        if (at.length > 1) {
          expect(at, to).toHaveLength(2);
          expect(at[0]!, to).toBeLessThan(killedAt);
        }
      }
      expect(
        smsc.submits.filter((s) => s.text === textB),
        "B's message once",
      ).toHaveLength(1);
      expect(await ledgerDifferences(db)).toEqual([]);
    }, 180_000);
  },
);
