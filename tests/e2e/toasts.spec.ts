import { expect, loginAs, test } from './fixtures.ts';

test('at 375 px a toast does not cover the navbar', async ({ page, user }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await loginAs(page, user);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Insights' }).click();
  const toast = page.getByRole('alert').filter({
    hasText: 'Sorry, this is not available yet and will be coming soon.',
  });
  await expect(toast).toBeVisible();
  const navbar = await page.getByRole('banner').boundingBox();
  const box = await toast.boundingBox();
  expect(navbar).not.toBeNull();
  expect(box).not.toBeNull();
  expect(box!.y).toBeGreaterThanOrEqual(navbar!.y + navbar!.height);
});
