import { expect, test, type Browser } from '@playwright/test';
import { chromiumArgs, systemChromium } from './browser';
import { serveApp } from './host';
import { FIXED_CLOCK, jobsIdle, stablePage, stableRasterArgs, stableScreenshot } from './stable';

test.use({
  launchOptions: {
    ...(systemChromium ? { executablePath: systemChromium } : {}),
    args: [...chromiumArgs, ...stableRasterArgs],
  },
});

/**
 * The screens that show what the core stamps with its clock and names with random ids: a new
 * finding's revisions, and its id in the sync outbox.
 */
async function findingAndOutbox(browser: Browser): Promise<Buffer[]> {
  const app = await serveApp(['--demo'], { fixedClock: FIXED_CLOCK });
  try {
    await jobsIdle(app.url);
    const page = await stablePage(browser, { width: 1024, height: 700, scheme: 'light' });
    await page.goto(app.url);
    await page.getByRole('button', { name: 'Findings', exact: true }).click({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Draft a finding for this experiment' }).click();
    await expect(page.getByTestId('save-state')).toHaveText(/All changes saved/, {
      timeout: 30_000,
    });
    await expect(page.getByText('2026-09-15 10:30:00').first()).toBeVisible();
    const finding = await stableScreenshot(page);
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await expect(page.getByRole('cell', { name: /^finding / }).first()).toBeVisible();
    const outbox = await stableScreenshot(page);
    await page.context().close();
    return [finding, outbox];
  } finally {
    await app.stop();
  }
}

test('two fresh hosts draw a finding and the outbox byte for byte the same', async ({
  browser,
}) => {
  const first = await findingAndOutbox(browser);
  const second = await findingAndOutbox(browser);
  expect(first[0]!.equals(second[0]!), 'the finding editor differs').toBe(true);
  expect(first[1]!.equals(second[1]!), 'the sync outbox differs').toBe(true);
});
