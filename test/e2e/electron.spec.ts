import fs from 'node:fs';
import path from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';

const root = path.resolve(__dirname, '../..');

/** The Electron binary electron's install step downloaded, or why there is none (checkable by hand). */
function electronBinary(): { binary: string } | { missing: string } {
  const pathFile = path.join(root, 'node_modules/electron/path.txt');
  if (!fs.existsSync(pathFile))
    return {
      missing:
        `${path.relative(root, pathFile)} does not exist: electron's install step did not download ` +
        'its binary (the download host is not reachable from this machine)',
    };
  const binary = path.join(
    root,
    'node_modules/electron/dist',
    fs.readFileSync(pathFile, 'utf8').trim(),
  );
  return fs.existsSync(binary)
    ? { binary }
    : { missing: `${path.relative(root, binary)}, named in path.txt, does not exist` };
}

const found = electronBinary();
test.describe('desktop app (Electron)', () => {
  test('opens the window on the app shell', async () => {
    if ('missing' in found) {
      const reason = `No Electron binary on this machine: ${found.missing}. The browser-host specs cover the same renderer.`;
      // The list reporter does not print a skip's reason; the test's own output does.
      console.log(`skipped: ${reason}`);
      test.skip(true, reason);
      return;
    }
    const app = await electron.launch({
      executablePath: found.binary,
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
