import { join } from 'node:path';
import { loginAs, test } from './fixtures.ts';

/**
 * Screenshots of each screen at desktop and phone sizes (DESIGN.md "check it by looking"),
 * kept under test-results/screens/ for review and as CI artifacts.
 */
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 812 },
] as const;

for (const viewport of VIEWPORTS) {
  test(`screens at ${viewport.name} size`, async ({ page, user }, testInfo) => {
    await page.setViewportSize(viewport);
    const shot = async (name: string) => {
      await page.waitForLoadState('networkidle');
      await page.screenshot({
        path: join(
          testInfo.project.outputDir,
          'screens',
          `${name}-${viewport.name}.png`,
        ),
        fullPage: true,
      });
    };

    await page.goto('/#/login');
    await page.getByRole('heading', { name: /Login to/ }).waitFor();
    await shot('login');

    await page.goto('/#/register');
    await page.getByRole('heading', { name: /Register on/ }).waitFor();
    await shot('register');

    await loginAs(page, user);
    await page.getByRole('heading', { name: 'Quick Start' }).waitFor();
    await shot('quickstart');

    await page.goto('/#/billing/balance');
    await page.getByRole('tab', { name: 'Top-up History' }).waitFor();
    await shot('billing-balance');

    await page.goto('/#/no-such-page');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await shot('not-found');
  });
}
