import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ADMIN,
  createClientViaApi,
  expect,
  expectNoSeriousA11yViolations,
  grantCreditViaApi,
  loginAs,
  test,
} from './fixtures.ts';

// Written against CONTRACT.md "Delivery": it needs the server's message log calls and the
// built-in simulator (no SMPP_HOST here), which delivers within seconds.
test.describe('Message Log', () => {
  test('send from the console → DELIVERED in the log → attempts → CSV; the admin sees it too', async ({
    page,
    user,
  }, testInfo) => {
    test.setTimeout(60_000);
    const client = await createClientViaApi(user, 'Alerts');
    await grantCreditViaApi(client.id, '1.00');
    await loginAs(page, user);

    await page.goto('/#/messaging');
    await expect(page).toHaveURL(/#\/messaging\/sms$/);
    const tabs = page.getByRole('navigation', { name: 'Messaging' });
    await expect(tabs.getByRole('link', { name: 'Send SMS' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await page.getByLabel('Recipient').fill('+44 7700 900123');
    await page.getByLabel('Body').fill('Your code is 4321');
    await page.getByLabel('Reference').fill('e2e-log');
    const sent = page.waitForResponse(/\/messages\/sms$/);
    await page.getByRole('button', { name: 'Send SMS' }).click();
    const { id: messageId } = (await (await sent).json()) as { id: string };
    await expect(page.getByRole('status')).toHaveText('SMS Sent');

    // The SMS page links to the message just sent: its detail opens in the Message Log.
    await page
      .getByText('Your last message is in the')
      .getByRole('link', { name: 'Message Log' })
      .click();
    const justSent = page.getByRole('dialog', { name: 'Message', exact: true });
    await expect(justSent).toContainText(messageId);
    await justSent.getByRole('button', { name: 'Close Panel' }).click();
    await expect(justSent).toHaveCount(0);

    await tabs.getByRole('link', { name: 'Message Log' }).click();
    await expect(page).toHaveURL(/#\/messaging\/log$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Message Log' }),
    ).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: '447700900123' });
    await expect(row).toHaveCount(1);
    // The log refreshes itself while the message is in flight: no reload here.
    await expect(row.getByText('Delivered', { exact: true })).toBeVisible({
      timeout: 20_000,
    });
    await expect(row.getByText('Simulated', { exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'EUR 0.05' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({
      path: join(
        testInfo.project.outputDir,
        'screens',
        'message-log-desktop.png',
      ),
      fullPage: true,
    });

    await row.getByRole('button', { name: '447700900123' }).click();
    const panel = page.getByRole('dialog', { name: 'Message to 447700900123' });
    const fields = panel.getByRole('region', { name: 'Message' });
    await expect(fields).toContainText('Your code is 4321');
    await expect(fields).toContainText('e2e-log');
    await expect(fields.getByText('Simulated', { exact: true })).toBeVisible();
    await expect(fields).toContainText(messageId);
    const attempts = panel
      .getByRole('region', { name: 'Attempts' })
      .getByRole('listitem');
    await expect(attempts.first()).toContainText('MELROSE_SMPP');
    await expect(attempts.first()).toContainText('Time');
    await page.screenshot({
      path: join(
        testInfo.project.outputDir,
        'screens',
        'message-detail-desktop.png',
      ),
    });
    await panel.getByRole('button', { name: 'Close Panel' }).click();

    // Filtered by state, then downloaded: the CSV has the same filter and this one message.
    const filters = page.getByRole('form', { name: 'Message filters' });
    await filters.getByLabel('State').selectOption('DELIVERED');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/#\/messaging\/log\?state=DELIVERED$/);
    await expect(row).toHaveCount(1);
    const download = page.waitForEvent('download');
    const csvRequest = page.waitForRequest(/\/messages\.csv\?/);
    await page.getByRole('button', { name: 'Download CSV' }).click();
    expect(new URL((await csvRequest).url()).searchParams.get('state')).toBe(
      'DELIVERED',
    );
    const file = await download;
    expect(file.suggestedFilename()).toBe('messages.csv');
    const csv = await readFile((await file.path()) ?? '', 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(messageId);
    expect(lines[1]).toContain('447700900123');
    expect(lines[1]).toContain('DELIVERED');

    // Phone size: the table scrolls inside its card, the page never sideways.
    await page.setViewportSize({ width: 375, height: 812 });
    await expect(row).toHaveCount(1);
    const overflow = await page.evaluate(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow).toBe(0);
    await page.screenshot({
      path: join(
        testInfo.project.outputDir,
        'screens',
        'message-log-phone.png',
      ),
      fullPage: true,
    });

    // Staff see the same message on the admin client page, through the admin calls.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: /^Hello / }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: 'OK' })
      .click();
    await expect(page).toHaveURL(/#\/login$/);
    await loginAs(page, ADMIN);
    await page.goto(`/#/admin/clients/${client.id}`);
    const messages = page.getByRole('region', { name: 'Messages' });
    const adminRow = messages
      .getByRole('row')
      .filter({ hasText: '447700900123' });
    await expect(
      adminRow.getByText('Delivered', { exact: true }),
    ).toBeVisible();
    await adminRow.getByRole('button', { name: '447700900123' }).click();
    await expect(
      page
        .getByRole('dialog', { name: 'Message to 447700900123' })
        .getByRole('region', { name: 'Attempts' })
        .getByRole('listitem')
        .first(),
    ).toContainText('MELROSE_SMPP');
  });
});
