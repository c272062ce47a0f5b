import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { serveApp, type ServedApp } from './host';
import { callApi, jobsIdle } from './stable';

let app: ServedApp | null = null;
let runs: string;
test.beforeEach(() => {
  runs = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwise-watched-'));
  writeMechlensRun(runs, { id: 'day-1', name: 'daytime', examples: examples(4) });
});
test.afterEach(async () => {
  await app?.stop();
  fs.rmSync(runs, { recursive: true, force: true });
});

test('a run written into a watched folder while Pairwise was closed is in the library at the next launch', async ({
  page,
}) => {
  const first = await serveApp();
  await callApi(first.url, 'library:addFolder', { path: runs, watch: true });
  await jobsIdle(first.url);
  await first.keep();

  writeMechlensRun(runs, { id: 'night-1', name: 'overnight', examples: examples(4) });
  app = await serveApp([], { dataDir: first.dataDir });
  await page.goto(app.url);
  await expect(page.getByText('overnight').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('daytime').first()).toBeVisible();
});
