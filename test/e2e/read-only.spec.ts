import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { serveApp, type ServedApp } from './host';
import { callApi, jobsIdle } from './stable';

const READ_ONLY_TITLE = 'read-only: ask an editor';
const DEMO = 'exp-demo-refusal-steering';

const token = () => `pw_${randomBytes(32).toString('base64url')}`;
const line = (user: string, role: string, secret: string) =>
  `${user} ${role} sha256:${createHash('sha256').update(secret).digest('hex')}`;

let app: ServedApp;
let tokens: string;
const editor = token();
const reviewer = token();

/** A lab server on the sample library, with one comparison and one finding an editor made. */
test.beforeEach(async () => {
  tokens = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pairwise-tokens-')), 'tokens');
  fs.writeFileSync(
    tokens,
    `${line('alice', 'editor', editor)}\n${line('bob', 'reviewer', reviewer)}\n`,
    {
      mode: 0o600,
    },
  );
  app = await serveApp(['--demo', '--auth', tokens]);
  const asEditor = `${app.url}?token=${editor}`;
  await jobsIdle(asEditor);
  await callApi(asEditor, 'compare:start', { experimentId: DEMO });
  await jobsIdle(asEditor);
  await callApi(asEditor, 'findings:create', { experimentId: DEMO });
});
test.afterEach(async () => {
  await app.stop();
  fs.rmSync(path.dirname(tokens), { recursive: true, force: true });
});

test('a reviewer is told once that the session is read-only, and may browse but not change', async ({
  page,
}) => {
  await page.goto(`${app.url}?token=${reviewer}`);
  const notice = page.getByRole('note', { name: 'Read-only session' });
  await expect(notice).toContainText('Read-only');
  await expect(notice).toContainText('need an editor');

  await expect(page.getByLabel('Folder path')).toBeDisabled();
  await expect(page.getByLabel('Folder path')).toHaveAttribute('title', READ_ONLY_TITLE);
  await expect(page.getByRole('button', { name: 'Add folder' })).toBeDisabled();

  await page.getByRole('button', { name: 'Compare', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: /vs/ }).first()).toBeVisible({ timeout: 30_000 });
  await expect(notice).toBeVisible();

  await page.getByRole('button', { name: 'Conditions', exact: true }).click();
  const role = page.getByLabel('Role of steer-4521', { exact: true });
  await expect(role).toBeDisabled();
  await expect(role).toHaveAttribute('title', READ_ONLY_TITLE);
  await expect(page.getByText('Read-only: ask an editor to change them.')).toBeVisible();

  await page.getByRole('button', { name: 'Examples', exact: true }).click();
  await expect(page.getByTestId('row-count')).toContainText('examples', { timeout: 30_000 });
  await page.locator('.vbody [role="row"]:not(.vhead)').first().click();
  await expect(page.getByTestId('example-detail')).toBeVisible();

  await page.getByRole('button', { name: 'Findings', exact: true }).click();
  await expect(page.getByLabel('Title', { exact: true })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'New finding' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'New finding' })).toHaveAttribute(
    'title',
    READ_ONLY_TITLE,
  );

  await page.getByRole('button', { name: 'Sync', exact: true }).click();
  await expect(page.getByLabel(`Send ${DEMO}`)).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Sync now' })).toBeDisabled();
  await expect(notice).toHaveCount(1);
});

test('an editor of the same server sees no read-only notice', async ({ page }) => {
  await page.goto(`${app.url}?token=${editor}`);
  await expect(page.getByLabel('Folder path')).toBeEnabled();
  await expect(page.getByRole('note', { name: 'Read-only session' })).toHaveCount(0);
});

test('every user of a --read-only server is told, and nothing is waited for', async ({ page }) => {
  const readOnly = await serveApp(['--demo', '--read-only']);
  try {
    await page.goto(readOnly.url);
    await expect(page.getByRole('note', { name: 'Read-only session' })).toBeVisible();
    await page.getByRole('button', { name: 'Compare', exact: true }).first().click();
    await page.getByRole('button', { name: 'Examples', exact: true }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'No comparison of these runs yet' }),
    ).toContainText(READ_ONLY_TITLE);
  } finally {
    await readOnly.stop();
  }
});
