import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { examples, writeMechlensRun, type ExampleSpec } from '../fixtures/formats';
import { serveApp, type ServedApp } from './host';

/** More than three explorer pages (200 rows each), so scrolling has to load several. */
const COUNT = 650;
const id = (i: number) => `ex-${String(i).padStart(3, '0')}`;

let app: ServedApp;
test.beforeEach(async () => {
  app = await serveApp();
});
test.afterEach(async () => {
  await app.stop();
});

/** Example ids of the rendered rows, top to bottom. */
async function shownIds(page: Page): Promise<string[]> {
  return page.locator('.vbody [role="row"]:not(.vhead)').evaluateAll((rows) =>
    rows
      .map((row) => ({
        top: row.getBoundingClientRect().top,
        id: row.querySelector('[role="gridcell"]')?.textContent ?? '',
      }))
      .sort((a, b) => a.top - b.top)
      .map((r) => r.id),
  );
}

/**
 * A reference and a steered run of `examples` in their own folder, added through the library
 * and opened in the Examples view once its rows are counted.
 */
async function openPair(
  page: Page,
  name: string,
  all: ExampleSpec[],
  steered: ExampleSpec[] = all,
): Promise<void> {
  const dir = path.join(app.dataDir, name);
  writeMechlensRun(dir, { id: `${name}-ref`, name: 'reference', examples: all });
  writeMechlensRun(dir, {
    id: `${name}-int`,
    name: 'steer',
    experiment: { id: 'exp-test', role: 'intervention' },
    examples: steered,
  });
  await page.goto(app.url);
  await page.getByLabel('Folder path').fill(dir);
  await page.getByRole('button', { name: 'Add folder' }).click();
  await page.getByRole('button', { name: 'Compare', exact: true }).click({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Examples', exact: true }).click();
  await expect(page.getByTestId('row-count')).toHaveText(`${all.length} examples`, {
    timeout: 30_000,
  });
}

test('a deep scroll loads every page in order; selection, j/k and sorting keep working', async ({
  page,
}) => {
  const all = examples(COUNT);
  await openPair(
    page,
    'deep',
    all,
    all.map((e, i) => (i % 3 === 0 ? { ...e, output: `${e.output} Changed.` } : e)),
  );
  await expect(page.getByRole('grid', { name: 'Example pairs' })).toHaveAttribute(
    'aria-rowcount',
    String(COUNT),
  );

  const body = page.locator('.vbody');
  const last = page.locator('.vbody [role="row"]:not(.vhead)', { hasText: id(COUNT) });
  await expect(async () => {
    await body.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect(last).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  // Every row is laid out (30 px each), and the rows in view are consecutive examples.
  expect(await body.evaluate((el) => el.scrollHeight)).toBeGreaterThanOrEqual(COUNT * 30);
  const ids = await shownIds(page);
  const first = Number(ids[0]!.slice(3));
  expect(ids).toEqual(ids.map((_, i) => id(first + i)));
  expect(ids.at(-1)).toBe(id(COUNT));
  // The rows are moved as one window, never each on its own: Chromium restyled a row placed at a
  // new offset of its own on every scroll step, at a cost that grew until its next collection.
  const placed = await page
    .locator('.vbody [role="row"]:not(.vhead)')
    .evaluateAll((rows) => rows.filter((row) => (row as HTMLElement).style.transform).length);
  expect(placed).toBe(0);

  // Scrolling back up reuses rows: they must show the examples now in view, not stale ones.
  await body.evaluate((el) => el.scrollTo(0, 300 * 30));
  await expect(page.locator('.vbody [role="row"]:not(.vhead)', { hasText: id(301) })).toBeVisible();
  const middle = await shownIds(page);
  const start = Number(middle[0]!.slice(3));
  expect(middle).toEqual(middle.map((_, i) => id(start + i)));

  await page.locator('.vbody [role="row"]:not(.vhead)', { hasText: id(310) }).click();
  const detail = page.getByTestId('example-detail');
  await expect(detail.locator('h3')).toHaveText(id(310));
  await page.keyboard.press('j');
  await expect(detail.locator('h3')).toHaveText(id(311));
  await expect(page.locator('.vrow.selected')).toContainText(id(311));
  await page.keyboard.press('k');
  await page.keyboard.press('k');
  await expect(detail.locator('h3')).toHaveText(id(309));
  // ex-310 is index 309: changed (every third output differs), so the diff marks the addition.
  await page.keyboard.press('j');
  await expect(page.getByTestId('diff-right').locator('.add')).toContainText('Changed.');

  // Another sort starts again at the first row of the new order.
  await page.getByRole('columnheader', { name: /Example/ }).click();
  await expect(page.getByRole('columnheader', { name: /Example/ })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await expect(detail.locator('h3')).toHaveText(id(COUNT));
  expect((await shownIds(page))[0]).toBe(id(COUNT));
});

/** Rows rendered below the scroller's bottom edge, and the first row's id, at each frame. */
function recordFrames(page: Page) {
  return page.evaluate(() => {
    const frames: { first: string; below: number }[] = [];
    const w = window as unknown as { __frames: typeof frames; __recording: boolean };
    w.__frames = frames;
    w.__recording = true;
    const tick = () => {
      const body = document.querySelector('.vbody')!.getBoundingClientRect();
      const rows = [...document.querySelectorAll('.vbody [role="row"]:not(.vhead)')];
      frames.push({
        first: rows[0]?.querySelector('[role="gridcell"]')?.textContent ?? '',
        below: rows.filter((row) => row.getBoundingClientRect().top >= body.bottom).length,
      });
      if (w.__recording) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

test('a new order shows the rows in view in its first frame, the rows below the view after it', async ({
  page,
}) => {
  await openPair(page, 'frames', examples(COUNT));

  await recordFrames(page);
  await page.getByRole('columnheader', { name: /Example/ }).click();
  await expect(page.locator('.vbody [role="row"]:not(.vhead)').first()).toContainText(id(COUNT));
  // The rows beyond the view (the overscan) are back once the new rows have been on screen.
  await expect
    .poll(() =>
      page.evaluate(
        () => (window as unknown as { __frames: { below: number }[] }).__frames.at(-1)!.below,
      ),
    )
    .toBe(8);
  const frames = await page.evaluate(() => {
    const w = window as unknown as {
      __frames: { first: string; below: number }[];
      __recording: boolean;
    };
    w.__recording = false;
    return w.__frames;
  });
  // Mounting every row of a new order at once, those out of view too, made one frame's style,
  // layout and paint a task over 50 ms on a slow machine: the first frame holds the rows in view.
  const shown = frames.findIndex((f) => f.first === id(COUNT));
  expect(shown).toBeGreaterThanOrEqual(0);
  expect(frames[shown]!.below).toBe(0);
});

test('an input cut to fit its cell still overflows it, so the ellipsis falls where the whole text’s did', async ({
  page,
}) => {
  // The narrowest characters a cell shows, with marks and joiners that take no room at all.
  const narrow = (i: number) =>
    `${i} ${"il.'|, ".repeat(60)}e\u0301\u200d`.repeat(3) + ` ${'\u200a'.repeat(200)}|`;
  await openPair(
    page,
    'narrow',
    examples(40).map((e, i) => ({ ...e, input: narrow(i) })),
  );
  const inputCells = page.locator('.vbody [role="row"]:not(.vhead) [role="gridcell"]:nth-child(2)');
  for (const size of [
    { width: 1440, height: 900 },
    { width: 2560, height: 900 },
    { width: 1024, height: 700 },
  ]) {
    await page.setViewportSize(size);
    await expect(inputCells.first()).toBeVisible();
    await expect
      .poll(() =>
        inputCells.evaluateAll(
          (cells) => cells.filter((cell) => cell.scrollWidth <= cell.clientWidth).length,
        ),
      )
      .toBe(0);
  }
});
