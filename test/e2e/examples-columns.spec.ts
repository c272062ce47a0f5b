import { expect, test, type Locator, type Page } from '@playwright/test';
import { serveApp, type ServedApp } from './host';

let app: ServedApp;
test.beforeEach(async () => {
  app = await serveApp(['--demo']);
});
test.afterEach(async () => {
  await app.stop();
});

/** The sample library's examples of one pair with two criteria: seven columns in all. */
async function openExamples(page: Page, width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height });
  await page.goto(app.url);
  await page.getByRole('button', { name: 'Compare', exact: true }).click({ timeout: 30_000 });
  await expect(page.getByRole('heading', { name: /vs/ }).first()).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Examples', exact: true }).click();
  await page.getByLabel('Pair', { exact: true }).selectOption({ label: 'steer-4521 vs reference' });
  await expect(page.getByTestId('example-detail')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: /^Columns/ })).toHaveText('Columns (7/7)');
  await expect(headers(page)).toHaveCount(7);
}

const headers = (page: Page) => page.locator('.vhead [role="columnheader"]');
const firstRowCells = (page: Page) =>
  page.locator('.vbody [role="row"]:not(.vhead)').first().locator('[role="gridcell"]');

/** The part of the grid the researcher sees: the scroller's box without its scrollbar. */
async function visibleBox(page: Page) {
  return page.locator('.vbody').evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, right: r.left + el.clientWidth };
  });
}

/**
 * The names of the column headers not wholly inside the grid's visible box; the example id is
 * pinned at its left edge, so the others are in view only right of it.
 */
async function headersOutOfView(page: Page): Promise<string[]> {
  const view = await visibleBox(page);
  return headers(page).evaluateAll((els, v) => {
    const pinnedRight = els[0]!.getBoundingClientRect().right;
    return els
      .filter((el, i) => {
        const r = el.getBoundingClientRect();
        const left = i === 0 ? v.left : pinnedRight;
        return r.left < left - 1 || r.right > v.right + 1;
      })
      .map((el) => (el.textContent ?? '').replace(/[▴▾]/g, '').trim());
  }, view);
}

async function paneWidth(pane: Locator): Promise<number> {
  return (await pane.boundingBox())!.width;
}

test('at 1440×900 every column the chooser shows is in the table pane; header and cells stay level', async ({
  page,
}) => {
  await openExamples(page, 1440, 900);
  expect(await headersOutOfView(page)).toEqual([]);
  await expect(page.getByRole('button', { name: /more column/ })).toHaveCount(0);
  // Two-word headers wrap instead of widening their column.
  const output = page.getByRole('columnheader', { name: 'Output changed' });
  expect((await output.boundingBox())!.width).toBeLessThan(100);
  const count = await headers(page).count();
  for (let i = 0; i < count; i++) {
    const [head, cell] = [
      await headers(page).nth(i).boundingBox(),
      await firstRowCells(page).nth(i).boundingBox(),
    ];
    expect(Math.abs(head!.x - cell!.x)).toBeLessThan(1);
    expect(Math.abs(head!.width - cell!.width)).toBeLessThan(1);
  }
});

test('at 1024×700 a cue names the columns out of view and scrolls them in; header and cells scroll together', async ({
  page,
}) => {
  await openExamples(page, 1024, 700);
  const hidden = await headersOutOfView(page);
  expect(hidden.length).toBeGreaterThan(0);
  const more = page.getByRole('button', { name: /more columns? →$/ });
  await expect(more).toHaveText(`${hidden.length} more column${hidden.length === 1 ? '' : 's'} →`);
  // The cue covers no header: laid over the header row it hid the label it pointed to.
  const cue = (await more.boundingBox())!;
  for (const head of await headers(page).all()) {
    const box = (await head.boundingBox())!;
    expect(cue.y + cue.height <= box.y || box.y + box.height <= cue.y).toBe(true);
  }
  await more.click();
  // Every column that was out of view is in it now, and the cue points back instead.
  await expect
    .poll(async () => (await headersOutOfView(page)).filter((name) => hidden.includes(name)))
    .toEqual([]);
  const stillHidden = await headersOutOfView(page);
  await expect(more).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^← \d+ more columns?$/ })).toHaveText(
    `← ${stillHidden.length} more column${stillHidden.length === 1 ? '' : 's'}`,
  );
  // Scrolled sideways, each header is still above its cells, and the id stays at the left edge.
  expect(await page.locator('.vbody').evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  expect((await headers(page).first().boundingBox())!.x).toBeCloseTo(
    (await visibleBox(page)).left,
    0,
  );
  const count = await headers(page).count();
  for (let i = 0; i < count; i++) {
    const [head, cell] = [
      await headers(page).nth(i).boundingBox(),
      await firstRowCells(page).nth(i).boundingBox(),
    ];
    expect(Math.abs(head!.x - cell!.x)).toBeLessThan(1);
  }
  await page.getByRole('button', { name: /^← \d+ more columns?$/ }).click();
  await expect.poll(() => page.locator('.vbody').evaluate((el) => el.scrollLeft)).toBe(0);
});

test('the splitter between table and detail moves by mouse and keyboard, is kept across a reload, and a double click resets it', async ({
  page,
}) => {
  await openExamples(page, 1440, 900);
  const pane = page.locator('.table-pane');
  const detail = page.locator('.detail-pane');
  const splitter = page.getByRole('separator', { name: 'Resize the table and the detail' });
  const start = await paneWidth(pane);
  const startDetail = await paneWidth(detail);
  const startValue = Number(await splitter.getAttribute('aria-valuenow'));

  const box = (await splitter.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 60, box.y + box.height / 2, { steps: 4 });
  await page.mouse.move(box.x + box.width / 2 - 120, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect.poll(() => paneWidth(pane)).toBeCloseTo(start - 120, 0);
  expect(await paneWidth(detail)).toBeCloseTo(startDetail + 120, 0);
  expect(Number(await splitter.getAttribute('aria-valuenow'))).toBeLessThan(startValue);
  // Narrower than its columns, the table now shows the cue.
  await expect(page.getByRole('button', { name: /more columns? →$/ })).toBeVisible();

  await splitter.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => paneWidth(pane)).toBeCloseTo(start - 120 + 32, 0);
  const kept = await paneWidth(pane);

  await page.reload();
  await expect(page.getByTestId('example-detail')).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => paneWidth(pane)).toBeCloseTo(kept, 0);

  await splitter.dblclick();
  await expect.poll(() => paneWidth(pane)).toBeCloseTo(start, 0);
  expect(await headersOutOfView(page)).toEqual([]);
  // The keyboard's ends: Home gives the table its least, End the detail its least.
  await splitter.focus();
  await page.keyboard.press('Home');
  await expect.poll(() => paneWidth(pane)).toBeCloseTo(320, 0);
  await page.keyboard.press('End');
  await expect.poll(() => paneWidth(detail)).toBeCloseTo(320, 0);
});
