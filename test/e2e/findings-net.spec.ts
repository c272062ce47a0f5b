import path from 'node:path';
import { expect, test } from '@playwright/test';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { demoWithSyncServer, openComparison, SYNC_KEY } from './demo-with-sync';

const hosts = demoWithSyncServer();

test('pin asks which finding; a revision shows what changed, not raw Markdown', async ({
  page,
}) => {
  await openComparison(page, hosts.app.url);
  await page.getByRole('button', { name: 'Examples', exact: true }).click();
  const detail = page.getByTestId('example-detail');
  await expect(detail).toBeVisible();

  await detail.getByRole('button', { name: 'Pin to finding…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('radio')).toHaveCount(1);
  await expect(dialog.getByLabel('A new finding, drafted from this comparison')).toBeChecked();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Findings', exact: true }).click();
  await expect(
    page.getByRole('button', { name: 'Draft a finding for this experiment' }),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Examples', exact: true }).click();
  await detail.getByRole('button', { name: 'Pin to finding…' }).click();
  await dialog.getByLabel('Note (optional)').fill('the clearest case');
  await dialog.getByRole('button', { name: 'Pin', exact: true }).click();
  await expect(page.getByText(/Pinned .* to/)).toBeVisible();

  await page.keyboard.press('j');
  await detail.getByRole('button', { name: 'Pin to finding…' }).click();
  await expect(dialog.getByRole('radio')).toHaveCount(2);
  await expect(dialog.getByRole('radio').first()).toBeChecked();
  await dialog.getByLabel('A new finding, drafted from this comparison').check();
  await dialog.getByRole('button', { name: 'Pin', exact: true }).click();
  await expect(page.getByText(/Pinned .* to/).last()).toBeVisible();

  await page.getByRole('button', { name: 'Findings', exact: true }).click();
  await expect(page.getByLabel('Finding', { exact: true }).locator('option')).toHaveCount(2);
  await page.getByLabel('Conclusion').fill('Refusals fell on this set.');
  await expect(page.getByTestId('save-state')).toContainText('All changes saved');
  await page.getByLabel('Conclusion').fill('Refusals fell sharply on this set.');
  await expect(page.getByTestId('save-state')).toContainText('All changes saved');
  const latest = page.locator('.revision-list li').first();
  await latest.getByRole('button', { name: 'Changes' }).click();
  const diff = page.getByTestId('revision-diff');
  await expect(diff).toBeInViewport();
  await expect(diff.locator('ins')).toHaveText(['sharply ']);
  await expect(diff).not.toContainText('#');
});

test('What would be sent? answers in view, and Sync now sends only the chosen experiments', async ({
  page,
}) => {
  const other = path.join(hosts.app.dataDir, 'other');
  writeMechlensRun(other, {
    id: 'run-other-experiment',
    name: 'baseline',
    experiment: { id: 'exp-unrelated', role: 'reference' },
    examples: examples(3),
  });
  await page.goto(hosts.app.url);
  await page.getByLabel('Folder path').fill(other);
  await page.getByRole('button', { name: 'Add folder' }).click();
  await expect(page.getByText('exp-unrelated').first()).toBeVisible({ timeout: 30_000 });

  await page.getByRole('button', { name: 'Sync', exact: true }).click();
  await page.getByLabel(/Server address/).fill(hosts.server.url);
  await page.getByLabel(/API key/).fill(SYNC_KEY);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.getByLabel('Send exp-unrelated').uncheck();

  await page.getByRole('button', { name: 'What would be sent?' }).click();
  const dialog = page.getByRole('dialog', { name: 'What would be sent' });
  await expect(dialog).toBeInViewport();
  await expect(dialog).toContainText('exp-demo-refusal-steering');
  await expect(dialog).not.toContainText('run-other-experiment');
  await dialog.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.locator('.sync table')).toContainText('synced', { timeout: 30_000 });
  await expect.poll(() => hosts.server.stored.size, { timeout: 30_000 }).toBeGreaterThan(0);
  await expect(page.locator('.sync table')).not.toContainText('run-other-experiment');
  expect(JSON.stringify([...hosts.server.stored.values()])).not.toContain('run-other-experiment');
});
