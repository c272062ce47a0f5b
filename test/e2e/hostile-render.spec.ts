import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { writeFile, writeMechlensRun } from '../fixtures/formats';
import { serveApp, type ServedApp } from './host';

/**
 * Issue 7: data is text everywhere. A library whose every string (condition names, example
 * ids, inputs, outputs, field names and values, the experiment's question and claim, metric
 * names, a file name in the problems list) is markup or a javascript: link is shown in every
 * view, and in the HTML export; nothing from it may run or become an element.
 */

const IMG = '<img src=x onerror=window.__pwned=1>';
const SCRIPT = '<script>window.__pwned=2</script>';
const LINK = '<a href="javascript:window.__pwned=3">click</a>';
const JS_URL = 'javascript:window.__pwned=4';

const REF = `ref ${IMG}`;
const CAND = `cand ${SCRIPT}`;
const METRIC = `rate ${IMG}`;
const FIELD = `refused ${SCRIPT}`;
const QUESTION = `Q ${LINK}`;
const CLAIM = `C ${SCRIPT}`;
const exampleId = (i: number) => `ex-${i} ${i % 2 ? SCRIPT : IMG}`;

let app: ServedApp;
const dialogs: string[] = [];
test.beforeEach(async ({ page }) => {
  app = await serveApp();
  dialogs.length = 0;
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
});
test.afterEach(async () => {
  await app.stop();
});

function library(dir: string): void {
  const record = (id: string, name: string, role: string, candidate: boolean) =>
    writeMechlensRun(dir, {
      id,
      name,
      project: `project ${IMG}`,
      experiment: { id: 'exp-hostile', role },
      examples: Array.from({ length: 4 }, (_, i) => ({
        id: exampleId(i),
        input: `${JS_URL} ${LINK} ${IMG}`,
        output: candidate ? `${SCRIPT} said ${IMG} ${i}` : `${LINK} said ${i}`,
        fields: { [FIELD]: candidate ? i % 2 === 0 : i % 3 === 0, note: `${IMG} ${JS_URL}` },
      })),
      extra: {
        question: QUESTION,
        experiment: {
          id: 'exp-hostile',
          role,
          declaration: { question: QUESTION, claim: CLAIM, deviations: [`D ${IMG}`] },
        },
        // A setting that differs, so the checks table shows both hostile values.
        generation: { max_new_tokens: 64, temperature: 0, system_prompt: candidate ? IMG : LINK },
        metrics: { [METRIC]: candidate ? 0.5 : 0.25 },
        metric_definitions: {
          [METRIC]: {
            description: `${SCRIPT}`,
            example_field: FIELD,
            direction: 'lower_is_better',
          },
        },
      },
    });
  record('run-ref', REF, 'reference', false);
  record('run-cand', CAND, 'intervention', true);
  // A broken file whose name and message are markup: the problems view shows both.
  writeFile(dir, `.mechlens/runs/${IMG.replace(/\//g, '_')}.json`, '{"examples": [');
}

/** Nothing ran, no alert opened, and no element the app does not make itself exists. */
async function expectInert(page: Page, where: string): Promise<void> {
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned), where).toBe(
    undefined,
  );
  expect(dialogs, where).toEqual([]);
  const foreign = await page.evaluate(() => ({
    // The sidebar's brand icon is the app's only image.
    img: document.querySelectorAll('img:not([src="./icon.svg"])').length,
    inlineScript: document.querySelectorAll('script:not([src])').length,
    foreignScript: [...document.querySelectorAll('script[src]')].filter(
      (s) => !new URL((s as HTMLScriptElement).src).pathname.startsWith('/assets/'),
    ).length,
    links: document.querySelectorAll('a[href], [href^="javascript"], iframe, object, embed').length,
    handlers: [...document.querySelectorAll('*')].filter((e) =>
      [...e.attributes].some((a) => a.name.startsWith('on')),
    ).length,
  }));
  expect(foreign, where).toEqual({
    img: 0,
    inlineScript: 0,
    foreignScript: 0,
    links: 0,
    handlers: 0,
  });
}

test('hostile strings are text in every view and in the HTML export', async ({ page, context }) => {
  const dir = path.join(app.dataDir, 'hostile');
  library(dir);
  await page.goto(app.url);

  // Library
  await page.getByLabel('Folder path').fill(dir);
  await page.getByRole('button', { name: 'Add folder' }).click();
  await expect(page.getByText(CAND).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(REF).first()).toBeVisible();
  await expectInert(page, 'library');

  // Problems: a hostile file name
  await page.getByRole('button', { name: /^Problems/ }).click();
  await expect(page.locator('.problem-list')).toContainText(`${IMG.replace(/\//g, '_')}.json`);
  await expectInert(page, 'problems');

  // Conditions
  await page.getByRole('button', { name: 'Library', exact: true }).click();
  await page.getByRole('button', { name: 'Compare', exact: true }).click({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Conditions', exact: true }).click();
  await expect(page.locator('.condition-card').filter({ hasText: CAND })).toBeVisible();
  await expect(page.locator('.condition-card').filter({ hasText: REF })).toBeVisible();
  await expectInert(page, 'conditions');

  // Comparison: metrics, checks table, forest plot
  await page.getByRole('button', { name: 'Comparison', exact: true }).click();
  const heading = page.getByRole('heading', { name: `${CAND} vs ${REF}` });
  await expect(heading).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('table.metrics')).toContainText(METRIC);
  await expect(
    page.getByRole('img', { name: 'Forest plot of paired differences with 95% intervals' }),
  ).toContainText(CAND);
  const checks = page.locator('table.checks');
  await expect(checks).toContainText('system_prompt');
  await expect(checks).toContainText(IMG);
  await expect(checks).toContainText(LINK);
  await expectInert(page, 'comparison');

  // Examples: table, detail, word diff
  await page.getByRole('button', { name: 'Examples', exact: true }).click();
  await expect(page.getByTestId('row-count')).toHaveText('4 examples', { timeout: 30_000 });
  const rows = page.locator('.vrow:not(.vhead)');
  await expect(rows).toHaveCount(4);
  await expect(rows.first()).toContainText(exampleId(0));
  await expect(page.locator('.vrow.vhead')).toContainText(FIELD);
  await rows.first().click();
  const detail = page.getByTestId('example-detail');
  await expect(detail).toBeVisible({ timeout: 30_000 });
  await expect(detail.locator('h3')).toHaveText(exampleId(0));
  await expect(detail).toContainText(`${JS_URL} ${LINK} ${IMG}`);
  await expect(page.getByTestId('diff-right')).toContainText(SCRIPT);
  await expect(page.getByTestId('diff-left')).toContainText(LINK);
  await expect(detail).toContainText(FIELD);
  await expectInert(page, 'examples');

  // Findings: pin the hostile example, open the editor
  await detail.getByRole('button', { name: 'Pin to finding' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Pin', exact: true }).click();
  await expect(page.getByText(/Pinned .* to/)).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Findings', exact: true }).click();
  await expect(page.locator('.pin')).toHaveCount(1, { timeout: 30_000 });
  await expect(page.locator('.pin')).toContainText(exampleId(0));
  await expect(
    page.locator('label.field', { hasText: 'Question' }).locator('textarea'),
  ).toHaveValue(new RegExp(LINK.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  await expect(page.locator('.findings')).toContainText(METRIC);
  await expectInert(page, 'findings');

  // The HTML export, opened as a page of its own
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export HTML' }).click();
  const html = fs.readFileSync((await (await download).path())!, 'utf8');
  expect(html).not.toContain(SCRIPT);
  expect(html).not.toContain(IMG);
  const exported = await context.newPage();
  exported.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await exported.setContent(html);
  await expect(exported.locator('body')).toContainText(CLAIM);
  await expect(exported.locator('body')).toContainText(CAND);
  await expect(exported.locator('body')).toContainText(exampleId(0));
  await expect(exported.locator('body')).toContainText(METRIC);
  expect(await exported.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(
    await exported.evaluate(() => ({
      img: document.querySelectorAll('img').length,
      script: document.querySelectorAll('script').length,
      links: document.querySelectorAll('a[href^="javascript"], iframe, object, embed').length,
    })),
  ).toEqual({ img: 0, script: 0, links: 0 });
  expect(dialogs).toEqual([]);
  await expectInert(page, 'after export');
});
