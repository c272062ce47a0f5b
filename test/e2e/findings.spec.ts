import fs from 'node:fs';
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { demoWithSyncServer, openComparison, SYNC_KEY } from './demo-with-sync';

const hosts = demoWithSyncServer();

test('draft a finding from the evidence, autosave, restore a revision, pin an example, export, sync', async ({
  page,
}) => {
  await openComparison(page, hosts.app.url);

  await page.getByRole('button', { name: 'Examples', exact: true }).click();
  await expect(page.getByTestId('example-detail')).toBeVisible();
  await page.getByRole('button', { name: 'Pin to finding' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Pin', exact: true }).click();
  await expect(page.getByText(/Pinned .* to/)).toBeVisible();

  await page.getByRole('button', { name: 'Findings', exact: true }).click();
  await expect(page.getByLabel('Conclusion')).toHaveValue('');
  await expect(
    page.locator('label.field', { hasText: 'Question' }).locator('textarea'),
  ).toHaveValue(/steering SAE feature 4521/);
  await expect(
    page.locator('label.field', { hasText: 'Protocol' }).locator('textarea'),
  ).toHaveValue(/google\/gemma-2-2b-it/);
  await expect(
    page.getByText('Declared deviation: Refusals scored by substring matching, not human review.'),
  ).toBeVisible();
  await expect(page.locator('.pin')).toHaveCount(1);

  await page.getByLabel('Conclusion').fill('First thought.');
  await expect(page.getByTestId('save-state')).toContainText('All changes saved · revision 3');
  await page.getByLabel('Conclusion').fill('Second thought, after looking again.');
  await expect(page.getByTestId('save-state')).toContainText('All changes saved · revision 4');

  await page
    .locator('.revision-list li', { hasText: '#3' })
    .getByRole('button', { name: 'Restore' })
    .click();
  await expect(page.getByLabel('Conclusion')).toHaveValue('First thought.');
  await expect(page.getByTestId('save-state')).toContainText('revision 5');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export HTML' }).click();
  const html = fs.readFileSync((await (await download).path())!, 'utf8');
  expect(html).toContain('First thought.');
  expect(html).not.toMatch(/<script|src="https?:|href="https?:/i);

  await page.getByRole('button', { name: 'Sync', exact: true }).click();
  await expect(page.getByText('off — working offline')).toBeVisible();
  await page.getByLabel(/Server address/).fill(hosts.server.url);
  await page.getByLabel(/API key/).fill(SYNC_KEY);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.locator('.sync table')).toContainText('synced', { timeout: 30_000 });
  await expect.poll(() => hosts.server.stored.size, { timeout: 30_000 }).toBeGreaterThanOrEqual(7);
  const keys = [...hosts.server.stored.keys()];
  expect(new Set(keys).size).toBe(keys.length);
  expect(fs.readFileSync(`${hosts.app.dataDir}/pairwise.db`).includes(SYNC_KEY)).toBe(false);
});

test('a save that meets a library busy with a long write is retried on its own, without another keystroke', async ({
  page,
}) => {
  // The service waits out its 10 s busy timeout before the save fails and is retried.
  test.setTimeout(120_000);
  await openComparison(page, hosts.app.url);
  await page.getByRole('button', { name: 'Findings', exact: true }).click();
  await page.getByRole('button', { name: 'Draft a finding for this experiment' }).click();
  await page.getByLabel('Conclusion').fill('Written before the lock.');
  await expect(page.getByTestId('save-state')).toContainText('All changes saved');

  // What a large file being indexed does to the library: another connection holds the write
  // lock for longer than the service's busy timeout.
  const holder = new Database(`${hosts.app.dataDir}/pairwise.db`);
  holder.exec('BEGIN IMMEDIATE');
  try {
    await page.getByLabel('Conclusion').fill('Written while the library was busy.');
    await expect(page.getByText(/busy with another write/)).toBeVisible({ timeout: 30_000 });
  } finally {
    holder.exec('ROLLBACK');
    holder.close();
  }
  await expect(page.getByTestId('save-state')).toContainText('All changes saved', {
    timeout: 30_000,
  });
  await page.goto(hosts.app.url);
  await page.getByRole('button', { name: 'Findings', exact: true }).click();
  await expect(page.getByLabel('Conclusion')).toHaveValue('Written while the library was busy.');
});

test('a failed export says why in a message instead of failing silently', async ({ page }) => {
  await openComparison(page, hosts.app.url);
  await page.getByRole('button', { name: 'Findings', exact: true }).click();
  await page.getByRole('button', { name: 'Draft a finding for this experiment' }).click();
  await expect(page.getByTestId('save-state')).toContainText('All changes saved');
  const failures: string[] = [];
  page.on('pageerror', (error) => failures.push(error.message));
  await page.route('**/api/request', async (route) => {
    const body = route.request().postDataJSON() as { name: string };
    if (body.name !== 'findings:export') return route.fallback();
    await route.fulfill({
      json: { ok: false, error: { code: 'internal', message: 'The disk is full.' } },
    });
  });
  await page.getByRole('button', { name: 'Export HTML' }).click();
  await expect(page.getByText('The disk is full.')).toBeVisible();
  expect(failures).toEqual([]);
});
