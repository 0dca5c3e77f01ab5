import {
  ADMIN,
  basicAuth,
  createClientViaApi,
  expect,
  expectNoSeriousA11yViolations,
  grantCreditViaApi,
  loginAs,
  registerViaApi,
  test,
  uniqueEmail,
} from './fixtures.ts';

// Issue 18 part 6: the Operations screen shows live delivery health per method and follows
// the traffic without a reload.
test.describe('Operations', () => {
  test('staff open Operations from the sidebar; a message sent meanwhile shows up without a reload', async ({
    page,
    request,
  }) => {
    await loginAs(page, ADMIN);
    await page.goto('/#/admin/clients');
    await page.getByRole('link', { name: 'Operations' }).click();
    await expect(page).toHaveURL(/#\/admin\/operations$/);
    await expect(
      page.getByRole('heading', { name: 'Operations' }),
    ).toBeVisible();
    const table = page.getByRole('table', { name: /Delivery methods/ });
    // No SMSC in the e2e server: every method goes to the simulator, which holds no bind.
    const column = await table
      .getByRole('columnheader')
      .allTextContents()
      .then((names) => names.indexOf('MELROSE_SMPP'));
    expect(column).toBeGreaterThanOrEqual(0);
    const figure = (label: string) =>
      table
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: label }) })
        .getByRole('cell')
        .nth(column);
    await expect(figure('Bind')).toHaveText('No bind on this node');
    // Nothing configured: the method is marked as going to the simulator.
    await expect(figure('Connector')).toHaveText('SIMULATED');
    await expect(figure('Connector').getByText('SIMULATED')).toBeVisible();
    const messages = figure('Messages');
    const before = Number(await messages.textContent());
    // The chart is drawn (uPlot loads in its own chunk).
    await expect(page.locator('.operations-chart canvas')).toBeVisible();

    const customer = await registerViaApi({
      email: uniqueEmail('ops'),
    });
    const client = await createClientViaApi(customer, 'Ops');
    await grantCreditViaApi(client.id, '1');
    const sent = await request.post(`/api/clients/${client.id}/messages/sms`, {
      headers: { authorization: basicAuth(customer.email, customer.password) },
      data: { sender: 'Ops', recipient: '+44 7700 900123', body: 'Live' },
    });
    expect(sent.status(), await sent.text()).toBe(201);
    await expect
      .poll(async () => Number(await messages.textContent()), {
        timeout: 15_000,
      })
      .toBeGreaterThan(before);
    await expectNoSeriousA11yViolations(page);
  });
});
