import path from 'node:path';
import { expect, test } from '@playwright/test';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { serveApp, type ServedApp } from './host';

let app: ServedApp;
test.beforeEach(async () => {
  app = await serveApp();
});
test.afterEach(async () => {
  await app.stop();
});

test('events arrive over the fetch stream, with the token in a header and not the address', async ({
  page,
}) => {
  const streams: { url: string; authorization: string | undefined }[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/events')
      streams.push({ url: request.url(), authorization: request.headers()['authorization'] });
  });
  await page.goto(app.url);
  await expect(page.getByRole('heading', { name: 'No runs yet' })).toBeVisible();
  await expect.poll(() => streams.length).toBeGreaterThan(0);
  expect(streams[0]!.url).not.toContain('token');
  expect(streams[0]!.authorization).toMatch(/^Bearer \S+/);

  const root = path.join(app.dataDir, 'stream-runs');
  for (const [id, role] of [
    ['run-a', 'reference'],
    ['run-b', 'intervention'],
  ] as const)
    writeMechlensRun(root, {
      id,
      name: id,
      experiment: { id: 'exp-stream', role },
      examples: examples(3),
    });
  await page.getByLabel('Folder path').fill(root);
  await page.getByRole('button', { name: 'Add folder' }).click();

  // Each of these reaches the page only as an event: job:finished, then index:changed.
  await expect(page.locator('.toasts')).toContainText('Indexing stream-runs: done', {
    timeout: 30_000,
  });
  await expect(page.locator('.status-bar')).toContainText('2 runs · 6 examples');
  await expect(page.getByText('exp-stream', { exact: true })).toBeVisible();
});
