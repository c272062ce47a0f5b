import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { parseCsv } from '../../electron/core/ingest/importers/csv-rows';
import {
  CONTROL,
  JUDGED,
  LONG_OUTPUT_CHARS,
  STEER,
  writeComparisonContentLibrary,
} from '../fixtures/comparison-content';
import { serveApp, type ServedApp } from './host';

/**
 * Issue 17 (the comparison's content and exports): confounds reach the verdict, the forest plot
 * draws intervals only, per-run scorecards, changed examples on the page, paper-vs-observed
 * intervals, a labelled series axis, and an examples CSV a spreadsheet opens whole.
 */

let app: ServedApp;
test.beforeEach(async () => {
  app = await serveApp();
});
test.afterEach(async () => {
  await app.stop();
});

async function openComparison(page: Page): Promise<void> {
  await page.goto(app.url);
  await page.getByLabel('Folder path').fill(writeComparisonContentLibrary(app.dataDir));
  await page.getByRole('button', { name: 'Add folder' }).click();
  await page.getByRole('button', { name: 'Compare', exact: true }).click({ timeout: 30_000 });
  await expect(page.getByLabel('Pair', { exact: true })).toBeVisible({ timeout: 30_000 });
}

async function pickPair(page: Page, candidate: string): Promise<void> {
  await page
    .getByLabel('Pair', { exact: true })
    .selectOption({ label: `${candidate} vs reference` });
}

function metricRow(page: Page, metric: string) {
  return page.locator('table.metrics tbody tr').filter({ hasText: metric }).first();
}

test('a confound makes the verdict "not comparable" and says so in what the comparison cannot tell', async ({
  page,
}) => {
  await openComparison(page);

  await pickPair(page, STEER);
  await expect(metricRow(page, 'refusal_rate').locator('.verdict')).toHaveText('consistent');
  await expect(page.getByTestId('not-comparable')).toHaveCount(0);
  await expect(metricRow(page, 'refusal_rate')).toContainText(
    'Share of prompts whose response declines to help (substring match).',
  );

  await pickPair(page, CONTROL);
  await expect(metricRow(page, 'refusal_rate').locator('.verdict')).toHaveText('not comparable');
  await expect(metricRow(page, 'refusal_rate').locator('.confound')).toHaveText(
    'generation.temperature differs',
  );
  await expect(page.getByTestId('not-comparable')).toContainText('generation.temperature');
  const limitations = page.locator('ul.limitations');
  await expect(limitations).toContainText(
    'Not comparable: the runs were generated with different settings — generation.temperature (reference: 0, candidate: 0.7).',
  );

  await pickPair(page, JUDGED);
  await expect(metricRow(page, 'refusal_rate')).toContainText(
    'Comparison unavailable: the runs define refusal_rate differently',
  );
  await expect(metricRow(page, 'refusal_rate').locator('.verdict')).toHaveText(
    'comparison unavailable',
  );
  await expect(metricRow(page, 'refusal_rate').locator('.confound')).toHaveText(
    'metric_definitions.refusal_rate differs',
  );
  // Only the metric whose definition differs: the other one keeps its numbers and no confound.
  await expect(metricRow(page, 'mean_score').locator('.unavailable')).toHaveCount(0);
  await expect(limitations).toContainText('Comparison unavailable for refusal_rate');
});

test('the forest plot draws only estimates with an interval and lists the rest as text', async ({
  page,
}) => {
  await openComparison(page);
  const card = page.locator('section.card').filter({ hasText: 'All comparisons' });
  await card.getByLabel('Metric').selectOption('refusal_rate');
  await expect(card.locator('svg circle.point')).toHaveCount(6);
  await expect(card.getByLabel('Comparisons without an interval')).toHaveCount(0);

  // Reported by each run, with no example field: a difference but no interval, so no dot.
  await card.getByLabel('Metric').selectOption('tokens_per_second');
  await expect(card.locator('svg circle.point')).toHaveCount(0);
  const listed = card.getByLabel('Comparisons without an interval').locator('li');
  await expect(listed).toHaveCount(6);
  await expect(listed.first()).toContainText('— no interval (no shared example field');
});

test('scorecards, changed examples, paper vs observed intervals and the series axis', async ({
  page,
}) => {
  await openComparison(page);
  await pickPair(page, STEER);

  const cards = page.getByTestId('scorecard');
  await expect(cards).toHaveCount(7);
  const reference = cards.filter({ hasText: 'run ref' });
  await expect(reference).toContainText('40 examples');
  await expect(reference).toContainText('refusal_rate');

  const changed = page.getByRole('region', { name: 'Changed examples' });
  await expect(changed.locator('.changed-list li')).toHaveCount(5);
  await expect(changed.locator('.changed-list li').first()).toContainText('refused: improved');
  const showAll = changed.getByRole('button', { name: /^Show all \d+ in the explorer$/ });
  const total = Number((await showAll.textContent())!.match(/\d+/)![0]);

  const reproduction = page.locator('table.reproduction');
  const steerRow = reproduction.locator('tr').filter({ hasText: STEER.slice(0, 30) });
  await expect(steerRow).toContainText(/\[0\.\d+, 0\.\d+\], n = 40/);
  await expect(steerRow).toContainText('inside the interval');
  await expect(
    reproduction.locator('tr').filter({ hasText: /^refusal_ratereference/ }),
  ).toContainText('outside the interval');

  const series = page.locator('.series-grid figure').filter({ hasText: 'refusal_rate' });
  await expect(series.locator('text.axis-title')).toHaveText('Δ refusal_rate vs reference');
  await expect(series.locator('text.reference-label')).toHaveText('0 = reference');

  await showAll.click();
  await expect(page.getByRole('heading', { name: 'Examples' })).toBeVisible();
  await expect(page.getByTestId('row-count')).toHaveText(`${total} examples`);
});

test('the examples CSV: one row per example, criteria as columns, a BOM, long cells cut', async ({
  page,
}) => {
  await openComparison(page);
  await pickPair(page, STEER);
  await page.getByRole('button', { name: 'Examples', exact: true }).click();
  await expect(page.getByTestId('row-count')).toHaveText('40 examples', { timeout: 30_000 });

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV (this view)' }).click();
  const bytes = fs.readFileSync((await (await downloadPromise).path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  await expect(page.getByText(/^Exported 40 examples to /)).toBeVisible();

  const [header, ...rows] = parseCsv(bytes.toString('utf8').slice(1)).map((r) => r.cells);
  expect(rows).toHaveLength(40);
  expect(header).toEqual(
    expect.arrayContaining([
      'example_id',
      'refused.reference',
      'refused.candidate',
      'refused.change',
      'score.change',
    ]),
  );
  const long = rows.find((r) => r[header!.indexOf('example_id')] === 'ex-002')!;
  const cell = long[header!.indexOf('reference_output')]!;
  expect(cell).toHaveLength(32_767);
  expect(cell).toMatch(
    new RegExp(
      `… \\[cut: ${LONG_OUTPUT_CHARS.toLocaleString('en-US')} characters in full; see Pairwise\\]$`,
    ),
  );
});

test('the comparison toolbar says when an export or a copy fails, and confirms a copy', async ({
  page,
  context,
}) => {
  await openComparison(page);
  await page.route('**/api/request', async (route) => {
    const body = route.request().postDataJSON() as { name: string };
    if (body.name !== 'export:summaryCsv') return route.fallback();
    await route.fulfill({
      json: { ok: false, error: { code: 'internal', message: 'The disk is full.' } },
    });
  });
  await page.getByRole('button', { name: 'Export summary CSV' }).click();
  await expect(page.getByText('The disk is full.')).toBeVisible();

  await page.evaluate(() => {
    navigator.clipboard.writeText = () => Promise.reject(new Error('Write permission denied.'));
  });
  await page.getByRole('button', { name: 'Copy as Markdown' }).click();
  await expect(
    page.getByText('Could not copy to the clipboard: Write permission denied.'),
  ).toBeVisible();

  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.reload();
  await page.getByRole('button', { name: 'Copy as Markdown' }).click();
  await expect(page.getByText('Copied the metrics table as Markdown.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(
    '| metric | reported Δ |',
  );
});

test('at 1024×700 the methods note under the metrics table wraps inside its card', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await openComparison(page);
  const note = page.getByText(/^95 % intervals:/).first();
  await expect(note).toBeVisible();
  const noteBox = (await note.boundingBox())!;
  const card = (await note.evaluate((el) => el.closest('.card')!.getBoundingClientRect().right))!;
  expect(noteBox.x + noteBox.width).toBeLessThanOrEqual(card);
});
