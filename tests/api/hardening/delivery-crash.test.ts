// @also-on-pglite: the embedded database hands a killed process's jobs back when it opens again; PostgreSQL by heartbeat and supervision.
import { afterAll, describe, expect, it } from 'vitest';
import { UNRECORDED_PER_WINDOW_SLOT } from '../../../src/server/delivery/engine.ts';
import { isFinal } from '../../support/delivery.ts';
import { eventually } from '../../support/eventually.ts';
import { smscBind } from '../../support/fleet.ts';
import {
  cleanUp,
  restartableServer,
  type Restartables,
} from '../../support/restartable.ts';
import {
  startSmscProcess,
  type SmscProcess,
} from '../../support/smsc-process.ts';
import { ADMIN } from '../../support/start-server.ts';
import { httpClient } from '../../support/http.ts';

/**
 * Crash: a real server process on a real DATA_DIR (or, in the PostgreSQL pass, on a database
 * of the server) delivers to a slow SMSC in another process; SIGKILL while messages are
 * outstanding, start another server, and every accepted message still reaches a final state.
 * Messages the SMSC took but the killed server had not recorded yet are sent again
 * (at-least-once): those duplicates are counted and printed.
 *
 * The embedded database hands the dead process's jobs back when it opens again; on PostgreSQL
 * the new server cannot know the old one is dead: its jobs come back when their heartbeat
 * stops, which the contract bounds at 60 seconds.
 */
const WINDOW = 10;
const MESSAGES = 200;
/** From the kill to every message final, the restart included (CONTRACT: Operating a fleet). */
const TAKEOVER_MS = 60_000;
const smscs: SmscProcess[] = [];
const started: Restartables = { servers: [], databases: [] };
afterAll(async () => {
  await cleanUp(started);
  for (const smsc of smscs) await smsc.stop();
});

/**
 * Sends MESSAGES through a server, kills it with SIGKILL once the SMSC has seen `killAfter`
 * submits, starts another on the same database and waits (up to TAKEOVER_MS after the kill)
 * until every message is final. Answers what the SMSC saw and the messages' states.
 */
async function crashAndRestart(
  smscEnv: Record<string, string>,
  killAfter: number,
) {
  const smsc = await startSmscProcess(smscEnv);
  smscs.push(smsc);
  const { first, owner, client, restart, ownerOn } = await restartableServer(
    started,
    'crash',
    { ...smscBind(smsc), SMPP_WINDOW: String(WINDOW) },
    100,
  );

  const t0 = Date.now();
  const phase = (what: string) =>
    console.log(`crash test: ${what} at ${Date.now() - t0} ms`);
  const accepted: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < MESSAGES) {
        const n = next++;
        const sent = await owner.http.post(
          `/api/clients/${client.id}/messages/sms`,
          { sender: 'Crash', recipient: '447700900123', body: `crash ${n}` },
        );
        expect(sent.status).toBe(201);
        accepted.push(sent.body.id);
      }
    }),
  );
  phase(`accepted ${accepted.length}`);
  // Kill while the SMSC is still working through them.
  await expect
    .poll(async () => (await smsc.stats()).submits, {
      timeout: 30_000,
      interval: 20,
    })
    .toBeGreaterThanOrEqual(killAfter);
  first.child.kill('SIGKILL');
  await first.exited;
  const killedAt = Date.now();
  const atKill = (await smsc.stats()).submits;
  phase(`killed with ${atKill} submits seen`);

  const http = ownerOn(await restart());
  phase('restarted');
  const messages: { id: string; state: string }[] = await eventually(
    async () =>
      (await http.get(`/api/clients/${client.id}/messages?count=300`)).body
        .messages,
    (found: { id: string; state: string }[]) =>
      found.every((m) => isFinal(m.state)),
    {
      what: 'every message final',
      timeout: killedAt + TAKEOVER_MS - Date.now(),
      interval: 200,
    },
  );
  const takeoverMs = Date.now() - killedAt;
  phase(`all final ${takeoverMs} ms after the kill`);
  const states = messages.reduce<Record<string, number>>((acc, m) => {
    acc[m.state] = (acc[m.state] ?? 0) + 1;
    return acc;
  }, {});
  const { texts } = await smsc.stats();
  const seen = new Map<string, number>();
  for (const text of texts) seen.set(text, (seen.get(text) ?? 0) + 1);
  const duplicates = [...seen.values()].reduce((n, c) => n + c - 1, 0);
  console.log(
    `crash test: ${MESSAGES} accepted, ${atKill} submits seen by the SMSC at the kill, ` +
      `${texts.length} in all, ${duplicates} duplicate(s) (window ${WINDOW}), ` +
      `all final ${takeoverMs} ms after the kill`,
    states,
  );
  return { accepted, messages, states, atKill, seen, duplicates };
}

describe('delivery survives SIGKILL of the server', () => {
  it(
    'brings every accepted message to a final state after a restart, none lost',
    async () => {
      const run = await crashAndRestart(
        {
          SMSC_ANSWER_DELAY_MS: '40', // 10 in flight / 40 ms: at most 250 submits per second
          SMSC_RECEIPT: 'DELIVRD',
          SMSC_REDELIVER_RECEIPTS: '1',
        },
        30,
      );
      expect(run.atKill).toBeLessThan(MESSAGES);
      expect(run.messages.map((m) => m.id).sort()).toEqual(
        [...run.accepted].sort(),
      );
      expect(run.states).toEqual({ DELIVERED: MESSAGES });
      expect(run.seen.size).toBe(MESSAGES);
      // Only messages submitted and not yet recorded at the kill can go twice: the engine caps
      // them at UNRECORDED_PER_WINDOW_SLOT × the window (in practice about one window: those the
      // slow SMSC had not answered yet).
      expect(run.duplicates).toBeLessThanOrEqual(
        WINDOW * UNRECORDED_PER_WINDOW_SLOT,
      );
    },
    TAKEOVER_MS + 60_000,
  );

  // A very slow SMSC: at the kill most messages sit in jobs the dead server had fetched and not
  // submitted yet. Nothing but the jobs' own recovery brings them back (before heartbeats, on
  // PostgreSQL, about half were still ACCEPTED 60 s later).
  it(
    'takes over the jobs a killed server held, every message final within 60 seconds',
    async () => {
      const run = await crashAndRestart(
        {
          SMSC_ANSWER_DELAY_MS: '1000', // 10 in flight / 1 s: 10 submits per second
          SMSC_RECEIPT: 'DELIVRD',
          SMSC_REDELIVER_RECEIPTS: '1',
        },
        10,
      );
      expect(run.atKill).toBeLessThan(MESSAGES / 2);
      expect(run.states).toEqual({ DELIVERED: MESSAGES });
      expect(run.duplicates).toBeLessThanOrEqual(
        WINDOW * UNRECORDED_PER_WINDOW_SLOT,
      );
    },
    TAKEOVER_MS + 60_000,
  );
});

// A batch's release is paced by the client's messages a second (migrations/021): the job that
// loads its messages lets one second's worth go and, in the same transaction, books a new job at
// a later second for each of the others. A kill after that commit and before the job completes
// leaves the old job to come back (when the database reopens, or when its heartbeat stops on
// PostgreSQL): it must leave the deferred messages to their newer jobs, and nothing may be lost,
// sent twice beyond the unrecorded window, failed or refunded.
describe('a paced batch release survives SIGKILL of the server', () => {
  it(
    'delivers every message of the batch, none refunded, resending only what was unrecorded at the kill',
    async () => {
      const RECIPIENTS = 24;
      const PER_SECOND = 4;
      // A receipt the SMSC sent to the killed bind goes again to the next one, as a real
      // SMSC does: without it a message submitted just before the kill stays SUBMITTED.
      const smsc = await startSmscProcess({
        SMSC_RECEIPT: 'DELIVRD',
        SMSC_REDELIVER_RECEIPTS: '1',
      });
      smscs.push(smsc);
      const { first, owner, client, restart, ownerOn } =
        await restartableServer(
          started,
          'paced',
          { ...smscBind(smsc), SMPP_WINDOW: String(WINDOW) },
          100,
        );
      const admin = httpClient(first.url, {
        username: ADMIN.email,
        password: ADMIN.password,
      });
      expect(
        (
          await admin.put(`/api/admin/clients/${client.id}/limits`, {
            maxMessagesPerSecond: PER_SECOND,
          })
        ).status,
      ).toBe(200);
      const base = `/api/clients/${client.id}`;
      const sent = await owner.http.post(`${base}/batches`, {
        recipients: Array.from(
          { length: RECIPIENTS },
          (_, i) => `447700900${String(i).padStart(3, '0')}`,
        ),
        body: 'Paced',
      });
      expect(sent.status).toBe(201);
      // Killed once the first second's messages are out and the others wait for theirs.
      await expect
        .poll(async () => (await smsc.stats()).submits, {
          timeout: 20_000,
          interval: 20,
        })
        .toBeGreaterThanOrEqual(PER_SECOND);
      first.child.kill('SIGKILL');
      await first.exited;
      const killedAt = Date.now();
      const atKill = (await smsc.stats()).submits;
      expect(atKill).toBeLessThan(RECIPIENTS);

      const http = ownerOn(await restart());
      const batch = await eventually(
        async () => (await http.get(`${base}/batches/${sent.body.id}`)).body,
        (b: { states: Record<string, number> }) =>
          b.states.DELIVERED === RECIPIENTS,
        {
          what: 'every message of the batch DELIVERED',
          timeout: killedAt + TAKEOVER_MS - Date.now(),
          interval: 200,
        },
      );
      expect(batch.states).toEqual({ DELIVERED: RECIPIENTS });
      const { submits } = await smsc.stats();
      console.log(
        `paced crash test: ${atKill} submits at the kill, ${submits} in all for ${RECIPIENTS} messages`,
      );
      expect(submits).toBeGreaterThanOrEqual(RECIPIENTS);
      expect(submits - RECIPIENTS).toBeLessThanOrEqual(
        WINDOW * UNRECORDED_PER_WINDOW_SLOT,
      );
      const refunds = await http.get(
        `${base}/balances/default/ledger?kind=REFUND`,
      );
      expect(refunds.body.total).toBe(0);
    },
    TAKEOVER_MS + 60_000,
  );
});
