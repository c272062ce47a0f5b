import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumArgs, systemChromium } from './browser';
import { serveApp } from './host';
import {
  callApi,
  FIXED_CLOCK,
  jobsIdle,
  stablePage,
  stableRasterArgs,
  stableScreenshot,
  type Screen,
} from './stable';

/**
 * `npm run screenshots`: every screen of the sample experiment at 1440×900 and 1024×700, light
 * and dark, written to docs/screenshots/ (`<screen>.png` is 1440×900 light, the one the README
 * shows; the others are `<screen>-<width>-<scheme>.png`). Rerun after changing what a screen
 * shows, and look at them. A rerun writes the same bytes (`stable.ts` says how), so a changed
 * PNG in a diff is a changed screen.
 */
const out = path.resolve(__dirname, '../../docs/screenshots');

const VARIANTS: Screen[] = [
  { width: 1440, height: 900, scheme: 'light' },
  { width: 1024, height: 700, scheme: 'light' },
  { width: 1440, height: 900, scheme: 'dark' },
  { width: 1024, height: 700, scheme: 'dark' },
];

function fileName(name: string, v: Screen): string {
  return v.width === 1440 && v.scheme === 'light'
    ? `${name}.png`
    : `${name}-${v.width}-${v.scheme}.png`;
}

async function shot(page: Page, name: string, v: Screen): Promise<void> {
  await stableScreenshot(page, path.join(out, fileName(name, v)));
  process.stdout.write(`docs/screenshots/${fileName(name, v)}\n`);
}

/** The HTML export of the newest finding, fetched over the contract as the page would. */
async function exportedFinding(url: string): Promise<string> {
  const [latest] = await callApi<{ id: string }[]>(url, 'findings:list', {});
  const { content } = await callApi<{ content: string }>(url, 'findings:export', {
    findingId: latest!.id,
    format: 'html',
  });
  return content;
}

/** One pass through every screen, on a fresh sample library, in one size and scheme. */
async function capture(browser: Browser, v: Screen): Promise<void> {
  const app = await serveApp(['--demo'], { fixedClock: FIXED_CLOCK });
  try {
    await jobsIdle(app.url);
    const page = await stablePage(browser, v);
    await page.goto(app.url);
    await page.getByRole('button', { name: 'Compare' }).first().waitFor({ timeout: 30_000 });
    await shot(page, 'library', v);
    await page.getByRole('button', { name: 'Comparison', exact: true }).click();
    await page.getByRole('heading', { name: /vs/ }).first().waitFor({ timeout: 60_000 });
    await page
      .getByLabel('Pair', { exact: true })
      .selectOption({ label: 'steer-4521 vs reference' });
    await page.getByRole('heading', { name: /steer-4521\s*vs\s*reference/ }).waitFor();
    await shot(page, 'comparison', v);
    await page.locator('main.content').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await shot(page, 'comparison-series', v);
    await page.getByRole('button', { name: 'Conditions', exact: true }).click();
    await page.getByLabel('Select reference').check();
    await page.getByLabel('Select steer-4521').check();
    await shot(page, 'conditions', v);
    await page.getByRole('button', { name: 'Examples', exact: true }).click();
    await page.getByLabel('Change class', { exact: true }).selectOption('improved');
    await page.getByLabel('Criterion', { exact: true }).selectOption('refused');
    await page.getByTestId('example-detail').waitFor();
    await shot(page, 'examples', v);
    await page.getByRole('button', { name: 'Pin to finding' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Pin', exact: true }).click();
    await page.getByText(/Pinned .* to/).waitFor();
    await page.getByRole('button', { name: 'Findings', exact: true }).click();
    await page
      .getByLabel('Conclusion')
      .fill(
        'Steering feature 4521 lowered refusals on this set; the random-feature control did not. Judged by substring matching only.',
      );
    await page
      .getByTestId('save-state')
      .getByText(/All changes saved/)
      .waitFor();
    await shot(page, 'finding-editor', v);
    // Opened from a file, as a reader opens the download (an about:blank page written with
    // setContent takes Chromium's dark canvas in the dark scheme, which a file never gets).
    const exported = path.join(app.dataDir, 'finding.html');
    fs.writeFileSync(exported, await exportedFinding(app.url));
    const htmlPage = await stablePage(browser, v);
    await htmlPage.goto(pathToFileURL(exported).href);
    await shot(htmlPage, 'finding-export', v);
    await htmlPage.context().close();
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await page.getByRole('heading', { name: 'Outbox' }).waitFor();
    await shot(page, 'sync', v);
    await page.context().close();
  } finally {
    await app.stop();
  }
}

async function main(): Promise<void> {
  fs.mkdirSync(out, { recursive: true });
  const browser = await chromium.launch({
    ...(systemChromium ? { executablePath: systemChromium } : {}),
    args: [...chromiumArgs, ...stableRasterArgs],
  });
  try {
    for (const variant of VARIANTS) await capture(browser, variant);
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
