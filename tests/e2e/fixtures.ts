import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { ADMIN } from '../support/admin.ts';
import { basic } from '../support/http.ts';
import {
  createClient,
  giveCredit,
  registerUser,
  userHttp,
  type TestClient,
  type TestUser,
} from '../support/seed.ts';

export { ADMIN, expect, basic as basicAuth };
export {
  uniqueEmail,
  type TestClient,
  type TestUser,
} from '../support/seed.ts';

/**
 * The e2e server's address: playwright.config.ts picks the port and hands it to every worker
 * as E2E_PORT. Seeding goes through the same helpers as the API tests (tests/support/seed.ts).
 */
const E2E_URL = (() => {
  const port = process.env.E2E_PORT;
  if (!port)
    throw new Error('E2E_PORT is not set: run through playwright.config.ts');
  return `http://127.0.0.1:${port}`;
})();

/** Registers a customer through the API (PGlite cannot be shared across processes). */
export function registerViaApi(
  overrides: Partial<Omit<TestUser, 'id'>> = {},
): Promise<TestUser> {
  return registerUser(E2E_URL, overrides);
}

/** Creates a client for `user` through the API. */
export function createClientViaApi(
  user: { email: string; password: string },
  name = 'Main client',
): Promise<TestClient> {
  return createClient(userHttp(E2E_URL, user), name);
}

/** The admin grants free credit to a client's default balance through the admin API. */
export async function grantCreditViaApi(
  clientId: string,
  amount: string,
): Promise<void> {
  await giveCredit(E2E_URL, clientId, amount);
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

/**
 * Waits until no finite CSS transition or animation of the page is running (a drawer has slid
 * in, a hover has faded); spinners, which never end, do not count. Fails naming those still
 * running. A script text: the e2e project is typed for Node, without the DOM's names.
 */
export async function animationsDone(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(`document
        .getAnimations()
        .filter(
          (a) =>
            a.playState === 'running' &&
            a.effect?.getComputedTiming().iterations !== Infinity,
        )
        .map((a) => a.animationName || a.transitionProperty)`),
    )
    .toEqual([]);
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
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture takes
  user: async ({}, use) => {
    await use(await registerViaApi());
  },
});
