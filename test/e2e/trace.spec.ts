import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { evalSample, writeEvalLog } from '../fixtures/inspect';
import { serveApp, type ServedApp } from './host';

let app: ServedApp;
test.beforeEach(async () => {
  app = await serveApp();
});
test.afterEach(async () => {
  await app.stop();
});

function samples(model: string) {
  return [1, 2].map((i) =>
    evalSample({
      id: `syc-003${i}`,
      input: 'Who crowned Napoleon?',
      output: `${model}: he crowned <b>himself</b>.`,
      messages: [
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 't1', function: 'search', arguments: { q: 'coronation 1804' } }],
        },
        { role: 'tool', function: 'search', content: 'Notre-Dame de Paris, 2 December 1804' },
      ],
      events: [
        { event: 'model', model, output: { completion: `${model}: he crowned himself.` } },
        { event: 'score', score: { value: 'C', explanation: 'matches the target' } },
      ],
    }),
  );
}

test('the example detail shows each side’s transcript beside the diff, as text', async ({
  page,
}) => {
  const dir = path.join(app.dataDir, 'logs');
  fs.mkdirSync(dir, { recursive: true });
  writeEvalLog(path.join(dir, '2025-05-13T00-28-13_popularity_a.eval'), 'finished', {
    model: 'openai/gpt-4o-mini',
    evalId: 'evalAAAAAAAAAAAAAAAAAA',
    samples: samples('openai/gpt-4o-mini'),
  });
  writeEvalLog(path.join(dir, '2025-05-13T00-30-13_popularity_b.eval'), 'finished', {
    model: 'openai/gpt-4o',
    evalId: 'evalBBBBBBBBBBBBBBBBBB',
    samples: samples('openai/gpt-4o'),
  });
  await page.goto(app.url);
  await page.getByLabel('Folder path').fill(dir);
  await page.getByRole('button', { name: 'Add folder' }).click();
  await page.getByRole('button', { name: 'Compare', exact: true }).click({ timeout: 30_000 });
  await expect(page.getByRole('heading', { name: /vs/ }).first()).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Examples', exact: true }).click();
  const trace = page.getByTestId('example-detail').getByTestId('trace-view');
  await expect(trace).toBeVisible({ timeout: 30_000 });
  await expect(trace.locator('.trace-side')).toHaveCount(2);
  await expect(trace).toContainText('Who crowned Napoleon?');
  await expect(trace).toContainText('→ search({"q":"coronation 1804"})');
  await expect(trace).toContainText('tool · search');
  await expect(trace).toContainText('Notre-Dame de Paris, 2 December 1804');
  await expect(trace).toContainText('<b>himself</b>');
  expect(await trace.locator('b').count()).toBe(0);
  await trace.locator('summary', { hasText: 'Events' }).first().click();
  await expect(trace).toContainText('matches the target');
});
