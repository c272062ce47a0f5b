import { expect, test, type Locator, type Page } from '@playwright/test';
import { REFERENCE, STEERED, writeLongLabelLibrary } from '../fixtures/long-labels';
import { serveApp, type ServedApp } from './host';

const WIDTH = 1024;
const HEIGHT = 700;

let app: ServedApp;
test.beforeEach(async () => {
  app = await serveApp();
});
test.afterEach(async () => {
  await app.stop();
});

/**
 * Why a control cannot be used where it is: outside the window, cut by a scrolling or clipping
 * ancestor, its own label cut, or another element drawn over it (checked with elementFromPoint
 * at its centre and just inside each corner).
 */
function obstacles(control: Locator): Promise<string[]> {
  return control.evaluate((el) => {
    const name = (e: Element | null) =>
      e
        ? `<${e.tagName.toLowerCase()}${e.className && typeof e.className === 'string' ? ` class="${e.className}"` : ''}> "${(e.textContent ?? '').trim().slice(0, 40)}"`
        : 'nothing';
    const found: string[] = [];
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return ['it has no size'];
    const slack = 0.5;
    if (
      r.left < -slack ||
      r.top < -slack ||
      r.right > window.innerWidth + slack ||
      r.bottom > window.innerHeight + slack
    )
      found.push(
        `it lies outside the ${window.innerWidth}×${window.innerHeight} window: ${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)}`,
      );
    for (let p = el.parentElement; p; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const c = p.getBoundingClientRect();
      if (
        r.left < c.left - slack ||
        r.top < c.top - slack ||
        r.right > c.right + slack ||
        r.bottom > c.bottom + slack
      )
        found.push(`it is cut by ${name(p)}`);
    }
    if (el.tagName === 'BUTTON' && el.scrollWidth > el.clientWidth + 1)
      found.push(`its label is cut (${el.scrollWidth} px in ${el.clientWidth} px)`);
    const inset = Math.min(3, r.width / 4, r.height / 4);
    const points: [number, number][] = [
      [(r.left + r.right) / 2, (r.top + r.bottom) / 2],
      [r.left + inset, r.top + inset],
      [r.right - inset, r.top + inset],
      [r.left + inset, r.bottom - inset],
      [r.right - inset, r.bottom - inset],
    ];
    for (const [x, y] of points) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(hit === el || el.contains(hit)))
        found.push(`at ${Math.round(x)},${Math.round(y)} it is covered by ${name(hit)}`);
    }
    return found;
  });
}

/** Every control is in the window, whole, uncovered, and (when enabled) takes a click. */
async function reachable(page: Page, controls: Locator[]): Promise<void> {
  for (const control of controls) {
    await expect(control).toBeVisible();
    await control.scrollIntoViewIfNeeded();
    const label = control.toString();
    expect(await obstacles(control), label).toEqual([]);
    if (await control.isEnabled()) await control.click({ trial: true, timeout: 5_000 });
  }
}

const button = (page: Page, name: string | RegExp) =>
  page.getByRole('button', { name, exact: typeof name === 'string' }).first();

test('at 1024×700 every view keeps its primary actions in the window, whole, uncovered and clickable', async ({
  page,
}) => {
  await page.setViewportSize({ width: WIDTH, height: HEIGHT });
  await page.goto(app.url);

  // Library, empty and then with a folder of runs whose names are long.
  await page.getByLabel('Folder path').fill(writeLongLabelLibrary(app.dataDir));
  await reachable(page, [page.getByLabel('Folder path'), button(page, 'Add folder')]);
  await button(page, 'Add folder').click();
  await expect(page.getByText('exp-steering').first()).toBeVisible({ timeout: 30_000 });
  // Each experiment's runs table fits its card, whose edge clips: a long condition name wraps
  // rather than pushing the state and date columns out of sight.
  const cut = await page
    .locator('.experiment-card')
    .evaluateAll((cards) =>
      cards.flatMap((card) =>
        [...card.querySelectorAll('th, td')]
          .filter((cell) => cell.getBoundingClientRect().right > card.getBoundingClientRect().right)
          .map((cell) => (cell.textContent ?? '').trim().slice(0, 30)),
      ),
    );
  expect(cut).toEqual([]);
  const folders = page.getByRole('region', { name: 'Folders' });
  await reachable(page, [
    page.getByLabel('Search runs'),
    button(page, 'Compare two runs'),
    button(page, 'Add folder'),
    folders.getByRole('button', { name: 'Rescan' }),
    folders.getByRole('button', { name: 'Remove' }),
    button(page, 'Compare'),
  ]);
  await folders.getByRole('button', { name: 'Remove' }).click();
  const dialog = page.getByRole('dialog');
  await reachable(page, [
    dialog.getByRole('button', { name: /^Remove folder and/ }),
    dialog.getByRole('button', { name: 'Cancel' }),
  ]);
  // The check sees a control something else is drawn over: here the dialog over the toolbar.
  expect(await obstacles(button(page, 'Add folder'))).toContainEqual(
    expect.stringContaining('it is covered by'),
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await button(page, 'Compare two runs').click();
  const pick = page.getByRole('region', { name: 'Compare two runs' });
  await reachable(page, [
    pick.getByLabel('Baseline'),
    pick.getByLabel('Candidate'),
    pick.getByRole('button', { name: 'Compare', exact: true }),
    pick.getByRole('button', { name: 'Cancel' }),
  ]);
  await pick.getByRole('button', { name: 'Cancel' }).click();

  // Conditions: grouping, and the role menu beside each card.
  await button(page, 'Conditions').click();
  await expect(page.getByLabel(`Role of ${STEERED}`)).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Settings field').selectOption({ index: 1 });
  await reachable(page, [
    page.getByLabel('Settings field'),
    button(page, 'Group…'),
    page.getByLabel(`Role of ${REFERENCE}`),
    page.getByLabel(`Role of ${STEERED}`),
    page.getByLabel(`Select ${STEERED}`),
  ]);

  // Comparison.
  await button(page, 'Comparison').click();
  await expect(page.getByRole('heading', { name: /vs/ }).first()).toBeVisible({ timeout: 60_000 });
  await expect(button(page, 'Export summary CSV')).toBeEnabled({ timeout: 30_000 });
  await reachable(page, [
    page.getByLabel('Experiment', { exact: true }),
    page.getByLabel('Pair', { exact: true }),
    button(page, 'Copy as Markdown'),
    button(page, 'Export summary CSV'),
  ]);
  // The per-criterion table fits its card: its one-line headers once pushed "Paired test p"
  // out of sight, behind a sideways scroll.
  const criteriaCard = page.locator('section.card', { has: page.locator('table.criteria') });
  await expect
    .poll(() => criteriaCard.evaluate((card) => card.scrollWidth - card.clientWidth))
    .toBeLessThanOrEqual(1);

  // Examples: toolbar, filters, the column chooser and the detail's pin.
  await button(page, 'Examples').click();
  await expect(page.getByTestId('example-detail')).toBeVisible({ timeout: 30_000 });
  await reachable(page, [
    button(page, /^Columns/),
    button(page, 'Export CSV (this view)'),
    button(page, 'Export CSV (all pairs)'),
    page.getByLabel('Search inputs and outputs'),
    page.getByLabel('Criterion', { exact: true }),
    page.getByLabel('Change class', { exact: true }),
    page.getByLabel('Output changed', { exact: true }),
    page.getByLabel('Behaviour changed', { exact: true }),
    page.getByLabel('Side', { exact: true }),
    button(page, /^Pin to finding/),
  ]);
  // The detail shows the example's id whole, and its fields table fits the pane: the pin and
  // raw-record controls once left the id "syc-0…" and pushed the Class column out of sight.
  const detail = page.getByTestId('example-detail');
  expect(
    await detail
      .locator('h3')
      .evaluate((h) => ({ text: h.textContent, cut: h.scrollWidth > h.clientWidth })),
  ).toEqual({ text: expect.stringMatching(/^syc-\d{4}$/), cut: false });
  expect(
    await page.locator('.detail-pane').evaluate((p) => p.scrollWidth - p.clientWidth),
  ).toBeLessThanOrEqual(1);
  await page.getByLabel('Output changed', { exact: true }).selectOption('yes');
  await reachable(page, [button(page, 'Clear filters')]);
  await button(page, /^Columns/).click();
  const columns = page.getByRole('group', { name: 'Columns shown' });
  await reachable(page, [
    columns.getByRole('checkbox').nth(1),
    columns.getByRole('checkbox').last(),
  ]);
  await columns.getByRole('checkbox').last().uncheck();
  await reachable(page, [columns.getByRole('button', { name: 'Show all columns' })]);
  await page.keyboard.press('Escape');

  // Findings: a new one, and its exports.
  await button(page, 'Findings').click();
  // Before the first finding the picker says there is none, rather than being an empty box.
  await expect(page.getByLabel('Finding', { exact: true }).locator('option')).toHaveText([
    'No finding yet',
  ]);
  await button(page, 'Draft a finding for this experiment').click();
  await expect(page.getByTestId('save-state')).toHaveText(/All changes saved/, {
    timeout: 30_000,
  });
  await reachable(page, [
    page.getByLabel('Finding', { exact: true }),
    button(page, 'New finding'),
    page.getByLabel('Title'),
    button(page, 'Export Markdown'),
    button(page, 'Export HTML'),
  ]);

  // The toolbar takes two rows at this width: scrolled down to the conclusion and back to the
  // history, the history is not under it.
  await page.getByLabel('Conclusion').scrollIntoViewIfNeeded();
  const history = page.getByRole('complementary', { name: 'Revision history' });
  await reachable(page, [
    history.getByRole('heading', { name: 'Revisions' }),
    history.getByRole('button', { name: 'Changes' }).first(),
  ]);

  // Sync.
  await button(page, 'Sync').click();
  await reachable(page, [
    button(page, 'What would be sent?'),
    button(page, 'Sync now'),
    button(page, 'Save settings'),
  ]);
});
