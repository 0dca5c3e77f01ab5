import { afterAll, describe, expect, it } from 'vitest';
import {
  MAX_CLIENTS_PER_USER,
  MAX_PAGE_SIZE,
} from '../../../src/shared/limits.ts';
import { isFinal } from '../../support/delivery.ts';
import { onPostgres } from '../../support/engine.ts';
import {
  smscBind,
  spawnFleet,
  WORKER_ENTRY as WORKER,
  type Fleet,
} from '../../support/fleet.ts';
import { httpClient } from '../../support/http.ts';
import {
  launchServer,
  spawnServer,
  stopServer,
  type SpawnedServer,
} from '../../support/spawn-server.ts';
import { ADMIN } from '../../support/start-server.ts';
import {
  startSmscProcess,
  type SmscProcess,
} from '../../support/smsc-process.ts';
import { createClient, giveCredit, registerUser } from '../../support/seed.ts';
import {
  throwawayPostgres,
  type ThrowawayPostgres,
} from '../../support/throwaway-postgres.ts';

/**
 * Rules that must hold over several processes on one PostgreSQL (CONTRACT, "Operating a
 * fleet"): limits and balances counted by the database, not per node, and delivery jobs of a
 * killed worker process taken over by another. PostgreSQL pass only: the embedded database is
 * one process by nature.
 */
const fleets: Fleet[] = [];
const processes: SpawnedServer[] = [];
const smscs: SmscProcess[] = [];
const clusters: ThrowawayPostgres[] = [];
afterAll(async () => {
  for (const cluster of clusters) cluster.remove();
  for (const worker of processes) await stopServer(worker, 'SIGKILL');
  for (const fleet of fleets) await fleet.close();
  for (const smsc of smscs) await smsc.stop();
});

describe.skipIf(!onPostgres)('two API nodes on one PostgreSQL', () => {
  it('count limits and balances over both nodes', async () => {
    const fleet = await spawnFleet(2, { SMS_PRICE: '0.05' });
    fleets.push(fleet);
    const [a, b] = fleet.nodes.map((node) => node.url) as [string, string];
    const owner = await registerUser(a);
    const onB = httpClient(b, {
      username: owner.email,
      password: owner.password,
    });

    // 50 creates over both nodes at once: exactly the limit is made. They are also the
    // owner's first requests on each node: parallel checks of one password share one try.
    const creates = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 ? onB : owner.http).post('/api/clients', { name: `C${i}` }),
      ),
    );
    const made = creates.filter((answer) => answer.status === 201);
    expect(made).toHaveLength(MAX_CLIENTS_PER_USER);
    expect(
      creates.filter((answer) => answer.status !== 201).map((x) => x.status),
    ).toEqual(Array(50 - MAX_CLIENTS_PER_USER).fill(409));

    // 60 sends of 0.05 on 1.00 over both nodes at once: exactly 20 are taken.
    const client = made[0]!.body as { id: string };
    await giveCredit(a, client.id, '1.00');
    const sends = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? onB : owner.http).post(
          `/api/clients/${client.id}/messages/sms`,
          { sender: 'Fleet', recipient: '447700900123', body: `m${i}` },
        ),
      ),
    );
    expect(sends.filter((answer) => answer.status === 201)).toHaveLength(20);
    expect(
      new Set(
        sends.filter((x) => x.status !== 201).map((answer) => answer.status),
      ),
    ).toEqual(new Set([402]));
    const balance = await onB.get(`/api/clients/${client.id}/balances/default`);
    expect(balance.body.amount).toBe(0);
  }, 120_000);

  it('takes over the jobs of a killed worker process within 60 seconds', async () => {
    const smsc = await startSmscProcess({
      SMSC_ANSWER_DELAY_MS: '1000', // 10 in flight / 1 s: 10 submits per second
      SMSC_RECEIPT: 'DELIVRD',
      SMSC_REDELIVER_RECEIPTS: '1',
    });
    smscs.push(smsc);
    // API node accepts only; the deliveries are the worker processes' job.
    const fleet = await spawnFleet(1, { DELIVERY_WORKERS: '0' });
    fleets.push(fleet);
    const url = fleet.nodes[0]!.url;
    const workerEnv = {
      DATABASE_URL: fleet.databaseUrl,
      DELIVERY_WORKERS: '1',
      ...smscBind(smsc),
      SMPP_WINDOW: '10',
    };
    const first = await launchServer(workerEnv, WORKER);
    processes.push(first);

    const owner = await registerUser(url);
    const client = await createClient(owner.http);
    await giveCredit(url, client.id, 100);
    for (let i = 0; i < 100; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, (_, j) =>
          owner.http.post(`/api/clients/${client.id}/messages/sms`, {
            sender: 'Fleet',
            recipient: '447700900123',
            body: `w${i + j}`,
          }),
        ),
      );
    }
    await expect
      .poll(async () => (await smsc.stats()).submits, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(10);
    first.child.kill('SIGKILL');
    await first.exited;
    const killedAt = Date.now();
    const atKill = (await smsc.stats()).submits;
    expect(atKill).toBeLessThan(50);

    processes.push(await launchServer(workerEnv, WORKER));
    await expect
      .poll(
        async () => {
          const list = await owner.http.get(
            `/api/clients/${client.id}/messages?count=100`,
          );
          return (list.body.messages as { state: string }[]).filter(
            (m) => !isFinal(m.state),
          ).length;
        },
        { timeout: 60_000 - (Date.now() - killedAt), interval: 500 },
      )
      .toBe(0);
    console.log(
      `fleet: a killed worker's 100 messages (${atKill} submitted at the kill) all final ` +
        `${Date.now() - killedAt} ms after the kill`,
    );
  }, 150_000);
});

describe.skipIf(!onPostgres)('PostgreSQL restarted under traffic', () => {
  it('answers only successes or 503 with Retry-After, keeps every acknowledged send and recovers by itself', async () => {
    const cluster = await throwawayPostgres();
    clusters.push(cluster);
    const node = await spawnServer({
      DATABASE_URL: cluster.url,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    });
    processes.push(node);
    const owner = await registerUser(node.url);
    const client = await createClient(owner.http);
    await giveCredit(node.url, client.id, 100);
    const send = (n: number) =>
      owner.http.post(`/api/clients/${client.id}/messages/sms`, {
        sender: 'Restart',
        recipient: '447700900123',
        body: `r${n}`,
      });

    // Sends go on from 8 loops while PostgreSQL restarts (as an operator's restart does).
    const accepted: string[] = [];
    const refused: { status: number; retryAfter: string | null }[] = [];
    let n = 0;
    let restarted = false;
    const loops = Array.from({ length: 8 }, async () => {
      while (!restarted || refused.length === 0 || n < 400) {
        const answer = await send(n++);
        if (answer.status === 201) accepted.push(answer.body.id);
        else
          refused.push({
            status: answer.status,
            retryAfter: answer.headers.get('retry-after'),
          });
        if (n > 5_000) break;
      }
    });
    await expect
      .poll(() => accepted.length, { timeout: 15_000 })
      .toBeGreaterThan(50);
    cluster.stop('fast');
    // Down until the node has answered the outage (503) a few times.
    const refusedBefore = refused.length;
    await expect
      .poll(() => refused.length, { timeout: 15_000 })
      .toBeGreaterThan(refusedBefore + 2);
    cluster.start();
    restarted = true;
    await Promise.all(loops);

    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.status).toBe(503);
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
    // Recovered: the node answers again, sends are taken, and the delivery queue runs.
    await expect
      .poll(async () => (await send(-1)).status, { timeout: 30_000 })
      .toBe(201);
    // Every message final: none left ACCEPTED or SUBMITTED.
    const left = async (state: string) =>
      (
        await owner.http.get(
          `/api/clients/${client.id}/messages?count=1&state=${state}`,
        )
      ).body.total as number;
    await expect
      .poll(
        async () =>
          `ACCEPTED ${await left('ACCEPTED')}, SUBMITTED ${await left('SUBMITTED')}`,
        {
          timeout: 60_000,
          interval: 500,
        },
      )
      .toBe('ACCEPTED 0, SUBMITTED 0');
    // Every acknowledged send is kept, and paid once.
    const kept = new Set<string>();
    for (let offset = 0; ; offset += MAX_PAGE_SIZE) {
      const page = await owner.http.get(
        `/api/clients/${client.id}/messages?count=${MAX_PAGE_SIZE}&offset=${offset}`,
      );
      for (const m of page.body.messages as { id: string }[]) kept.add(m.id);
      if (offset + MAX_PAGE_SIZE >= page.body.total) break;
    }
    expect(accepted.filter((id) => !kept.has(id))).toEqual([]);
    const balance = await owner.http.get(
      `/api/clients/${client.id}/balances/default`,
    );
    expect(balance.body.amount).toBeCloseTo(100 - 0.05 * kept.size, 8);
    console.log(
      `fleet: PostgreSQL restarted under traffic: ${accepted.length} sends taken, ` +
        `${refused.length} answered 503, ${kept.size} messages, all final`,
    );
  }, 180_000);
});
