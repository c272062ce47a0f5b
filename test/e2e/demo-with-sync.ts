import { expect, test, type Page } from '@playwright/test';
import { startSyncServer, type SyncServer } from '../fixtures/sync-server';
import { serveApp, type ServedApp } from './host';

/** The key the specs' sync server accepts; it must never reach the library's file. */
export const SYNC_KEY = 'e2e-secret-key';

/**
 * Registers, for every test of the calling spec, the demo library in the browser host and a
 * sync server of its own; read `app` and `server` inside a test.
 */
export function demoWithSyncServer(): { readonly app: ServedApp; readonly server: SyncServer } {
  let app: ServedApp | null = null;
  let server: SyncServer | null = null;
  test.beforeEach(async () => {
    app = await serveApp(['--demo']);
    server = await startSyncServer({ apiKey: SYNC_KEY });
  });
  test.afterEach(async () => {
    await app?.stop();
    await server?.close();
  });
  return {
    get app() {
      return app!;
    },
    get server() {
      return server!;
    },
  };
}

/** Opens the app and its first comparison, once the comparison has loaded. */
export async function openComparison(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('button', { name: 'Compare', exact: true }).click({ timeout: 30_000 });
  await expect(page.getByRole('heading', { name: /vs/ }).first()).toBeVisible({ timeout: 60_000 });
}
