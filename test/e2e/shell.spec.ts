import { expect, test } from '@playwright/test';
import { serveApp, type ServedApp } from './host';

let app: ServedApp;
test.beforeEach(async () => {
  app = await serveApp();
});
test.afterEach(async () => {
  await app.stop();
});

test('the browser host renders the app shell with its token, and strips the token from the address bar', async ({
  page,
}) => {
  await page.goto(app.url);
  await expect(page.getByText('Pairwise', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No runs yet' })).toBeVisible();
  await expect(page.getByRole('status').first()).toContainText('0 runs');
  expect(page.url()).not.toContain('token=');

  // A reload of the address without the token still opens the app and reaches the core.
  await page.reload();
  await expect(page.getByRole('status').first()).toContainText('0 runs');
});

test('without the token the page is refused', async ({ page }) => {
  const response = await page.goto(app.url.replace(/\?token=.*/, ''));
  expect(response?.status()).toBe(401);
});
