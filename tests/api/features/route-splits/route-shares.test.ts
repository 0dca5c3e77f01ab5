import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../support/eventually.ts';
import {
  adminHttp,
  createClient,
  giveCredit,
  registerUser,
} from '../../../support/seed.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';

/**
 * Route splits show the share they were configured for and the share of the client's messages
 * they really carried over the last 24 hours, counted by the database.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

describe('configured and realised share of route splits', () => {
  it('after 1,000 messages on 70/30 splits, each carried about its weight', async () => {
    const admin = adminHttp(server.url);
    const owner = await registerUser(server.url);
    const client = await createClient(owner.http);
    await giveCredit(server.url, client.id, 100);
    for (const [deliveryMethod, weight] of [
      ['MELROSE_SMPP', 70],
      ['VONAGE_SMS', 30],
      ['WORLD_SPECIAL', 0],
    ] as const) {
      const created = await admin.post('/api/admin/routes/split', {
        userId: client.userId,
        clientId: client.id,
        deliveryMethod,
        weight,
      });
      expect(created.status).toBe(201);
    }
    const list = async () =>
      (await admin.get(`/api/admin/routes/split?clientId=${client.id}`)).body
        .routes as any[];
    // Before any message: configured shares, nothing carried, no realised share yet.
    expect(
      (await list()).map((r) => [
        r.deliveryMethod,
        r.configuredShare,
        r.realisedShare,
        r.messages24h,
      ]),
    ).toEqual([
      ['MELROSE_SMPP', 0.7, null, 0],
      ['VONAGE_SMS', 0.3, null, 0],
      ['WORLD_SPECIAL', 0, null, 0],
    ]);

    const total = 1000;
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < total) {
          next++;
          const sent = await owner.http.post(
            `/api/clients/${client.id}/messages/sms`,
            { sender: 'Shop', recipient: '+44 7700 900123', body: 'share' },
          );
          expect(sent.status).toBe(201);
        }
      }),
    );
    // Routed once a worker took each message.
    const routes = await eventually(
      list,
      (found) => found.reduce((sum, r) => sum + r.messages24h, 0) >= total,
      { what: 'every message routed', timeout: 20_000, interval: 200 },
    );
    const [smpp, vonage, world] = routes;
    expect(smpp.messages24h + vonage.messages24h).toBe(total);
    expect(smpp.realisedShare).toBe(smpp.messages24h / total);
    expect(vonage.realisedShare).toBe(vonage.messages24h / total);
    // 1,000 draws at p = 0.7: the standard deviation is 0.0145; 0.05 is 3.4 of them.
    expect(Math.abs(smpp.realisedShare - 0.7)).toBeLessThan(0.05);
    expect(Math.abs(vonage.realisedShare - 0.3)).toBeLessThan(0.05);
    expect(world).toMatchObject({
      configuredShare: 0,
      realisedShare: 0,
      messages24h: 0,
    });
    console.info(
      `realised shares after ${total} messages: MELROSE_SMPP ${smpp.realisedShare}, VONAGE_SMS ${vonage.realisedShare}`,
    );
  }, 60_000);
});
