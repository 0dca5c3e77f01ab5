import {
  ADMIN,
  basicAuth,
  expect,
  registerViaApi,
  submitLogin,
  test,
} from './fixtures.ts';

const adminHeaders = { authorization: basicAuth(ADMIN.email, ADMIN.password) };

const delay = (ms: number) => new Promise((done) => setTimeout(done, ms));

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

  // The customer shell's client list answers 1.5 s after the user's own answer (which opens
  // the menu), and the admin screens' code is slower still: the list's answer comes while the
  // admin route is on its way (issue 17).
  const meAnswered = page.waitForResponse(/\/api\/users\/me$/);
  await page.route(/\/api\/clients(\?|$)/, async (route) => {
    await meAnswered;
    await delay(1_500);
    await route.continue();
  });
  await page.route(/\/assets\/admin-[^/]*\.js$/, async (route) => {
    await delay(2_500);
    await route.continue();
  });

  await submitLogin(page, staff);
  await page.getByRole('button', { name: 'Hello Rita' }).click();
  await page.getByRole('menuitem', { name: 'Admin' }).click();

  await expect(page).toHaveURL(/#\/admin\/clients$/, { timeout: 15_000 });
  await expect(
    page.getByRole('heading', { level: 1, name: 'Clients' }),
  ).toBeVisible();
  // Nothing moves it on afterwards.
  await delay(1_000);
  await expect(page).toHaveURL(/#\/admin\/clients$/);
});

test('a customer with no clients still lands on Quick Start when the list answers late', async ({
  page,
  user,
}) => {
  await page.route(/\/api\/clients(\?|$)/, async (route) => {
    await delay(1_500);
    await route.continue();
  });
  await submitLogin(page, user);
  await expect(page).toHaveURL(/#\/quickstart$/);
});
