import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.ts';
import { UNRECORDED_PER_WINDOW_SLOT } from '../../../src/server/delivery/engine.ts';
import { isFinal } from '../../support/delivery.ts';
import { httpClient } from '../../support/http.ts';
import {
  createClient,
  registerUser,
  defaultBalancePath,
} from '../../support/seed.ts';
import {
  migratedDataDir,
  spawnServer,
  stopServer,
  type SpawnedServer,
} from '../../support/spawn-server.ts';
import {
  startSmscProcess,
  type SmscProcess,
} from '../../support/smsc-process.ts';
import { ADMIN } from '../../support/start-server.ts';

/**
 * Crash: a real server process on a real DATA_DIR delivers to a slow SMSC in another process;
 * SIGKILL while messages are outstanding, restart, and every accepted message still reaches a
 * final state. Messages the SMSC took but the killed server had not recorded yet are sent again
 * (at-least-once): those duplicates are counted and printed.
 */
const WINDOW = 10;
const MESSAGES = 200;
let smsc: SmscProcess | undefined;
const servers: SpawnedServer[] = [];
afterAll(async () => {
  for (const server of servers) await stopServer(server, 'SIGKILL');
  await smsc?.stop();
});

describe('delivery survives SIGKILL of the server', () => {
  it('brings every accepted message to a final state after a restart, none lost', async () => {
    smsc = await startSmscProcess({
      SMSC_ANSWER_DELAY_MS: '40', // 10 in flight / 40 ms: at most 250 submits per second
      SMSC_RECEIPT: 'DELIVRD',
      SMSC_REDELIVER_RECEIPTS: '1',
    });
    const env = {
      DATA_DIR: await migratedDataDir('crash'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SMPP_HOST: smsc.host,
      SMPP_PORT: String(smsc.port),
      SMPP_SYSTEM_ID: 'test',
      SMPP_PASSWORD: 'secret',
      SMPP_WINDOW: String(WINDOW),
    };
    const first = await spawnServer(env);
    servers.push(first);
    const owner = await registerUser(first.url);
    const client = await createClient(owner.http);
    const admin = httpClient(first.url, {
      username: ADMIN.email,
      password: ADMIN.password,
    });
    await admin.post(`${defaultBalancePath(client.id)}/freecredit`, {
      amount: 100,
    });

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
    const slowSmsc = smsc;
    await expect
      .poll(async () => (await slowSmsc.stats()).submits, {
        timeout: 60_000, // the test's own limit governs
        interval: 20,
      })
      .toBeGreaterThanOrEqual(30);
    first.child.kill('SIGKILL');
    await first.exited;
    const atKill = (await smsc.stats()).submits;
    expect(atKill).toBeLessThan(MESSAGES);

    phase(`killed with ${atKill} submits seen`);
    const second = await spawnServer(env);
    phase('restarted');
    servers.push(second);
    const http = httpClient(second.url, {
      username: owner.email,
      password: owner.password,
    });
    const messages: { id: string; state: string }[] = await eventually(
      async () =>
        (await http.get(`/api/clients/${client.id}/messages?count=300`)).body
          .messages,
      (found: { id: string; state: string }[]) =>
        found.every((m) => isFinal(m.state)),
      { what: 'every message final', timeout: 20_000, interval: 200 },
    );
    phase('all final');
    const states = messages.reduce<Record<string, number>>((acc, m) => {
      acc[m.state] = (acc[m.state] ?? 0) + 1;
      return acc;
    }, {});
    expect(messages.map((m) => m.id).sort()).toEqual([...accepted].sort());
    expect(states).toEqual({ DELIVERED: MESSAGES });

    const { texts } = await smsc.stats();
    const seen = new Map<string, number>();
    for (const text of texts) seen.set(text, (seen.get(text) ?? 0) + 1);
    const duplicates = [...seen.values()].reduce((n, c) => n + c - 1, 0);
    console.log(
      `crash test: ${MESSAGES} accepted, ${atKill} submits seen by the SMSC at the kill, ` +
        `${texts.length} in all, ${duplicates} duplicate(s) (window ${WINDOW})`,
    );
    expect(seen.size).toBe(MESSAGES);
    // Only messages submitted and not yet recorded at the kill can go twice: the engine caps
    // them at UNRECORDED_PER_WINDOW_SLOT × the window (in practice about one window: those the
    // slow SMSC had not answered yet).
    expect(duplicates).toBeLessThanOrEqual(WINDOW * UNRECORDED_PER_WINDOW_SLOT);
  }, 60_000);
});
