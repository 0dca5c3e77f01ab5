import {
  ADMIN,
  basicAuth,
  createClientViaApi,
  expect,
  loginAs,
  registerViaApi,
  test,
} from './fixtures.ts';

const adminHeaders = { authorization: basicAuth(ADMIN.email, ADMIN.password) };

// Issue 17: staff who may view clients and users, and nothing else.
const VIEWER_ROLES = [
  'ROLE_CLIENT_LIST',
  'ROLE_CLIENT_VIEW',
  'ROLE_USER_LIST',
  'ROLE_USER_VIEW',
];

test.describe('Staff with some admin roles', () => {
  test('open a client and its user, see what their roles reach and stay signed in', async ({
    page,
    request,
  }) => {
    const customer = await registerViaApi({ firstName: 'Grace' });
    const client = await createClientViaApi(customer, 'Viewer shop');
    const staff = await registerViaApi({ firstName: 'Vera' });
    for (const role of VIEWER_ROLES) {
      const granted = await request.post(
        `/api/admin/users/${staff.id}/roles/add`,
        { headers: adminHeaders, data: { role } },
      );
      expect(granted.status(), await granted.text()).toBe(200);
    }

    await loginAs(page, staff);
    await page.goto(`/#/admin/clients/${client.id}`);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Viewer shop' }),
    ).toBeVisible();
    await expect(
      page.getByText('This client has sent no messages.'),
    ).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Route Splits' }),
    ).toContainText('Needs ROLE_ROUTE_ADMIN or ROLE_ROUTE_LIST');
    // The balance shows, but giving free credit needs CLIENT UPDATE.
    await expect(page.getByText('EUR 0.00')).toBeVisible();
    await expect(
      page.getByRole('button', { name: /give free credit$/ }),
    ).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`#/admin/clients/${client.id}$`));

    await page.getByRole('link', { name: 'View User' }).click();
    await expect(page).toHaveURL(new RegExp(`#/admin/users/${customer.id}$`));
    const clients = page.getByRole('region', { name: 'Clients' });
    await expect(
      clients.getByRole('link', { name: 'Viewer shop' }),
    ).toBeVisible();
    await expect(page.getByRole('region', { name: 'Roles' })).toContainText(
      'Needs ROLE_USERROLE_ADMIN or ROLE_USERROLE_LIST',
    );
    await expect(
      clients.getByRole('button', { name: 'New Client' }),
    ).toHaveCount(0);

    // Still signed in: the sidebar leads on, and no call was refused.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Clients' })
      .click();
    await expect(page).toHaveURL(/#\/admin\/clients$/);
    await expect(page.getByRole('button', { name: /^Hello / })).toBeVisible();
  });
});
