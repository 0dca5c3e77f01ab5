import { randomBytes } from 'node:crypto';
import { AxeBuilder } from '@axe-core/playwright';
import {
  test as base,
  expect,
  type APIRequestContext,
  type Page,
} from '@playwright/test';
import { ADMIN } from './admin.ts';

export { ADMIN, expect };

export interface TestUser {
  id: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  organization: string;
}

export function uniqueEmail(prefix = 'e2e'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}@example.test`;
}

export function basicAuth(email: string, password: string): string {
  return `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
}

/** Registers a customer through the API (PGlite cannot be shared across processes). */
export async function registerViaApi(
  request: APIRequestContext,
  overrides: Partial<Omit<TestUser, 'id'>> = {},
): Promise<TestUser> {
  const user = {
    email: overrides.email ?? uniqueEmail(),
    password: overrides.password ?? 'password-123',
    firstName: overrides.firstName ?? 'Ada',
    lastName: overrides.lastName ?? 'Lovelace',
    organization: overrides.organization ?? 'Analytical Engines',
  };
  const answer = await request.post('/api/register', { data: user });
  expect(answer.status(), await answer.text()).toBe(201);
  const body = (await answer.json()) as { id: string };
  return { ...user, id: body.id };
}

export interface TestClient {
  id: string;
  name: string;
  secret: string;
}

/** Creates a client for `user` through the API. */
export async function createClientViaApi(
  request: APIRequestContext,
  user: { email: string; password: string },
  name = 'Main client',
): Promise<TestClient> {
  const answer = await request.post('/api/clients', {
    data: { name },
    headers: { authorization: basicAuth(user.email, user.password) },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return (await answer.json()) as TestClient;
}

/** The admin grants free credit to a client's default balance through the admin API. */
export async function grantCreditViaApi(
  request: APIRequestContext,
  clientId: string,
  amount: string,
): Promise<void> {
  const headers = { authorization: basicAuth(ADMIN.email, ADMIN.password) };
  const balance = await request.get(
    `/api/admin/clients/${clientId}/balances/default`,
    { headers },
  );
  expect(balance.status(), await balance.text()).toBe(200);
  const { id } = (await balance.json()) as { id: string };
  const credit = await request.post(
    `/api/admin/clients/${clientId}/balances/${id}/freecredit`,
    { headers, data: { amount } },
  );
  expect(credit.status(), await credit.text()).toBe(200);
}

/** Fills and submits the Login screen. */
export async function submitLogin(
  page: Page,
  user: { email: string; password: string },
): Promise<void> {
  await page.goto('/#/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/** Logs in through the Login screen and waits for the customer shell to finish loading. */
export async function loginAs(
  page: Page,
  user: { email: string; password: string },
): Promise<void> {
  await submitLogin(page, user);
  await expect(page).not.toHaveURL(/#\/login/);
  await expect(page.getByRole('button', { name: /^Hello / })).toBeVisible();
  await expect(
    page.getByRole('main').getByRole('heading').first(),
  ).toBeVisible();
}

/** Fails on serious or critical accessibility violations of the current page. */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  expect(serious).toEqual([]);
}

// The browser itself reports every 4xx answer as a console error ("Failed to load resource");
// those are expected answers of the API (401, 402, 404 …), not faults of the page.
const EXPECTED_BROWSER_NOISE =
  /^Failed to load resource: the server responded with a status of 4\d\d/;

export const test = base.extend<{
  /** A freshly registered customer, not logged in. */
  user: TestUser;
}>({
  page: async ({ page }, use) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (
        message.type() === 'error' &&
        !EXPECTED_BROWSER_NOISE.test(message.text())
      ) {
        problems.push(`console.error: ${message.text()}`);
      }
    });
    page.on('pageerror', (error) =>
      problems.push(`pageerror: ${error.message}`),
    );
    await use(page);
    expect(problems, 'the browser reported errors').toEqual([]);
  },
  user: async ({ request }, use) => {
    await use(await registerViaApi(request));
  },
});
