import { expect, test } from '@playwright/test';
import { serveApp, type ServedApp } from './host';

let app: ServedApp;
test.beforeEach(async () => {
  app = await serveApp();
});
test.afterEach(async () => {
  await app.stop();
});

test('an s3:// address shows the endpoint box; a store that cannot be reached says why', async ({
  page,
}) => {
  await page.goto(app.url);
  const path = page.getByLabel('Folder path');
  await path.fill('/tmp/runs');
  await expect(page.getByLabel('S3 endpoint')).toHaveCount(0);

  await path.fill('s3://no-such-bucket/lab/exp1');
  const endpoint = page.getByLabel('S3 endpoint');
  await expect(endpoint).toBeVisible();
  // Nothing listens on the discard port: the store refuses, and no cloud is asked.
  await endpoint.fill('http://127.0.0.1:9');
  await page.getByRole('button', { name: 'Add folder' }).click();

  const error = page.locator('.add-folder').getByRole('alert');
  await expect(error).toContainText('s3://no-such-bucket/lab/exp1: ', { timeout: 30_000 });
  await expect(path).toHaveValue('');
  await expect(page.getByRole('button', { name: /^Problems/ })).toContainText('1');
  // The pass ends "finished", but its toast must not say "done" over a bucket it never read.
  await expect(page.locator('.toasts')).toContainText(
    'Indexing exp1: nothing indexed — 1 source failed (see Problems)',
  );

  await path.fill('s3://another');
  await expect(error).toHaveCount(0);
});

test('at 1024 px the endpoint box sits beside the address, inside the window', async ({ page }) => {
  const demo = await serveApp(['--demo']);
  try {
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.goto(demo.url);
    await page.getByRole('button', { name: 'Compare', exact: true }).first().waitFor();
    await page.getByLabel('Folder path').fill('s3://team-runs/lab/exp1');
    const address = (await page.getByLabel('Folder path').boundingBox())!;
    const endpoint = (await page.getByLabel('S3 endpoint').boundingBox())!;
    const add = (await page.getByRole('button', { name: 'Add folder' }).boundingBox())!;
    expect(endpoint.y).toBe(address.y);
    expect(endpoint.x).toBeGreaterThan(address.x + address.width);
    expect(add.x + add.width).toBeLessThanOrEqual(1024);
  } finally {
    await demo.stop();
  }
});
