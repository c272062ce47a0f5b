import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { writeSameModelLog } from '../fixtures/same-model-logs';
import { serveApp, type ServedApp } from './host';

let app: ServedApp;
let logs: string;
test.beforeEach(async () => {
  app = await serveApp();
  logs = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwise-logs-'));
  writeSameModelLog(logs, 'a.json', {
    evalId: 'evalA',
    taskId: 'task1',
    commit: 'aaaaaaa',
    startedAt: '2025-01-01T10:00:00Z',
  });
  writeSameModelLog(logs, 'b.json', {
    evalId: 'evalB',
    taskId: 'task2',
    commit: 'bbbbbbb',
    startedAt: '2025-01-01T11:00:00Z',
    changed: ['s2'],
  });
});
test.afterEach(async () => {
  await app.stop();
  fs.rmSync(logs, { recursive: true, force: true });
});

test('two logs of one model: the guessed reference is said, and any two runs compare', async ({
  page,
}) => {
  await page.goto(app.url);
  await page.getByLabel('Folder path').fill(logs);
  await page.getByRole('button', { name: 'Add folder' }).click();
  const card = page.locator('.experiment-card').filter({ hasText: 'popularity' });
  await expect(card).toContainText('2 conditions', { timeout: 30_000 });
  await expect(card.getByText('reference guessed')).toBeVisible();
  // The guessed reference is the one the library's role column shows, not "unknown".
  await expect(card.locator('tr', { hasText: 'revision=aaaaaaa' }).locator('.role')).toHaveText(
    'reference',
  );

  await card.getByRole('button', { name: 'Compare', exact: true }).click();
  await expect(page.getByRole('note')).toContainText(
    'Reference guessed: the earliest run — openai/gpt-4o-mini temperature=0.5 revision=aaaaaaa',
    { timeout: 60_000 },
  );
  await expect(page.locator('.limitations')).toContainText('was guessed as the earliest run');

  await page.getByRole('button', { name: 'Library', exact: true }).click();
  await page.getByRole('button', { name: 'Compare two runs' }).click();
  const picker = page.getByLabel('Compare two runs');
  const option = async (label: string, id: string) => {
    const select = picker.getByLabel(label);
    const text = (await select.locator('option').allTextContents()).find((t) => t.includes(id))!;
    await select.selectOption({ label: text });
  };
  await option('Baseline', 'evalB');
  await option('Candidate', 'evalA');
  await picker.getByRole('button', { name: 'Compare', exact: true }).click();
  await expect(
    page.getByRole('heading', { name: /revision=aaaaaaa\s*vs\s*revision=bbbbbbb/ }),
  ).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('note')).toContainText(
    'Two runs picked in the library: revision=bbbbbbb is the baseline',
  );
  await page.getByRole('button', { name: '1 output changed: show examples' }).click();
  await expect(page.getByTestId('row-count')).toHaveText('1 example');
});
