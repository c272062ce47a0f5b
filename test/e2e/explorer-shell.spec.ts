import { expect, test, type Page } from '@playwright/test';
import {
  COUNT,
  LONG_ID,
  REFERENCE,
  STEERED,
  WORST_ID,
  writeLongLabelLibrary,
} from '../fixtures/long-labels';
import { serveApp, type ServedApp } from './host';

let app: ServedApp;
test.beforeEach(async () => {
  app = await serveApp();
});
test.afterEach(async () => {
  await app.stop();
});

/** Adds the long-label library and opens its examples (the app picks the experiment itself). */
async function openExamples(page: Page): Promise<void> {
  await page.goto(app.url);
  await page.getByLabel('Folder path').fill(writeLongLabelLibrary(app.dataDir));
  await page.getByRole('button', { name: 'Add folder' }).click();
  await page.getByRole('button', { name: 'Examples', exact: true }).click();
  await expect(page.getByTestId('row-count')).toHaveText(`${COUNT} examples`, { timeout: 30_000 });
}

const detailId = (page: Page) => page.getByTestId('example-detail').locator('h3');
const firstRowId = (page: Page) =>
  page.locator('.vbody [role="row"]:not(.vhead)').first().locator('[role="gridcell"]').first();

test('opens on the latest experiment with examples; sorts by how far an example moved; every change column sorts; columns can be hidden; the header scrolls with the rows', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openExamples(page);
  // aaa-empty is newer and first by name, but has no examples.
  await expect(page.getByLabel('Experiment')).toHaveValue('exp-steering');

  await page.getByRole('button', { name: /^score/ }).click();
  const score = page.getByRole('columnheader', { name: /^score/ });
  await expect(score).toHaveAttribute('aria-sort', 'ascending');
  await expect(firstRowId(page)).toHaveText(WORST_ID);
  await expect(detailId(page)).toHaveText(WORST_ID);

  for (const name of ['Output changed', 'Behaviour changed']) {
    await page.getByRole('button', { name, exact: true }).click();
    await expect(page.getByRole('columnheader', { name })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
  }

  await page.getByRole('button', { name: /^Columns/ }).click();
  await page.getByRole('group', { name: 'Columns shown' }).getByLabel('Input').uncheck();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('columnheader', { name: 'Input' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('row-count')).toHaveText(`${COUNT} examples`, { timeout: 30_000 });
  await expect(page.getByRole('columnheader', { name: 'Input' })).toHaveCount(0);
  await page.getByRole('button', { name: /^Columns/ }).click();
  await page.getByRole('button', { name: 'Show all columns' }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('columnheader', { name: 'Input' })).toHaveCount(1);

  // Scrolled sideways, the header's last column stays above the rows' last column.
  await page.locator('.vbody').evaluate((el) => el.scrollTo(10_000, 0));
  const head = await page.getByRole('columnheader', { name: 'In', exact: true }).boundingBox();
  const cell = await page
    .locator('.vbody [role="row"]:not(.vhead)')
    .first()
    .locator('[role="gridcell"]')
    .last()
    .boundingBox();
  expect(Math.abs(head!.x - cell!.x)).toBeLessThan(1);
  expect(head!.x + head!.width).toBeLessThanOrEqual(
    (await page.locator('.table-pane').boundingBox())!.x +
      (await page.locator('.table-pane').boundingBox())!.width +
      1,
  );
});

test('search finds ids and word prefixes and marks the hits; a long output diff stays level and steps between changes', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openExamples(page);
  const search = page.getByLabel('Search inputs and outputs');

  await search.fill('Napol');
  await expect(page.getByTestId('row-count')).toHaveText('6 examples');
  await expect(page.locator('.vbody [role="gridcell"] mark').first()).toHaveText('Napol');
  await expect(page.getByTestId('example-detail').locator('mark').first()).toHaveText('Napol');

  await search.fill(LONG_ID);
  await expect(page.getByTestId('row-count')).toHaveText('1 example');
  await expect(page.locator('.vbody [role="gridcell"] mark').first()).toHaveText(LONG_ID);
  await expect(detailId(page)).toHaveText(LONG_ID);

  const next = page.getByRole('button', { name: 'Next change' });
  await next.click();
  await expect(page.getByTestId('change-position')).toHaveText(/^change 1 of \d+/);
  await next.click();
  await expect(page.getByTestId('change-position')).toHaveText(/^change 2 of \d+/);
  // The second change is near the end: after the insertion, its rows are level on both sides.
  const left = page.getByTestId('diff-left').locator('.diff-row.current');
  const right = page.getByTestId('diff-right').locator('.diff-row.current');
  await expect(right).toBeInViewport();
  await expect(right).toContainText('(changed)');
  const [a, b] = [await left.boundingBox(), await right.boundingBox()];
  expect(Math.abs(a!.y - b!.y)).toBeLessThan(1);
  await page.getByRole('button', { name: 'Previous change' }).click();
  await expect(page.getByTestId('change-position')).toHaveText(/^change 1 of \d+/);
  await expect(page.getByTestId('diff-right').locator('.diff-row.current')).toContainText(
    'An inserted paragraph',
  );
});

test('the address keeps view, experiment, pair, filters, sort and example: reload, back and a pasted link restore them', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openExamples(page);
  await page.getByLabel('Output changed').selectOption('yes');
  await page.getByRole('button', { name: /^score/ }).click();
  await page.locator('.vbody [role="row"]', { hasText: 'syc-0016' }).click();
  await expect(detailId(page)).toHaveText('syc-0016');
  await expect(page).toHaveURL(/#\/examples\?.*ex=syc-0016/);

  const restored = async (p: Page) => {
    await expect(p.getByTestId('row-count')).toHaveText(/^\d+ examples/, { timeout: 30_000 });
    await expect(p.getByLabel('Output changed')).toHaveValue('yes');
    await expect(p.getByRole('columnheader', { name: /^score/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await expect(p.getByTestId('example-detail').locator('h3')).toHaveText('syc-0016');
    await expect(p.locator('.vrow.selected')).toContainText('syc-0016');
  };
  await page.reload();
  await restored(page);

  const link = page.url().replace(/\?token=[^#]*/, '');
  await page.getByRole('button', { name: 'Comparison', exact: true }).click();
  await expect(page).toHaveURL(/#\/comparison/);
  await page.goBack();
  await restored(page);
  await page.goForward();
  await expect(page).toHaveURL(/#\/comparison/);

  // A pasted link (the page's own address, without the token) opened from another page.
  await page.goto('about:blank');
  await page.goto(link);
  await restored(page);

  // The finding picked is in the address too: two findings, the first one picked, reloaded.
  await page.getByRole('button', { name: 'Findings', exact: true }).click();
  await page.getByRole('button', { name: 'New finding' }).click();
  await expect(page).toHaveURL(/#\/findings\?.*finding=/, { timeout: 30_000 });
  const firstUrl = page.url();
  await page.getByRole('button', { name: 'New finding' }).click();
  await expect.poll(() => page.url(), { timeout: 30_000 }).not.toBe(firstUrl);
  const picker = page.getByLabel('Finding', { exact: true });
  const firstId = new URL(firstUrl).hash.match(/finding=([^&]+)/)![1]!;
  await picker.selectOption(decodeURIComponent(firstId));
  await page.reload();
  await expect(page.getByLabel('Finding', { exact: true })).toHaveValue(
    decodeURIComponent(firstId),
  );
});

test('long condition names: short names with the full text on hover, and every toolbar button reachable at 1024×700', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await openExamples(page);
  const pair = page.getByLabel('Pair', { exact: true });
  await expect(pair).toHaveAttribute('title', `${STEERED} vs ${REFERENCE}`);
  await expect(pair.locator('option').first()).toHaveText(
    'steering.feature_id=4521 vs steering.feature_id=none',
  );
  const inView = async (name: string | RegExp) => {
    const box = (await page.getByRole('button', { name }).first().boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(1024);
    expect(box.y + box.height).toBeLessThanOrEqual(700);
  };
  for (const name of [/^Columns/, 'Export CSV (this view)', 'Export CSV (all pairs)'])
    await inView(name);
  // The diff's column labels are the short names, cut with the full name on hover.
  await expect(page.locator('.diff-grid .diff-label').first()).toHaveAttribute(
    'title',
    'steering.feature_id=none',
  );
  await page.getByRole('button', { name: 'Library', exact: true }).click();
  for (const name of ['Add folder']) await inView(name);
});

test('the metrics table heads each side with its short name, whole, and the full name on hover, at 1024×700 and 1440×900', async ({
  page,
}) => {
  await openExamples(page);
  await page.getByRole('button', { name: 'Comparison', exact: true }).click();
  const heads = page.locator('table.metrics thead th');
  await expect(heads.locator('.col-name')).toHaveText([
    'steering.feature_id=none',
    'steering.feature_id=4521',
  ]);
  await expect(heads.nth(1)).toHaveAttribute('title', REFERENCE);
  await expect(heads.nth(2)).toHaveAttribute('title', STEERED);
  for (const size of [
    { width: 1024, height: 700 },
    { width: 1440, height: 900 },
  ]) {
    await page.setViewportSize(size);
    const cut = await heads
      .locator('.col-name')
      .evaluateAll((els) =>
        els.some((el) => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight),
      );
    expect(cut, `a condition header is cut at ${size.width}×${size.height}`).toBe(false);
  }
});
