/**
 * Renderer long tasks in the explorer at scale: the renderer is built into a temp dir (never
 * into the shared out/), served by the browser host over the benchmark's DB, and driven in
 * Debian's Chromium through playwright-core while a PerformanceObserver collects every long
 * task (> 50 ms on the renderer's main thread).
 */

import fs from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { chromium, type CDPSession, type Page } from 'playwright-core';
import { build } from 'vite';
import { startServer } from '../../electron/server/http';
import { PairwiseService } from '../../electron/core/service';
import { generateLibrary, searchTerms, type LibrarySpec } from './generate';
import { openUninspected } from './open-uninspected';
import { reportProgress } from './progress';

export interface RendererArgs {
  dbPath: string;
  /** A temp folder for the renderer build. */
  buildDir: string;
  /**
   * Where to write a Chromium trace of the first step (opening the app), for DevTools'
   * Performance panel: which task ran what, and each task's CPU time beside its wall time.
   */
  traceFile?: string;
  /** The same for the long scroll of the explorer: which rows' render, style, layout or paint. */
  scrollTraceFile?: string;
  /** The same for the last step: adding a folder while the library shows live progress. */
  indexTraceFile?: string;
  /** The same for the open in a page no DevTools session is attached to (open-uninspected.ts). */
  uninspectedTraceFile?: string;
}

export interface Interaction {
  label: string;
  /** From the action until it and the last API request it caused have ended. */
  seconds: number;
  longTasks: number;
  longestMs: number;
  totalMs: number;
}

export interface RendererResult {
  interactions: Interaction[];
  error: string | null;
}

const ROOT = path.resolve(__dirname, '../..');
/** Deep enough that the explorer holds 50 pages: the cost of a long scroll, not of one page. */
const SCROLL_ROWS = 10_000;
const n = (x: number) => x.toLocaleString('en-US');
const CHROMIUM = '/usr/bin/chromium';
/**
 * Added through the UI at the end of the session, so that indexing runs while the app shows its
 * live progress: large enough for many progress events and library refreshes, small enough to
 * take seconds.
 */
const INDEXED_LATER: LibrarySpec = {
  name: 'renderer-index',
  experiments: 2,
  runsPerExperiment: 2,
  examples: 5_000,
  inputChars: 200,
  outputChars: 600,
};

const OBSERVER = `
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
`;

/** Blink's tasks and phases, with each task's thread time, and V8's samples to name the code. */
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-v8.cpu_profiler',
  'v8.execute',
  'toplevel',
].join(',');

async function startTrace(page: Page): Promise<{ cdp: CDPSession; events: unknown[] }> {
  const cdp = await page.context().newCDPSession(page);
  const events: unknown[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  await cdp.send('Tracing.start', { categories: TRACE_CATEGORIES, transferMode: 'ReportEvents' });
  // Starting V8's profiler is itself a long task (~80 ms of CPU), run the next time the page
  // enters JavaScript: make that happen now, and let the task's entry reach the observer before
  // the step clears the list.
  await page.evaluate(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { cdp, events };
}

async function endTrace(trace: { cdp: CDPSession; events: unknown[] }, file: string) {
  const complete = new Promise((resolve) => trace.cdp.once('Tracing.tracingComplete', resolve));
  await trace.cdp.send('Tracing.end');
  await complete;
  fs.writeFileSync(file, JSON.stringify({ traceEvents: trace.events }));
  await trace.cdp.detach();
}

export async function buildRenderer(outDir: string): Promise<void> {
  await build({
    configFile: false,
    root: path.join(ROOT, 'renderer'),
    base: './',
    logLevel: 'error',
    plugins: [react()],
    // As electron-vite does: Chromium needs no modulepreload polyfill.
    build: { outDir, emptyOutDir: true, modulePreload: { polyfill: false } },
  });
}

/**
 * Waits until the page has had no API request in flight for 300 ms (the event stream aside), then
 * a frame; answers when the last request before that quiet window ended.
 */
function settler(page: Page): () => Promise<number> {
  let pending = 0;
  let lastChange = performance.now();
  const isApi = (url: string) => url.includes('/api/') && !url.includes('/api/events');
  page.on('request', (r) => {
    if (isApi(r.url())) {
      pending++;
      lastChange = performance.now();
    }
  });
  const done = (r: { url(): string }) => {
    if (isApi(r.url())) {
      pending--;
      lastChange = performance.now();
    }
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return async () => {
    const deadline = performance.now() + 180_000;
    // A click's request starts a moment after the click: give it a beat to appear.
    await new Promise((resolve) => setTimeout(resolve, 100));
    while (performance.now() < deadline) {
      if (pending === 0 && performance.now() - lastChange > 300) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const quietSince = lastChange;
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))),
    );
    return quietSince;
  };
}

async function measure(
  page: Page,
  settle: () => Promise<number>,
  label: string,
  action: () => Promise<void>,
): Promise<Interaction> {
  // Before the first navigation the page is about:blank, without the observer.
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks?: number[] };
    if (w.__longTasks) w.__longTasks.length = 0;
  });
  const start = performance.now();
  await action();
  const acted = performance.now();
  const quietSince = await settle();
  // The quiet window is waiting, not work: the interaction ends with the action or its last
  // request, whichever is later.
  const seconds = (Math.max(acted, quietSince) - start) / 1000;
  const tasks = await page.evaluate(
    () => (window as unknown as { __longTasks?: number[] }).__longTasks?.slice() ?? [],
  );
  return {
    label,
    seconds,
    longTasks: tasks.length,
    longestMs: Math.max(0, ...tasks),
    totalMs: tasks.reduce((a, b) => a + b, 0),
  };
}

/**
 * A researcher's session. The criterion is chosen before the change class, and the class is
 * cleared before the criterion, so no step asks for "any criterion" with a class: that query
 * is quadratic on the server (see the explorer section) and would stall the session.
 */
async function session(
  page: Page,
  url: string,
  indexDir: string,
  out: Interaction[],
  traces: Pick<RendererArgs, 'traceFile' | 'scrollTraceFile' | 'indexTraceFile'>,
): Promise<void> {
  const { traceFile, scrollTraceFile, indexTraceFile } = traces;
  const settle = settler(page);
  const step = async (label: string, action: () => Promise<void>) => {
    reportProgress({ phase: `step ${out.length + 1}: ${label}`, done: 0, total: null });
    out.push(await measure(page, settle, label, action));
  };
  const select = (name: string, value: string) => () =>
    page
      .getByLabel(name, { exact: true })
      .selectOption(value)
      .then(() => undefined);
  const trace = traceFile ? await startTrace(page) : null;
  await step('open the app', async () => {
    await page.goto(url);
    await page
      .getByRole('button', { name: 'Compare', exact: true })
      .first()
      .click({ timeout: 120_000 });
  });
  if (trace && traceFile) await endTrace(trace, traceFile);
  await step('open the Examples view (first page of all pairs)', async () => {
    await page.getByRole('button', { name: 'Examples', exact: true }).click();
    await page
      .getByTestId('row-count')
      .filter({ hasText: /examples$/ })
      .waitFor({ timeout: 180_000 });
  });
  await step('filter: criterion score', select('Criterion', 'score'));
  await step('filter: change class regressed', select('Change class', 'regressed'));
  await step('filter: output changed yes', select('Output changed', 'yes'));
  await step('clear: change class', select('Change class', ''));
  await step('clear: criterion and output changed', async () => {
    await select('Criterion', '')();
    await select('Output changed', '')();
  });
  await step(`search "${searchTerms[1]}"`, async () => {
    await page.getByLabel('Search inputs and outputs').fill(searchTerms[1]!);
    // The box waits 250 ms after the last key before it searches.
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
  await step('clear the search', async () => {
    await page.getByLabel('Search inputs and outputs').fill('');
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
  // The header's sort button may be scrolled out of view sideways: the click is dispatched to
  // it, as a user's click after scrolling the grid would be.
  const header = () => page.getByRole('button', { name: /^Output changed/ }).dispatchEvent('click');
  await step('sort by output changed', header);
  await step('sort by output changed, descending', header);
  const scrollTrace = scrollTraceFile ? await startTrace(page) : null;
  await step(
    `scroll until ${n(SCROLL_ROWS)} rows are loaded (${SCROLL_ROWS / 200} pages)`,
    async () => {
      const body = page.locator('.vbody');
      await body.hover();
      const deadline = performance.now() + 180_000;
      // Rows are 30 px, so the scroll height says how many rows the view holds so far.
      while (performance.now() < deadline) {
        const height = await body.evaluate((el) => el.scrollHeight);
        if (height >= SCROLL_ROWS * 30) break;
        await page.mouse.wheel(0, 6000);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  );
  if (scrollTrace && scrollTraceFile) await endTrace(scrollTrace, scrollTraceFile);
  await step('select a row, then the next one (j)', async () => {
    await page.locator('.vbody [role="row"]:not(.vhead)').first().click();
    await page.keyboard.press('j');
    await page.getByTestId('example-detail').waitFor({ timeout: 60_000 });
  });
  await step('open the Library view', async () => {
    await page.getByRole('button', { name: 'Library', exact: true }).click();
    await page.getByLabel('Folder path').waitFor({ timeout: 60_000 });
  });
  const runs = INDEXED_LATER.experiments * INDEXED_LATER.runsPerExperiment;
  // At 1M a job the session started (archiving texts, ~90 s) may still hold the status bar,
  // whose summary the step reads: wait for it outside the step, which measures the indexing.
  await page
    .getByRole('status')
    .filter({ hasText: / runs · / })
    .waitFor({ timeout: 300_000 });
  const indexTrace = indexTraceFile ? await startTrace(page) : null;
  await step(
    `add a folder and index it with live progress (${runs} runs × ${n(INDEXED_LATER.examples)})`,
    async () => {
      const status = page.getByRole('status').filter({ hasText: / runs · / });
      const before = Number((await status.textContent())!.split(' runs')[0]!.replace(/,/g, ''));
      await page.getByLabel('Folder path').fill(indexDir);
      await page.getByRole('button', { name: 'Add folder' }).click();
      // Done when the status bar is back to the summary and counts the new runs.
      await page
        .getByRole('status')
        .filter({ hasText: `${n(before + runs)} runs · ` })
        .waitFor({ timeout: 180_000 });
    },
  );
  if (indexTrace && indexTraceFile) await endTrace(indexTrace, indexTraceFile);
}

export async function rendererPhase(args: RendererArgs): Promise<RendererResult> {
  if (!fs.existsSync(CHROMIUM)) return { interactions: [], error: `no Chromium at ${CHROMIUM}` };
  try {
    reportProgress({ phase: 'building the renderer', done: 0, total: null });
    await buildRenderer(args.buildDir);
  } catch (error) {
    return {
      interactions: [],
      error: `the renderer does not build: ${String(error).slice(0, 300)}`,
    };
  }
  reportProgress({ phase: 'generating the library to add', done: 0, total: null });
  const indexRoot = path.join(path.dirname(args.buildDir), 'renderer-index-lib');
  const indexed = generateLibrary(INDEXED_LATER, indexRoot, () => undefined);
  const service = new PairwiseService({ dbPath: args.dbPath, host: 'browser', version: 'bench' });
  const server = await startServer({ service, rendererDir: args.buildDir, port: 0 });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
  // Filled step by step, so a session that breaks half-way still reports what it measured.
  const interactions: Interaction[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.addInitScript(OBSERVER);
    await session(page, server.url, indexed.dir, interactions, args);
    await page.close();
    // Last, so that the jobs this open may start do not run under the session's steps.
    reportProgress({ phase: 'open the app uninspected', done: 0, total: null });
    interactions.push(await openUninspected(browser, server.url, args.uninspectedTraceFile));
    return { interactions, error: null };
  } catch (error) {
    return { interactions, error: `the session stopped: ${String(error).split('\n')[0]}` };
  } finally {
    await browser.close();
    await server.close();
    await service.close();
    fs.rmSync(indexRoot, { recursive: true, force: true });
  }
}
