import fs from 'node:fs';
import path from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';

const root = path.resolve(__dirname, '../..');

function electronBinary(): string | null {
  const pathFile = path.join(root, 'node_modules/electron/path.txt');
  if (!fs.existsSync(pathFile)) return null;
  const binary = path.join(
    root,
    'node_modules/electron/dist',
    fs.readFileSync(pathFile, 'utf8').trim(),
  );
  return fs.existsSync(binary) ? binary : null;
}

const binary = electronBinary();

test.describe('desktop app (Electron)', () => {
  test.skip(
    !binary,
    'No Electron binary on this machine (its download is not reachable here); the browser-host specs cover the same renderer.',
  );

  test('opens the window on the app shell', async () => {
    const app = await electron.launch({
      executablePath: binary!,
      args: [path.join(root, 'out/main/index.js')],
    });
    const window = await app.firstWindow();
    await expect(window.getByText('Pairwise', { exact: true })).toBeVisible();
    const prefs = await app.evaluate(({ BrowserWindow }) => {
      const w = BrowserWindow.getAllWindows()[0]!;
      return (
        w.webContents as unknown as { getLastWebPreferences(): Record<string, unknown> }
      ).getLastWebPreferences();
    });
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    await app.close();
  });
});
