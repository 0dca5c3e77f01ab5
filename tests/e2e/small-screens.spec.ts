import type { Locator, Page } from '@playwright/test';
import {
  ADMIN,
  createClientViaApi,
  expect,
  grantCreditViaApi,
  loginAs,
  test,
} from './fixtures.ts';

/** The box of `locator`, which must be rendered. */
async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found, `${locator} is rendered`).not.toBeNull();
  return found!;
}

/** Nothing of the page overflows sideways. */
async function expectNoSidewaysScroll(page: Page) {
  expect(
    await page.evaluate(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    ),
  ).toBe(0);
}

test.describe('Small screens', () => {
  test('at 375 px the admin navbar keeps every item whole, inside it and apart, and its menu opens', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await loginAs(page, ADMIN);
    await page.goto('/#/admin');
    await expect(page.getByRole('heading', { name: 'Clients' })).toBeVisible();
    await expectNoSidewaysScroll(page);

    const navbar = await box(page.locator('.navbar'));
    const items = [
      page.getByRole('button', { name: 'Menu' }),
      page.getByRole('link', { name: /Admin$/ }).first(),
      page.getByRole('button', { name: /^Hello / }),
      page.getByRole('link', { name: 'Customer console' }),
    ];
    const boxes = [];
    for (const item of items) {
      const b = await box(item);
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width).toBeLessThanOrEqual(375);
      // Inside the navbar, not cut by its lower edge.
      expect(b.y).toBeGreaterThanOrEqual(navbar.y);
      expect(b.y + b.height).toBeLessThanOrEqual(navbar.y + navbar.height);
      boxes.push(b);
    }
    // No two items overlap.
    for (let i = 0; i < boxes.length; i += 1) {
      for (let j = i + 1; j < boxes.length; j += 1) {
        const [a, b] = [boxes[i]!, boxes[j]!];
        const apart =
          a.x + a.width <= b.x ||
          b.x + b.width <= a.x ||
          a.y + a.height <= b.y ||
          b.y + b.height <= a.y;
        expect(apart, `navbar items ${i} and ${j} overlap`).toBe(true);
      }
    }
    // The menu, the brand and the user menu share the first row.
    const [menu, brand, hello] = boxes;
    expect(Math.abs(brand!.y - menu!.y)).toBeLessThan(menu!.height);
    expect(Math.abs(hello!.y - menu!.y)).toBeLessThan(menu!.height);

    // Its menu opens whole on the screen.
    await page.getByRole('button', { name: /^Hello / }).click();
    const logout = page.getByRole('menuitem', { name: 'Logout' });
    await expect(logout).toBeInViewport({ ratio: 1 });
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 375, height: 812 },
  ]) {
    test(`at ${viewport.width}×${viewport.height} the link to the message just sent shows without scrolling`, async ({
      page,
      user,
    }) => {
      test.setTimeout(60_000);
      await page.setViewportSize(viewport);
      const client = await createClientViaApi(user, 'Phone');
      await grantCreditViaApi(client.id, '1.00');
      await loginAs(page, user);
      await page.goto('/#/messaging/sms');
      await page.getByLabel('Recipient').fill('+44 7700 900123');
      await page.getByLabel('Body').fill('Where is it?');
      // Scrolled just enough to see Send SMS, as someone filling the form would be.
      const send = page.getByRole('button', { name: 'Send SMS' });
      await send.evaluate((button) => button.scrollIntoView({ block: 'end' }));
      await send.click();
      const link = page
        .getByText('Your last message is in the')
        .getByRole('link', { name: 'Message Log' });
      await expect(link).toBeVisible();
      await expect(page.getByLabel('Body')).toHaveValue('');
      // Where the eye is after pressing Send SMS: no scrolling needed to find it.
      await expect(link).toBeInViewport({ ratio: 1 });
      await expectNoSidewaysScroll(page);
    });
  }
});
