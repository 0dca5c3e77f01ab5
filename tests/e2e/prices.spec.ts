import { readFile } from 'node:fs/promises';
import {
  ADMIN,
  createClientViaApi,
  expect,
  expectNoSeriousA11yViolations,
  grantCreditViaApi,
  loginAs,
  registerViaApi,
  test,
  type TestUser,
} from './fixtures.ts';
import { uniquePrefix } from '../support/seed.ts';

// Issue 19 end to end, written against CONTRACT "Destinations: prices, permissions and
// throughput": staff import a price list and block a prefix; a customer sees the price in the
// Send form, is told a destination is not allowed, sends to an open one and finds its price on
// the ledger entry.

// The price list is global and other tests send to +44…: this run's ranges are its own
// (99… is no country code), so whatever runs beside it keeps the default price.
const range = uniquePrefix();
const open = `${range}1`;
const closed = `${range}2`;
const price = '0.0725';

test.describe.serial('Prices by destination', () => {
  let customer: TestUser;
  let clientId: string;

  test.beforeAll(async () => {
    customer = await registerViaApi();
    clientId = (await createClientViaApi(customer, 'Priced shop')).id;
    await grantCreditViaApi(clientId, '5');
  });

  test('staff export the list, import it with two ranges after a preview, and block one', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await loginAs(page, ADMIN);
    await page.goto('/#/admin/clients');
    // The customer area showed first has a Prices link of its own: click the admin one.
    await expect(
      page.getByRole('heading', { name: 'Clients', exact: true, level: 1 }),
    ).toBeVisible();
    await page.getByRole('link', { name: 'Prices' }).click();
    await expect(page).toHaveURL(/#\/admin\/prices$/);
    await expect(
      page.getByRole('heading', { name: 'Prices', level: 1 }),
    ).toBeVisible();

    // Export, add two lines, import: what other staff keep in the list stays.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const exported = await readFile(await (await download).path(), 'utf8');
    expect(exported.split(/\r?\n/)[0]).toBe(
      'prefix,name,pricePerSegment,blocked',
    );
    const csv = `${exported.trimEnd()}\n${open},E2E range ${range} one,${price},false\n${closed},"E2E range ${range}, two",0.5,false\n`;

    await page.getByRole('button', { name: 'Import CSV' }).click();
    await page.getByLabel('Price list CSV file').setInputFiles({
      name: 'prices.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    const preview = page.getByRole('region', { name: 'Import preview' });
    await expect(preview.getByRole('status')).toHaveText(
      /^prices\.csv: 2 added, 0 changed, 0 removed, \d+ unchanged$/,
    );
    const added = preview.getByRole('table', { name: 'Added: 2' });
    await expect(added).toContainText(`${open}E2E range ${range} one`);
    await expect(added).toContainText(`${closed}E2E range ${range}, two`);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Apply Import' }).click();
    await expect(
      page.getByText(/^The price list has been replaced: \d+ entries$/),
    ).toBeVisible();

    await page.getByRole('searchbox', { name: 'Search prices' }).fill(range);
    const table = page.getByRole('table', { name: /^Prices 1 to 2 of 2$/ });
    await expect(table).toBeVisible();
    await page
      .getByRole('button', { name: `Edit the price of ${closed}` })
      .click();
    await expect(page.getByLabel('Prefix')).toHaveValue(closed);
    await page
      .getByRole('checkbox', { name: /^Blocked: nobody can send/ })
      .check();
    await page.getByRole('button', { name: 'Save Price' }).click();
    await expect(page.getByText('The price has been saved')).toBeVisible();
    await expect(
      table.getByRole('row').filter({ hasText: closed }),
    ).toContainText('Blocked');
    await expect(
      table.getByRole('row').filter({ hasText: open }),
    ).toContainText(`EUR ${price}Open`);
    await expectNoSeriousA11yViolations(page);
  });

  test('a customer sees the prices, is refused the blocked range before sending, and finds the price on the ledger', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await loginAs(page, customer);
    await page.goto('/#/billing/balance');
    await page
      .getByRole('main')
      .getByRole('link', { name: 'Prices', exact: true })
      .click();
    await expect(page).toHaveURL(/#\/billing\/prices$/);
    await expect(
      page.getByText(/^Destinations not listed cost EUR 0\.05 per segment/),
    ).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search prices' }).fill(range);
    const table = page.getByRole('table', { name: /^Prices 1 to 2 of 2$/ });
    await expect(
      table.getByRole('row').filter({ hasText: closed }),
    ).toContainText('Blocked');
    await expect(
      table.getByRole('row').filter({ hasText: open }),
    ).toContainText(`EUR ${price}`);
    await expectNoSeriousA11yViolations(page);

    await page.goto('/#/messaging/sms');
    await page.getByLabel('Recipient').fill(`+${closed}01`);
    await page.getByLabel('Body').fill('Win a prize');
    await expect(page.getByRole('alert')).toHaveText(
      `Sending to +${closed}01 (E2E range ${range}, two, prefix ${closed}) is not allowed: this destination is blocked`,
    );
    const send = page.getByRole('button', { name: 'Send SMS' });
    await expect(send).toBeDisabled();

    await page.getByLabel('Recipient').fill(`+${open}01`);
    await expect(page.getByText(`EUR ${price} (prefix ${open})`)).toBeVisible();
    await expect(page.getByRole('alert')).toBeHidden();
    await expect(send).toBeEnabled();
    await expectNoSeriousA11yViolations(page);
    await send.click();
    await expect(page.getByText('SMS Sent')).toBeVisible();

    await page.goto('/#/billing/balance');
    await page.getByRole('tab', { name: 'Usage History' }).click();
    const paid = page.getByRole('table', { name: 'Messages paid 1 to 1 of 1' });
    await expect(paid.getByRole('row').nth(1)).toContainText(`${open}01`);
    await expect(paid.getByRole('row').nth(1)).toContainText(
      `EUR ${price} (prefix ${open})`,
    );
  });
});
