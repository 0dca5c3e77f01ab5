import { randomBytes, randomInt } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { ADMIN } from '../support/admin.ts';
import { httpClient } from '../support/http.ts';
import { createClient, registerUser } from '../support/seed.ts';
import {
  spawnServer,
  stopServer,
  tempDataDir,
  type SpawnedServer,
} from '../support/spawn-server.ts';
import { startVonage, type TestVonage } from '../support/vonage-server.ts';
import {
  expect,
  expectNoSeriousA11yViolations,
  loginAs,
  test,
} from './fixtures.ts';

/**
 * Issue 32, inbound side, against the real server: SMS arrive through Vonage's inbound webhook
 * on a number staff assigned; the owner's Inbox shows them, and a STOP opts the sender out,
 * which the Opt-outs screen and the reply box both say. The shared e2e server has no delivery
 * method configured, and a provider's webhooks answer 404 without one (nothing of ours can come
 * from a provider we do not use), so this file runs its own server with Vonage configured
 * against a local stand-in (tests/support/vonage-server.ts), unsigned.
 */

let server: SpawnedServer;
let vonage: TestVonage;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  vonage = await startVonage();
  server = await spawnServer(
    {
      DATA_DIR: tempDataDir('e2e-inbound'),
      WEB_DIR: 'dist/web',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      VONAGE_API_KEY: 'vonage-key',
      VONAGE_API_SECRET: 'vonage-secret',
      VONAGE_BASE_URL: vonage.baseUrl,
    },
    80_000,
  );
});

test.afterAll(async () => {
  if (server) await stopServer(server);
  if (vonage) await vonage.close();
});

const uniqueNumber = () => `44791${String(randomInt(1e6, 1e7))}`;

/** One inbound SMS as Vonage posts it (JSON, unsigned: no signature secret is set). */
async function vonageInbound(from: string, to: string, text: string) {
  const answer = await fetch(`${server.url}/api/webhooks/vonage/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      msisdn: from,
      to,
      messageId: randomBytes(8).toString('hex').toUpperCase(),
      text,
      type: 'text',
      'message-timestamp': new Date()
        .toISOString()
        .replace('T', ' ')
        .slice(0, 19),
    }),
  });
  expect(answer.status, await answer.text()).toBeLessThan(300);
}

/** A page on this file's server that fails the test on a browser error, as the fixture does. */
async function pageOn(browser: Browser): Promise<{
  page: Page;
  problems: string[];
}> {
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (
      message.type() === 'error' &&
      !/^Failed to load resource: the server responded with a status of 4\d\d/.test(
        message.text(),
      )
    ) {
      problems.push(message.text());
    }
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { page, problems };
}

test('a message that arrives shows in the Inbox; a STOP opts its sender out and the reply box says so', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const user = await registerUser(server.url);
  const client = await createClient(user.http, 'Web shop');
  const admin = httpClient(server.url, {
    username: ADMIN.email,
    password: ADMIN.password,
  });
  const credit = await admin.post(
    `/api/admin/clients/${client.id}/balances/${client.id}/freecredit`,
    { amount: '5' },
  );
  expect(credit.status).toBe(200);
  const held = uniqueNumber();
  const sender = uniqueNumber();
  const assigned = await admin.put(`/api/admin/numbers/${held}`, {
    clientId: client.id,
  });
  expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
  await vonageInbound(sender, held, 'Is my order on its way?');

  const { page, problems } = await pageOn(browser);
  await loginAs(page, user);
  await page.goto('/#/messaging/inbox');
  const row = page.getByRole('row', { name: new RegExp(sender) });
  await expect(row).toContainText('Received: Is my order on its way?');
  await expect(row).toContainText('1 received · 0 sent');
  await row.getByRole('link', { name: `+${sender}` }).click();
  const log = page.getByRole('log', { name: `Messages with +${sender}` });
  await expect(log.getByRole('listitem')).toHaveText(
    /^Received · .*Is my order on its way\?$/,
  );

  // The reply goes out from the client's number.
  const form = page.getByRole('form', { name: `Reply to +${sender}` });
  await form.getByLabel('Reply').fill('It arrives tomorrow');
  await form.getByRole('button', { name: 'Send Reply' }).click();
  await expect(page.getByText('SMS Sent')).toBeVisible();
  await expect(log.getByRole('listitem')).toHaveCount(2);
  const sent = await user.http.get(
    `/api/clients/${client.id}/messages?recipient=${sender}`,
  );
  expect(
    (sent.body.messages as { sender: string; body: string }[]).map((m) => [
      m.sender,
      m.body,
    ]),
  ).toEqual([[held, 'It arrives tomorrow']]);

  // STOP arrives: once the thread is asked again, the box is off and says why.
  await vonageInbound(sender, held, 'stop');
  await page.reload();
  await expect(form.getByRole('status')).toContainText(
    `+${sender} has opted out of your messages`,
  );
  await expect(form.getByLabel('Reply')).toBeDisabled();
  // The STOP, then its automatic answer from the same number (a charged send).
  await expect(log.getByRole('listitem')).toHaveCount(4);
  await expect(log.getByRole('listitem').nth(2)).toHaveText(
    /^Received · .*stop$/,
  );
  await expect(log.getByRole('listitem').nth(3)).toContainText(/^Sent · /);
  await expectNoSeriousA11yViolations(page);
  await page.goto('/#/messaging/inbox');
  await expect(row).toContainText('Opted out');

  // Made by the recipient: no Remove; it ends with their START.
  await page.goto('/#/messaging/optouts');
  const optout = page.getByRole('row', { name: new RegExp(sender) });
  await expect(optout).toContainText('Replied STOP');
  await expect(optout).toContainText('Ends when they send START');
  await expect(optout.getByRole('button')).toHaveCount(0);

  await vonageInbound(sender, held, 'START');
  await page.goto(`/#/messaging/inbox/${sender}`);
  await expect(form.getByLabel('Reply')).toBeEnabled();
  await page.context().close();
  expect(problems, 'the browser reported errors').toEqual([]);
});
