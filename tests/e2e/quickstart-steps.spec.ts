import {
  createClientViaApi,
  expect,
  grantCreditViaApi,
  loginAs,
  test,
} from './fixtures.ts';

test('Quick Start ticks Top Up the Balance only once the balance holds money', async ({
  page,
  user,
}) => {
  const client = await createClientViaApi(user, 'Fresh shop');
  await loginAs(page, user);
  await page.goto('/#/quickstart');
  const topUp = page.getByRole('region', { name: 'Top Up the Balance' });
  await expect(topUp.getByText('EUR 0.00')).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Create a Client' }).getByText('Done'),
  ).toBeAttached();
  await expect(topUp.getByText('Done')).toHaveCount(0);

  await grantCreditViaApi(client.id, '5');
  await page.reload();
  await expect(topUp.getByText('EUR 5.00')).toBeVisible();
  await expect(topUp.getByText('Done')).toBeAttached();
});
