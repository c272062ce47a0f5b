import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parseCsv } from '../../electron/core/ingest/importers/csv-rows';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { serveApp, type ServedApp } from './host';

let app: ServedApp;
test.beforeEach(async () => {
  app = await serveApp();
});
test.afterEach(async () => {
  await app.stop();
});

test('sample library → comparison → regressed examples → diff → CSV export → role change', async ({
  page,
}) => {
  await page.goto(app.url);
  await page.getByRole('button', { name: 'Open the sample experiment' }).click();
  await expect(page.getByText('exp-demo-refusal-steering')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  await expect(page.getByRole('heading', { name: /steer-4521\s*vs\s*reference/ })).toBeVisible({
    timeout: 60_000,
  });
  await page.getByLabel('Pair', { exact: true }).selectOption({ label: 'steer-4521 vs reference' });

  const metrics = page.locator('table.metrics');
  await expect(metrics).toContainText('refusal_rate');
  await expect(metrics).toContainText('consistent');

  await page.getByRole('button', { name: /regressed on score: show examples/ }).click();
  await expect(page.getByRole('heading', { name: 'Examples' })).toBeVisible();
  const count = page.getByTestId('row-count');
  await expect(count).toHaveText(/^\d+ examples$/);
  const shown = Number((await count.textContent())!.split(' ')[0]);
  expect(shown).toBeGreaterThan(0);
  await expect(page.locator('.vrow.selected')).toBeVisible();
  await page.keyboard.press('j');
  await expect(page.getByTestId('example-detail')).toBeVisible();
  await expect(page.getByTestId('diff-left')).not.toBeEmpty();
  await expect(
    page.getByTestId('example-detail').locator('.class-regressed').first(),
  ).toBeVisible();

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV (this view)' }).click();
  const download = await downloadPromise;
  // One row per example (a byte order mark first, for Excel), criteria as columns.
  const text = fs.readFileSync((await download.path())!, 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  const csv = parseCsv(text.slice(1)).map((r) => r.cells);
  const header = csv[0]!;
  expect(header).toContain('example_id');
  const rows = csv.slice(1).filter((r) => r.length > 1);
  expect(rows).toHaveLength(shown);
  expect(rows.every((r) => r[header.indexOf('score.change')] === 'regressed')).toBe(true);

  await page.getByRole('button', { name: 'Conditions', exact: true }).click();
  await page
    .locator('.condition-card')
    .filter({ has: page.getByText('steer-random-feature', { exact: true }) })
    .dragTo(page.locator('.role-column[data-role="reference"]'));
  await expect(page.locator('.role-column[data-role="reference"]')).toContainText(
    'steer-random-feature',
  );
  await page.getByRole('button', { name: 'Comparison', exact: true }).click();
  await expect(page.getByLabel('Pair', { exact: true })).toContainText(
    'steer-4521 vs steer-random-feature',
    { timeout: 60_000 },
  );
  await expect(page.getByLabel('Pair', { exact: true })).toContainText(
    'reference vs steer-random-feature',
  );
});

test('model outputs full of HTML and script are shown as text, never run', async ({ page }) => {
  const dir = path.join(app.dataDir, 'hostile');
  const payload =
    '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><a href="javascript:window.__pwned=3">click</a>';
  writeMechlensRun(dir, { id: 'h-ref', name: 'reference', examples: examples(3) });
  writeMechlensRun(dir, {
    id: 'h-int',
    name: 'steer',
    experiment: { id: 'exp-test', role: 'intervention' },
    examples: examples(3).map((e) => ({
      ...e,
      id: `${e.id}<b>`,
      output: payload,
      fields: { refused: payload, score: 1 },
    })),
  });
  await page.goto(app.url);
  await page.getByLabel('Folder path').fill(dir);
  await page.getByRole('button', { name: 'Add folder' }).click();
  await page.getByRole('button', { name: 'Compare', exact: true }).click({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Examples', exact: true }).click();
  await page.getByLabel('Side', { exact: true }).selectOption('candidate');
  await expect(page.getByTestId('row-count')).toHaveText('3 examples');
  const detail = page.getByTestId('example-detail');
  await expect(detail).toBeVisible({ timeout: 30_000 });
  await expect(detail).toContainText('ex-001<b>');
  await expect(detail.locator('pre.text').nth(1)).toContainText('<script>');
  await expect(detail).toContainText('onerror=');
  expect(
    await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
  ).toBeUndefined();
  expect(await detail.locator('img, script, a[href^="javascript"]').count()).toBe(0);
});
