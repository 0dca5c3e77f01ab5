import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_CLIENTS_PER_USER } from '../../src/shared/limits.ts';
import { isFinal } from '../support/delivery.ts';
import { spawnFleet, type Fleet } from '../support/fleet.ts';
import { httpClient } from '../support/http.ts';
import {
  launchServer,
  stopServer,
  type SpawnedServer,
} from '../support/spawn-server.ts';
import { startSmscProcess, type SmscProcess } from '../support/smsc-process.ts';
import { createClient, giveCredit, registerUser } from '../support/seed.ts';

/**
 * Rules that must hold over several processes on one PostgreSQL (CONTRACT, "Operating a
 * fleet"): limits and balances counted by the database, not per node, and delivery jobs of a
 * killed worker process taken over by another. PostgreSQL pass only: the embedded database is
 * one process by nature.
 */
const WORKER = resolve(import.meta.dirname, '../../src/server/worker.ts');
const fleets: Fleet[] = [];
const processes: SpawnedServer[] = [];
const smscs: SmscProcess[] = [];
afterAll(async () => {
  for (const worker of processes) await stopServer(worker, 'SIGKILL');
  for (const fleet of fleets) await fleet.close();
  for (const smsc of smscs) await smsc.stop();
});

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'two API nodes on one PostgreSQL',
  () => {
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
      const balance = await onB.get(
        `/api/clients/${client.id}/balances/default`,
      );
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
        SMPP_HOST: smsc.host,
        SMPP_PORT: String(smsc.port),
        SMPP_SYSTEM_ID: 'test',
        SMPP_PASSWORD: 'secret',
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
  },
);
