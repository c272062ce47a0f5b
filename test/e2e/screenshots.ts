import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumArgs, systemChromium } from './browser';
import { serveApp } from './host';

/**
 * `npm run screenshots`: every screen at 1440×900 on the sample experiment, written to
 * docs/screenshots/ (the README uses them). Rerun after changing what a screen shows.
 */
const out = path.resolve(__dirname, '../../docs/screenshots');
const scheme = (process.env.PAIRWISE_SCHEME as 'light' | 'dark' | undefined) ?? 'light';

async function shot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(out, `${name}.png`) });
  process.stdout.write(`docs/screenshots/${name}.png\n`);
}

/** The HTML export of the newest finding, fetched over the contract as the page would. */
async function exportedFinding(url: string): Promise<string> {
  const { origin, searchParams } = new URL(url);
  const post = async (name: string, input: unknown) => {
    const response = await fetch(`${origin}/api/request`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${searchParams.get('token')}`,
      },
      body: JSON.stringify({ name, input }),
    });
    return ((await response.json()) as { value: unknown }).value;
  };
  const [latest] = (await post('findings:list', {})) as { id: string }[];
  return (
    (await post('findings:export', { findingId: latest!.id, format: 'html' })) as {
      content: string;
    }
  ).content;
}

async function main(): Promise<void> {
  fs.mkdirSync(out, { recursive: true });
  const app = await serveApp(['--demo']);
  const browser = await chromium.launch({
    ...(systemChromium ? { executablePath: systemChromium } : {}),
    args: chromiumArgs,
  });
  try {
    const page = await browser.newPage({
      viewport: { width: 1440, height: 900 },
      colorScheme: scheme,
    });
    await page.goto(app.url);
    await page.getByRole('button', { name: 'Compare' }).first().waitFor({ timeout: 30_000 });
    await shot(page, 'library');
    await page.getByRole('button', { name: 'Comparison', exact: true }).click();
    await page.getByRole('heading', { name: /vs/ }).first().waitFor({ timeout: 60_000 });
    await page
      .getByLabel('Pair', { exact: true })
      .selectOption({ label: 'steer-4521 vs reference' });
    await shot(page, 'comparison');
    await page.locator('main.content').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await shot(page, 'comparison-series');
    await page.getByRole('button', { name: 'Conditions', exact: true }).click();
    await page.getByLabel('Select reference').check();
    await page.getByLabel('Select steer-4521').check();
    await shot(page, 'conditions');
    await page.getByRole('button', { name: 'Examples', exact: true }).click();
    await page.getByLabel('Change class', { exact: true }).selectOption('improved');
    await page.getByLabel('Criterion', { exact: true }).selectOption('refused');
    await page.getByTestId('example-detail').waitFor();
    await shot(page, 'examples');
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
    await shot(page, 'finding-editor');
    const exported = await exportedFinding(app.url);
    const htmlPage = await browser.newPage({
      viewport: { width: 1440, height: 900 },
      colorScheme: scheme,
    });
    await htmlPage.setContent(exported);
    await htmlPage.screenshot({ path: path.join(out, 'finding-export.png') });
    process.stdout.write('docs/screenshots/finding-export.png\n');
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await shot(page, 'sync');
  } finally {
    await browser.close();
    await app.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
