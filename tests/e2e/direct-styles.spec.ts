import type { Page } from '@playwright/test';
import {
  ADMIN,
  animationsDone,
  basicAuth,
  createClientViaApi,
  expect,
  grantCreditViaApi,
  loginAs,
  test,
  type TestUser,
} from './fixtures.ts';

const adminHeaders = { authorization: basicAuth(ADMIN.email, ADMIN.password) };

/** The elements whose looks come from a component's stylesheet, and what to compare. */
const KEY_ELEMENTS = [
  '.tab-list',
  '.tab',
  '.link-button',
  'table.table',
  '.table th',
  '.table td',
  '.card',
  '.btn',
  '.btn-primary',
  '.page-title',
  '.section-title',
  '.field',
  '.input',
  '.pager',
  '.badge',
  '.form-actions-inline',
];
const PROPERTIES = [
  'display',
  'margin',
  'padding',
  'border',
  'border-radius',
  'background-color',
  'color',
  'font-size',
  'font-weight',
  'list-style-type',
  'gap',
  'cursor',
  'text-decoration-line',
];

const lastActivity = new WeakMap<Page, number>();

/** Notes when the page last started or finished a request, to look at a settled screen. */
function trackRequests(page: Page) {
  const touch = () => lastActivity.set(page, Date.now());
  touch();
  page.on('request', touch);
  page.on('requestfinished', touch);
  page.on('requestfailed', touch);
}

/** The computed styles of the first of each key element in the page's main area. */
async function lookOf(page: Page): Promise<Record<string, unknown>> {
  // Settle: no request for 400 ms, the screen's data has come, no transition is under way,
  // and the pointer hovers nothing.
  await page.mouse.move(0, 0);
  await expect
    .poll(() => Date.now() - (lastActivity.get(page) ?? 0), {
      intervals: [100],
      message: 'the page is quiet for 400 ms',
    })
    .toBeGreaterThanOrEqual(400);
  await expect(
    page.getByRole('main').getByRole('heading').first(),
  ).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await animationsDone(page);
  // A script text: the e2e project is typed for Node, without the DOM's names.
  return page.evaluate(`(() => {
    const main = document.querySelector('main');
    const look = {};
    for (const selector of ${JSON.stringify(KEY_ELEMENTS)}) {
      const element = main && main.querySelector(selector);
      if (!element) continue;
      const style = getComputedStyle(element);
      look[selector] = Object.fromEntries(
        ${JSON.stringify(PROPERTIES)}.map((name) => [name, style.getPropertyValue(name)]),
      );
    }
    return look;
  })()`);
}

/**
 * Each route reached by navigation inside the app (after every route before it has loaded its
 * code and styles), then opened directly on a fresh page load: both must look the same
 * (issue 17: a direct link to /messaging/sms lost the tabs' styles).
 */
async function compareRoutes(page: Page, start: string, routes: string[]) {
  trackRequests(page);
  await page.goto(`/#${start}`);
  const navigated: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    await page.evaluate(`window.location.hash = ${JSON.stringify(route)}`);
    navigated[route] = await lookOf(page);
  }
  for (const route of routes) {
    await page.goto('about:blank');
    await page.goto(`/#${route}`);
    const direct = await lookOf(page);
    expect(direct, `${route} opened directly`).toEqual(navigated[route]);
    expect(Object.keys(direct).length).toBeGreaterThan(0);
  }
}

test.describe('A screen opened by a direct link looks as when reached in the app', () => {
  test.setTimeout(120_000);

  test('customer screens', async ({ page, request, user }) => {
    const client = await createClientViaApi(user, 'Styled shop');
    await grantCreditViaApi(client.id, '5');
    const sent = await request.post(`/api/clients/${client.id}/messages/sms`, {
      headers: { authorization: basicAuth(user.email, user.password) },
      data: { sender: 'Skyline', recipient: '447700900123', body: 'Hello' },
    });
    expect(sent.status(), await sent.text()).toBeLessThan(300);

    await loginAs(page, user);
    await compareRoutes(page, '/billing/balance', [
      '/quickstart',
      '/billing/balance',
      '/billing/paymentMethods',
      '/messaging/sms',
      '/messaging/log',
      '/users/me',
      '/users/me/password',
      '/clients',
      `/clients/${client.id}`,
    ]);

    // The Message Log's recipients read as text that opens the message, not as grey buttons
    // (their style lived in an admin stylesheet that customers never load).
    await page.goto('about:blank');
    await page.goto('/#/messaging/log');
    const recipient = page
      .getByRole('main')
      .getByRole('button', { name: /447700900123/ });
    await expect(recipient).toBeVisible();
    await expect(recipient).toHaveCSS('background-color', 'rgba(0, 0, 0, 0)');
    await expect(recipient).toHaveCSS('border-style', 'none');
    await expect(recipient).toHaveCSS('font-weight', '600');
  });

  test('admin screens', async ({ page, request, user }) => {
    const client = await createClientViaApi(user, 'Routed shop');
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

    await loginAs(page, ADMIN satisfies Pick<TestUser, 'email' | 'password'>);
    await compareRoutes(page, '/admin/clients', [
      '/admin/clients',
      `/admin/clients/${client.id}`,
      '/admin/users',
      `/admin/users/${user.id}`,
      '/admin/audit',
    ]);
  });
});
