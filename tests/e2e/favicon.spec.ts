import { expect, test } from './fixtures.ts';

test('the console has a favicon: an SVG of the build, served and allowed by the CSP', async ({
  page,
  request,
}) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) {
      violations.push(message.text());
    }
  });
  await page.goto('/#/login');
  const icon = page.locator('link[rel="icon"]');
  await expect(icon).toHaveAttribute('type', 'image/svg+xml');
  const href = await icon.getAttribute('href');
  expect(href).toMatch(/\.svg$/);

  const answer = await request.get(new URL(href!, page.url()).pathname);
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toMatch(/^image\/svg\+xml/);
  expect(await answer.text()).toContain('<svg');
  expect(violations).toEqual([]);
});
