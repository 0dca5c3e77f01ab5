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
      // Masked like a client secret until shown.
      const key = section.getByLabel('Signing key');
      await expect(key).toHaveValue('••••••');
      await section.getByRole('button', { name: 'Show signing key' }).click();
      await expect(key).toHaveValue(/^whsec_/);
      const signingKey = await key.inputValue();

      await section.getByRole('button', { name: 'Send test event' }).click();
      await expect(
        section.getByText(/^Your endpoint answered 204 in \d+ ms\.$/),
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

  test('a failing endpoint: the test event says why in a sentence, and the message panel shows one entry per event with its next try, every try folded', async ({
    page,
    user,
  }) => {
    test.setTimeout(60_000);
    const receiver = http.createServer((_req, res) => {
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) =>
      receiver.listen(0, '127.0.0.1', resolve),
    );
    const port = (receiver.address() as AddressInfo).port;
    try {
      const client = await createClientViaApi(user, 'Broken hooks');
      await grantCreditViaApi(client.id, '1.00');
      await loginAs(page, user);
      await page.goto(`/#/clients/${client.id}`);
      const section = page.getByRole('region', { name: 'Status Callback' });
      const url = section.getByLabel('Status callback URL');

      // https to a plain http server: the TLS handshake fails, told as a sentence.
      await url.fill(`https://127.0.0.1:${port}/sms-status`);
      await section.getByRole('button', { name: 'Save' }).click();
      await section.getByRole('button', { name: 'Send test event' }).click();
      await expect(
        section.getByText(
          /^We could not reach your endpoint: the TLS handshake failed/,
        ),
      ).toBeVisible();
      await expect(section).not.toContainText('EPROTO');

      await url.fill(`http://127.0.0.1:${port}/sms-status`);
      await section.getByRole('button', { name: 'Save' }).click();
      await expect(
        page.getByText('The status callback URL has been saved').last(),
      ).toBeVisible();
      await page.goto('/#/messaging/sms');
      await page.getByLabel('Recipient').fill('+44 7700 900123');
      await page.getByLabel('Body').fill('Nobody listens');
      const sent = page.waitForResponse(/\/messages\/sms$/);
      await page.getByRole('button', { name: 'Send SMS' }).click();
      const { id: messageId } = (await (await sent).json()) as { id: string };

      await page.goto(`/#/messaging/log?message=${messageId}`);
      const panel = page.getByRole('dialog', { name: 'Message', exact: true });
      const callbacks = panel.getByRole('region', { name: 'Status callbacks' });
      const delivered = callbacks.getByRole('listitem', {
        name: 'DELIVERED event',
      });
      await expect(delivered).toBeVisible({ timeout: 20_000 });
      await expect(delivered).toContainText('Retrying');
      await expect(delivered).toContainText(
        'Last answerYour endpoint answered 500: only a 2xx status counts as received.',
      );
      await expect(delivered).toContainText('Next try');
      await expect(delivered).toContainText(/Tries left1[01]/);
      // Each try is folded: its line shows once the disclosure is opened.
      const firstTry = delivered.getByText(/^Try 1, /);
      await expect(firstTry).toBeHidden();
      await delivered.locator('summary').click();
      await expect(firstTry).toBeVisible();
    } finally {
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
