import { expect, test, type Page } from '@playwright/test';
import { writeLongLabelLibrary } from '../fixtures/long-labels';
import { serveApp, type ServedApp } from './host';
import { callApi, jobsIdle } from './stable';

let app: ServedApp;
test.beforeEach(async () => {
  app = await serveApp(['--demo']);
  await jobsIdle(app.url);
  await callApi(app.url, 'library:addFolder', {
    path: writeLongLabelLibrary(app.dataDir),
    watch: false,
  });
  await jobsIdle(app.url);
});
test.afterEach(async () => {
  await app.stop();
});

/**
 * Every evidence table of the open finding, as a reader sees it: whether its card scrolls
 * sideways, and any header or cell whose text runs past its own box or the card's edge.
 */
function overflows(page: Page) {
  return page.locator('.evidence').evaluate((evidence) =>
    [...evidence.querySelectorAll('table.metrics')].map((table) => {
      const card = table.closest('.card')!;
      const edge = card.getBoundingClientRect();
      const spilled = [...table.querySelectorAll('th, td')].filter((cell) => {
        const box = cell.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(cell);
        return [...range.getClientRects()].some(
          (r) =>
            r.right > Math.min(box.right, edge.right) + 0.5 ||
            r.left < Math.max(box.left, edge.left) - 0.5,
        );
      });
      return {
        scrolls: card.scrollWidth > card.clientWidth,
        spilled: spilled.map((cell) => (cell.textContent ?? '').slice(0, 40)),
        rows: table.querySelectorAll('tbody tr:not(.metric-head)').length,
      };
    }),
  );
}

async function openFinding(page: Page, experimentId: string): Promise<void> {
  await callApi(app.url, 'compare:start', { experimentId });
  await jobsIdle(app.url);
  const { finding } = await callApi<{ finding: { id: string } }>(app.url, 'findings:create', {
    experimentId,
  });
  await page.goto(
    `${app.url}#/findings?exp=${encodeURIComponent(experimentId)}&finding=${finding.id}`,
  );
  await expect(page.getByRole('heading', { name: 'Evidence' })).toBeVisible({ timeout: 30_000 });
}

for (const [width, height] of [
  [1440, 900],
  [1024, 700],
] as const) {
  test(`at ${width}×${height} a finding's evidence shows every metric's numbers without scrolling sideways`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    for (const experimentId of ['exp-demo-refusal-steering', 'exp-steering']) {
      await openFinding(page, experimentId);
      const tables = await overflows(page);
      expect(tables.length, experimentId).toBeGreaterThan(0);
      for (const table of tables) {
        expect(table.rows, experimentId).toBeGreaterThan(0);
        expect(table, experimentId).toMatchObject({ scrolls: false, spilled: [] });
      }
    }
  });
}
