import { randomInt } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import {
  ADMIN,
  basicAuth,
  createClientViaApi,
  expect,
  grantCreditViaApi,
  loginAs,
  test,
  type TestUser,
} from './fixtures.ts';
import { uniquePrefix } from '../support/seed.ts';

/**
 * Every console screen, with data, fits the window at desktop and phone size (issue 17): the
 * page never scrolls sideways, and no table cell reaches past the window or out of the box
 * it scrolls in. On a phone a table's rows are cards, so Amount, Reason and Balance after
 * stay on screen.
 */
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 812 },
] as const;

const adminHeaders = { authorization: basicAuth(ADMIN.email, ADMIN.password) };

/** What sticks out of the window on the current screen: none of it is allowed. */
async function overflows(page: Page): Promise<string[]> {
  // A script text: the e2e project is typed for Node, without the DOM's names.
  return page.evaluate<string[]>(`(() => {
    const found = [];
    const root = document.scrollingElement || document.documentElement;
    if (root.scrollWidth > root.clientWidth) {
      found.push('the page scrolls sideways (' + root.scrollWidth + ' > ' + root.clientWidth + ')');
    }
    const width = document.documentElement.clientWidth;
    for (const cell of document.querySelectorAll('td, th')) {
      const box = cell.getBoundingClientRect();
      // Not drawn: in a closed disclosure, or a header row only for assistive tech.
      if (box.width === 0 || box.height === 0) continue;
      const head = cell.closest('thead');
      if (head && head.getBoundingClientRect().width <= 1) continue;
      const wrap = cell.closest('.table-wrap');
      const right = Math.min(width, wrap ? wrap.getBoundingClientRect().right : width);
      if (box.right > right + 1 || box.left < -1) {
        const text = (cell.textContent || '').trim().slice(0, 40);
        found.push('cell “' + text + '” at ' + Math.round(box.left) + '–' + Math.round(box.right) + ' (room up to ' + Math.round(right) + ')');
      }
    }
    return found;
  })()`);
}

async function expectFits(page: Page, screen: string) {
  await page.waitForLoadState('networkidle');
  expect(await overflows(page), screen).toEqual([]);
}

/** A customer with a client, some credit and two messages: every list has rows. */
async function seedCustomer(request: APIRequestContext, user: TestUser) {
  const client = await createClientViaApi(user, 'Fitting shop');
  await grantCreditViaApi(client.id, '5');
  for (const recipient of ['447700900123', '447700900456']) {
    const sent = await request.post(`/api/clients/${client.id}/messages/sms`, {
      headers: { authorization: basicAuth(user.email, user.password) },
      data: {
        sender: 'Skyline',
        recipient,
        body: 'Hello from the fitting test',
      },
    });
    expect(sent.status(), await sent.text()).toBeLessThan(300);
  }
  return client;
}

for (const viewport of VIEWPORTS) {
  test(`customer screens fit at ${viewport.name} size`, async ({
    page,
    request,
    user,
  }) => {
    test.setTimeout(90_000);
    const client = await seedCustomer(request, user);
    // A batch, for its page (Bulk send, issue 20).
    const batch = await request.post(`/api/clients/${client.id}/batches`, {
      headers: { authorization: basicAuth(user.email, user.password) },
      data: { recipients: ['447700900123', '447700900456'], body: 'Hello' },
    });
    expect(batch.status(), await batch.text()).toBe(201);
    const { id: batchId } = (await batch.json()) as { id: string };
    await page.setViewportSize(viewport);
    await loginAs(page, user);

    for (const route of [
      '/quickstart',
      '/clients',
      `/clients/${client.id}`,
      '/messaging/sms',
      '/messaging/bulk',
      `/messaging/bulk/${batchId}`,
      '/users/me',
      '/users/me/password',
      '/billing/paymentMethods',
      '/billing/prices',
    ]) {
      await page.goto(`/#${route}`);
      await page.getByRole('main').getByRole('heading').first().waitFor();
      await expectFits(page, route);
    }

    // Two-way messaging (issue 32): the conversations of the sends, a thread, an opt-out.
    const optedOut = await request.put(
      `/api/clients/${client.id}/optouts/447700900456`,
      { headers: { authorization: basicAuth(user.email, user.password) } },
    );
    expect(optedOut.status(), await optedOut.text()).toBe(200);
    for (const [route, ready] of [
      ['/messaging/inbox?all=true', /^Conversations 1 to/],
      ['/messaging/optouts', /^Opt-outs 1 to/],
    ] as const) {
      await page.goto(`/#${route}`);
      await page.getByRole('table', { name: ready }).waitFor();
      await expectFits(page, route);
    }
    await page.goto('/#/messaging/inbox/447700900456');
    await page.getByRole('log').waitFor();
    await expectFits(page, 'a conversation');

    await page.goto('/#/messaging/log');
    // The two single sends and the batch's two messages.
    await page.getByRole('table', { name: /^Messages 1 to 4/ }).waitFor();
    await expectFits(page, 'Message Log');

    await page.goto('/#/billing/balance');
    const topups = page.getByRole('table', { name: /^Top-ups 1 to/ });
    await topups.waitFor();
    await expectFits(page, 'Top-up History');
    // The figures a phone once had to scroll to are on screen.
    for (const text of ['EUR 5.00', 'No reason']) {
      await expect(topups.getByText(text).first()).toBeInViewport();
    }

    await page.getByRole('tab', { name: 'Usage History' }).click();
    await page.getByRole('table', { name: /^Messages paid 1 to/ }).waitFor();
    await page.getByText('Show the figures per day').click();
    await page.getByRole('table', { name: 'Usage per day' }).waitFor();
    await expectFits(page, 'Usage History, figures per day open');
  });

  test(`admin screens fit at ${viewport.name} size`, async ({
    page,
    request,
    user,
  }) => {
    test.setTimeout(90_000);
    const client = await seedCustomer(request, user);
    const split = await request.post('/api/admin/routes/split', {
      headers: adminHeaders,
      data: {
        userId: user.id,
        clientId: client.id,
        deliveryMethod: 'VONAGE_SMS',
        weight: 10,
      },
    });
    expect(split.status(), await split.text()).toBeLessThan(300);
    // The price list has a row (99… is no country code: nobody else's sends pay it).
    const priced = await request.put(`/api/admin/prices/${uniquePrefix()}`, {
      headers: adminHeaders,
      data: { name: 'Fitting range', pricePerSegment: '0.0725' },
    });
    expect(priced.status(), await priced.text()).toBe(200);
    // An inbound number of the client (issue 32), unlike any other test's.
    const number = `4479${String(randomInt(1e7, 1e8))}`;
    const assigned = await request.put(`/api/admin/numbers/${number}`, {
      headers: adminHeaders,
      data: {
        clientId: client.id,
        helpText: 'Fitting shop: reply STOP to end',
      },
    });
    expect(assigned.status(), await assigned.text()).toBe(200);
    await page.setViewportSize(viewport);
    await loginAs(page, ADMIN);

    for (const [route, ready] of [
      ['/admin/clients', /^Clients 1 to/],
      [`/admin/clients/${client.id}`, 'Route splits'],
      ['/admin/users', /^Users 1 to/],
      [`/admin/users/${user.id}`, "The user's clients"],
      ['/admin/audit', /^Audit events 1 to/],
      ['/admin/prices', /^Prices 1 to/],
      [`/admin/numbers?clientId=${client.id}`, /^Numbers 1 to/],
    ] as const) {
      await page.goto(`/#${route}`);
      await page.getByRole('table', { name: ready }).waitFor();
      await expectFits(page, route);
    }
  });
}

test('the audit log at 1280 px: one line per event, what changed in short, the rest on demand', async ({
  page,
  request,
  user,
}) => {
  for (const role of [
    'ROLE_CLIENT_LIST',
    'ROLE_USER_LIST',
    'ROLE_AUDIT_LIST',
  ]) {
    const added = await request.post(`/api/admin/users/${user.id}/roles/add`, {
      headers: adminHeaders,
      data: { role },
    });
    expect(added.status(), await added.text()).toBe(200);
  }
  await loginAs(page, ADMIN);
  await page.goto(`/#/admin/audit?target=${user.id}&action=role.added`);
  const table = page.getByRole('table', { name: /^Audit events 1 to 3 of 3$/ });
  await table.waitFor();

  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(3);
  for (const row of await rows.all()) {
    // One line of text (plus the cell's padding), not a column of role names.
    const box = await row.boundingBox();
    expect(box?.height).toBeLessThan(56);
  }
  // The newest event says what it added, not the user's whole list of roles twice.
  const newest = rows.first();
  await expect(newest.locator('.audit-summary')).toHaveText(
    '+ ROLE_AUDIT_LIST',
  );
  const whole = newest.locator('details .audit-diff');
  await expect(whole).toBeHidden();
  await newest.getByText('Details').click();
  await expect(whole).toBeVisible();
  await expect(whole).toContainText(
    'roles: ROLE_CLIENT_LIST, ROLE_SMS_CREATE, ROLE_USER_LIST → ROLE_AUDIT_LIST, ROLE_CLIENT_LIST, ROLE_SMS_CREATE, ROLE_USER_LIST',
  );
  expect(await overflows(page)).toEqual([]);
});

test('the usage chart: the legend shows the latest day before any hover, days in one form', async ({
  page,
  request,
  user,
}) => {
  await seedCustomer(request, user);
  await loginAs(page, user);
  await page.goto('/#/billing/balance');
  await page.getByRole('tab', { name: 'Usage History' }).click();
  const legend = page.locator('.usage-chart .u-legend');
  await expect(legend).toBeVisible();
  await expect(legend).not.toContainText('--');
  const today = new Date().toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
  await expect(legend).toContainText(`Day${today}`);
  await expect(legend).toContainText('Messages2');

  // No ISO dates beside the console's own form: the summary and the per-day table read
  // 'Nov 23, 2026' as the ledger does.
  await page.getByText('Show the figures per day').click();
  const tab = page.getByRole('tabpanel');
  await expect(tab.getByText(today).first()).toBeVisible();
  const text = await tab.evaluate((element) => element.textContent ?? '');
  expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
});
