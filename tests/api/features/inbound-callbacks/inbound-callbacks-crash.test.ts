import { randomInt } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../../../support/engine.ts';
import { eventually } from '../../../support/eventually.ts';
import {
  spawnFleet,
  WORKER_ENTRY as WORKER,
  type Fleet,
} from '../../../support/fleet.ts';
import { createClient, registerUser } from '../../../support/seed.ts';
import {
  launchServer,
  stopServer,
  type SpawnedServer,
} from '../../../support/spawn-server.ts';
import {
  sendVonageInbound,
  vonageInboundFields,
} from '../../../support/vonage-server.ts';

/**
 * An inbound callback is queued by the inbound write itself, in its transaction, so it lives in
 * the database, not in the node that took the message: an accept-only API node (no callback
 * worker) takes Vonage inbound messages and is killed with SIGKILL in the middle; a worker
 * process started only afterwards tells every message that was stored (each one acknowledged
 * with 200 among them) once to the client's inbound callback URL, and no other.
 *
 * What makes it fail: an event queued after the write's commit (from the node's memory) is lost
 * with the node for a message acknowledged just before the kill; an event queued outside the
 * write's transaction can outlive a write that rolled back (a callback for a message that is not
 * stored). PostgreSQL pass only: several processes on one database.
 */
const MESSAGES = 120;
const KILL_AFTER = 40;

const fleets: Fleet[] = [];
const workers: SpawnedServer[] = [];
const receivers: http.Server[] = [];
afterAll(async () => {
  for (const worker of workers) await stopServer(worker, 'SIGKILL');
  for (const fleet of fleets) await fleet.close();
  for (const receiver of receivers) {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});

describe.skipIf(!onPostgres)(
  'inbound callbacks when the node that took the messages is killed with SIGKILL',
  () => {
    it('tells every stored message once, from another process, acknowledged ones included', async () => {
      const told: string[] = [];
      const receiver = http.createServer(async (request, response) => {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        told.push(
          (
            JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
              body: string;
            }
          ).body,
        );
        response.writeHead(204).end();
      });
      receivers.push(receiver);
      await new Promise<void>((resolve) =>
        receiver.listen(0, '127.0.0.1', resolve),
      );
      const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/inbound`;

      const fleet = await spawnFleet(1, {
        DELIVERY_WORKERS: '0', // accept-only: no callback worker here
        VONAGE_API_KEY: 'key-1',
        VONAGE_API_SECRET: 'secret-1',
        STATUS_CALLBACK_ALLOW_PRIVATE: 'true',
      });
      fleets.push(fleet);
      const [a] = fleet.nodes as [SpawnedServer];
      const owner = await registerUser(a.url);
      const client = await createClient(owner.http);
      expect(
        (
          await owner.http.put(`/api/clients/${client.id}`, {
            inboundCallbackUrl: receiverUrl,
          })
        ).status,
      ).toBe(200);
      const number = `44700${randomInt(1e6, 1e7)}`;
      const db = new pg.Client({ connectionString: fleet.databaseUrl });
      await db.connect();
      try {
        await db.query(
          'INSERT INTO numbers (number, client_id) VALUES ($1, $2)',
          [number, client.id],
        );

        // 8 loops send the messages, each with its own text; A is killed once it has
        // acknowledged KILL_AFTER of them.
        const acknowledged: string[] = [];
        let killed = false;
        let next = 0;
        const loops = Array.from({ length: 8 }, async () => {
          while (next < MESSAGES && !killed) {
            const text = `crash ${next++}`;
            const fields = vonageInboundFields({
              from: '447700900123',
              to: number,
              text,
            });
            try {
              const answer = await sendVonageInbound(
                `${a.url}/api/webhooks/vonage/inbound`,
                fields,
                'POST',
              );
              if (answer.status !== 200) continue;
              acknowledged.push(text);
              if (acknowledged.length === KILL_AFTER && !killed) {
                killed = true;
                a.child.kill('SIGKILL');
              }
            } catch {
              // No answer: the connection was cut by the kill.
            }
          }
        });
        await Promise.all(loops);
        await a.exited;
        expect(killed).toBe(true);
        expect(told).toEqual([]); // A had no callback worker

        const stored = (
          await db.query<{ body: string }>(
            'SELECT body FROM inbound_messages WHERE to_number = $1',
            [number],
          )
        ).rows.map((r) => r.body);
        expect(stored).toEqual(expect.arrayContaining(acknowledged));

        // Another process, started after the kill, finds every event in the queue.
        workers.push(
          await launchServer(
            {
              DATABASE_URL: fleet.databaseUrl,
              DELIVERY_WORKERS: '1',
              STATUS_CALLBACK_ALLOW_PRIVATE: 'true',
            },
            WORKER,
          ),
        );
        await eventually(
          () => told.length,
          (n) => n >= stored.length,
          { what: 'a callback for every stored message', timeout: 30_000 },
        );
        expect([...told].sort()).toEqual([...stored].sort());
      } finally {
        await db.end();
      }
    }, 120_000);
  },
);
