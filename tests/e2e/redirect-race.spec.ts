import {
  ADMIN,
  basicAuth,
  expect,
  registerViaApi,
  submitLogin,
  test,
} from './fixtures.ts';
import { nothingWithin } from '../support/eventually.ts';

const adminHeaders = { authorization: basicAuth(ADMIN.email, ADMIN.password) };

/** A promise and its resolve, to hold one answer until another request was seen. */
function signal(): { seen: Promise<void>; fire: () => void } {
  let fire = () => undefined as void;
  const seen = new Promise<void>((done) => (fire = done));
  return { seen, fire };
}

test('staff with no clients who open the admin area while the clients load stay there', async ({
  page,
  request,
}) => {
  const staff = await registerViaApi({ firstName: 'Rita' });
  const granted = await request.post(`/api/admin/users/${staff.id}/roles/add`, {
    headers: adminHeaders,
    data: { role: 'ROLE_CLIENT_ADMIN' },
  });
  expect(granted.status(), await granted.text()).toBe(200);

  // The customer shell's client list answers after the user's own answer (which opens the
  // menu), once the admin screens' code is on its way, and that code arrives only after the
  // list's answer: the list's answer comes while the admin route loads (issue 17). Ordered by
  // the requests themselves, not by delays.
  const meAnswered = page.waitForResponse(/\/api\/users\/me$/);
  const adminRequested = signal();
  const listAnswered = signal();
  await page.route(/\/api\/clients(\?|$)/, async (route) => {
    await meAnswered;
    await adminRequested.seen;
    await route.continue();
    listAnswered.fire();
  });
  await page.route(/\/assets\/admin-[^/]*\.js$/, async (route) => {
    adminRequested.fire();
    await listAnswered.seen;
    await route.continue();
  });

  await submitLogin(page, staff);
  await page.getByRole('button', { name: 'Hello Rita' }).click();
  await page.getByRole('menuitem', { name: 'Admin' }).click();

  await expect(page).toHaveURL(/#\/admin\/clients$/, { timeout: 15_000 });
  await expect(
    page.getByRole('heading', { level: 1, name: 'Clients' }),
  ).toBeVisible();
  // Nothing moves it on afterwards: every answer is in, a redirect would follow in a moment.
  await nothingWithin(1_000, () =>
    expect(page).toHaveURL(/#\/admin\/clients$/, { timeout: 0 }),
  );
});

test('a customer with no clients still lands on Quick Start when the list answers late', async ({
  page,
  user,
}) => {
  // Late: only once the shell is on screen without it.
  await page.route(/\/api\/clients(\?|$)/, async (route) => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .waitFor({ timeout: 15_000 });
    await route.continue();
  });
  await submitLogin(page, user);
  await expect(page).toHaveURL(/#\/quickstart$/);
});
