import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, type Page } from '@playwright/test';
import type { Db } from '../../electron/core/db/open';
import { writeMechlensRun } from '../fixtures/formats';
import { locateRunThen, longExamples, type SourceFate } from '../fixtures/located';
import { serveApp, type ServedApp } from './host';

const COUNT = 12;
const CHANGED = 'Source changed since indexing — re-index the folder to read this text.';
const MISSING = 'Source file is gone — its texts were not archived yet.';

let app: ServedApp;
test.beforeEach(async () => {
  app = await serveApp();
});
test.afterEach(async () => {
  await app.stop();
});

/**
 * What the served library holds once a run's source changed or vanished before the archive
 * copied its texts: its blocks located in the file, stored from a connection of our own. The
 * host watches its folders and would re-index a changed file there, so the blocks are located
 * in a copy outside them, which then changes or vanishes.
 */
function sourceGone(run: string, fate: SourceFate): void {
  const db = new Database(path.join(app.dataDir, 'pairwise.db'));
  try {
    db.pragma('busy_timeout = 10000');
    locateRunThen(db as unknown as Db, run, fate, path.join(app.dataDir, `${run}-copy.json`));
  } finally {
    db.close();
  }
}

/** Saves the page at the size given, for a person to look at (test-results/). */
async function look(page: Page, name: string, width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height });
  await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
}

test('an example whose source changed says so where its texts would be, and cannot be pinned', async ({
  page,
}) => {
  const dir = path.join(app.dataDir, 'lib');
  writeMechlensRun(dir, { id: 'ref', name: 'reference', examples: longExamples(COUNT) });
  writeMechlensRun(dir, {
    id: 'cand',
    name: 'steer',
    experiment: { id: 'exp-test', role: 'intervention' },
    examples: longExamples(COUNT, ' else'),
  });
  await page.goto(app.url);
  await page.getByLabel('Folder path').fill(dir);
  await page.getByRole('button', { name: 'Add folder' }).click();
  await page.getByRole('button', { name: 'Compare', exact: true }).click({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Examples', exact: true }).click();
  await expect(page.getByTestId('row-count')).toHaveText(`${COUNT} examples`, { timeout: 30_000 });

  sourceGone('ref', 'changed');
  await page.reload();
  const row = page.locator('.vbody [role="row"]:not(.vhead)', { hasText: 'ex-003' });
  await row.click();
  const detail = page.getByTestId('example-detail');
  await expect(detail.locator('h3')).toHaveText('ex-003');
  // The reference's input and output say why; the candidate's are shown whole, with no diff.
  await expect(detail.getByTestId('text-unavailable')).toHaveText([CHANGED, CHANGED]);
  await expect(detail.getByText('Question number 3 asks about something else;')).toBeVisible();
  await expect(detail.locator('.word-diff')).toHaveCount(0);
  await expect(detail.getByRole('button', { name: 'Pin to finding…' })).toBeDisabled();
  // The inputs are the same: the row shows the candidate's (after the opening every input
  // listed shares, "Please explain, in a few careful sentences, what question number").
  await expect(row).toContainText('… 3 asks about.');
  await look(page, 'changed', 1440, 900);
  await look(page, 'changed', 1024, 700);

  sourceGone('cand', 'missing');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.reload();
  await expect(page.locator('.cell-unavailable')).toHaveCount(COUNT);
  await expect(page.locator('.cell-unavailable').first()).toHaveText(CHANGED);
  await page.locator('.vbody [role="row"]:not(.vhead)', { hasText: 'ex-005' }).click();
  await expect(detail.locator('h3')).toHaveText('ex-005');
  await expect(detail.getByTestId('text-unavailable')).toHaveText([
    CHANGED,
    MISSING,
    CHANGED,
    MISSING,
  ]);
  await look(page, 'both', 1440, 900);
  await look(page, 'both', 1024, 700);
});
