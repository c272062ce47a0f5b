import { app, BrowserWindow, dialog, ipcMain, Menu } from 'electron';
import fs from 'node:fs';
import path from 'node:path';
import { CoreHost } from './core-host';
import { buildMenu } from './menu';
import { isTrustedSender, ourPage } from './trust';
import { createWindow, lockDownSession } from './window';

let core: CoreHost | null = null;

async function pickFolder(window: BrowserWindow | null): Promise<string | null> {
  const options = {
    properties: ['openDirectory', 'multiSelections'] as Array<'openDirectory' | 'multiSelections'>,
  };
  const result = window
    ? await dialog.showOpenDialog(window, options)
    : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

async function addFolderFromMenu(): Promise<void> {
  const window = BrowserWindow.getFocusedWindow();
  const folder = await pickFolder(window);
  if (folder && core) await core.request('library:addFolder', { path: folder, watch: true });
}

/**
 * In development the Electron-ABI build of better-sqlite3 lives apart from the Node build the
 * tests use (scripts/electron-native.cjs makes it); a packaged app carries its own.
 */
function useElectronSqliteBuild(): void {
  if (app.isPackaged || process.env.PAIRWISE_SQLITE_BINDING) return;
  const binding = path.join(app.getAppPath(), '.electron-native', 'better_sqlite3.node');
  if (fs.existsSync(binding)) process.env.PAIRWISE_SQLITE_BINDING = binding;
}

/** Files the app was asked to open: `.eval` logs double-clicked or passed on the command line. */
const pendingFiles: string[] = [];

function runFilesIn(argv: string[]): string[] {
  return argv
    .filter((arg) => /\.eval$/i.test(arg) && fs.existsSync(arg))
    .map((arg) => path.resolve(arg));
}

function openFiles(files: string[]): void {
  if (!core) {
    pendingFiles.push(...files);
    return;
  }
  for (const file of files) void core.request('library:addFolder', { path: file, watch: false });
  BrowserWindow.getAllWindows()[0]?.focus();
}

app.enableSandbox();
useElectronSqliteBuild();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', (_event, argv) => openFiles(runFilesIn(argv)));
}

// macOS delivers double-clicked files by event, possibly before the app is ready.
app.on('open-file', (event, file) => {
  event.preventDefault();
  openFiles([file]);
});

void app.whenReady().then(() => {
  lockDownSession();
  const page = ourPage(__dirname, process.env, app.isPackaged);
  const userData = app.getPath('userData');
  core = new CoreHost({
    dbPath: path.join(userData, 'pairwise.db'),
    dataDir: userData,
    host: 'desktop',
    version: app.getVersion(),
    samplesDir: app.isPackaged
      ? path.join(process.resourcesPath, 'samples')
      : path.join(app.getAppPath(), 'resources', 'samples'),
    canPickFolders: true,
    watch: true,
    startIndexWorkers: true,
  });

  ipcMain.handle('pairwise:request', (event, name: unknown, input: unknown) => {
    if (!isTrustedSender(event.senderFrame?.url, page)) {
      return { ok: false, error: { code: 'bad_request', message: 'Untrusted sender.' } };
    }
    return core!.request(name, input);
  });
  ipcMain.handle('pairwise:pickFolder', (event) => {
    if (!isTrustedSender(event.senderFrame?.url, page)) return null;
    return pickFolder(BrowserWindow.fromWebContents(event.sender));
  });
  core.onEvent((name, payload) => {
    for (const window of BrowserWindow.getAllWindows())
      window.webContents.send('pairwise:event', name, payload);
  });

  Menu.setApplicationMenu(buildMenu({ addFolder: () => void addFolderFromMenu() }));
  createWindow(page);
  openFiles([...pendingFiles.splice(0), ...runFilesIn(process.argv.slice(1))]);
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow(page);
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app.on('will-quit', (event) => {
  if (!core) return;
  event.preventDefault();
  const closing = core;
  core = null;
  void closing.close().finally(() => app.quit());
});
