import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyCallbackSignature } from '../../src/server/delivery/callbacks/signature.ts';
import {
  createClientViaApi,
  expect,
  grantCreditViaApi,
  loginAs,
  test,
} from './fixtures.ts';

interface Received {
  signature: string | undefined;
  raw: string;
  body: { messageId: string; state: string; clientId: string };
}

test.describe('Status callbacks', () => {
  test('a client with a callback URL sends from the console and the receiver gets the signed DELIVERED event', async ({
    page,
    user,
  }) => {
    test.setTimeout(60_000);
    const received: Received[] = [];
    const receiver = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({
        signature: req.headers['x-signature'] as string | undefined,
        raw,
        body: JSON.parse(raw),
      });
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) =>
      receiver.listen(0, '127.0.0.1', resolve),
    );
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/sms-status`;
    try {
      const client = await createClientViaApi(user, 'Hooks');
      await grantCreditViaApi(client.id, '1.00');
      await loginAs(page, user);

      await page.goto(`/#/clients/${client.id}`);
      const section = page.getByRole('region', { name: 'Status Callback' });
      await section.getByLabel('Status callback URL').fill(url);
      await section.getByRole('button', { name: 'Save' }).click();
      const key = section.locator('code');
      await expect(key).toHaveText(/^whsec_/);
      const signingKey = (await key.textContent())!;

      await section.getByRole('button', { name: 'Send test event' }).click();
      await expect(
        section.getByText(/^The receiver answered HTTP 204 in \d+ ms\.$/),
      ).toBeVisible();

      await page.goto('/#/messaging/sms');
      await page.getByLabel('Recipient').fill('+44 7700 900123');
      await page.getByLabel('Body').fill('Tell my system');
      const sent = page.waitForResponse(/\/messages\/sms$/);
      await page.getByRole('button', { name: 'Send SMS' }).click();
      const { id: messageId } = (await (await sent).json()) as { id: string };

      await expect
        .poll(
          () =>
            received.some(
              (r) =>
                r.body.messageId === messageId && r.body.state === 'DELIVERED',
            ),
          { timeout: 20_000 },
        )
        .toBe(true);
      const delivered = received.find(
        (r) => r.body.messageId === messageId && r.body.state === 'DELIVERED',
      )!;
      expect(delivered.body.clientId).toBe(client.id);
      expect(
        verifyCallbackSignature(delivered.signature, delivered.raw, signingKey),
      ).toBe(true);
    } finally {
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
