import { listPackage, statFile } from '@electron/asar';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { archFromString, DebugLogger } from 'builder-util';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../fixtures/tmp';

/**
 * Desktop packaging (electron-builder.yml, scripts/package.cjs, scripts/after-pack.cjs,
 * scripts/icons.cjs). A real package needs Electron and its headers from the network; what can
 * be checked without them is checked here, and electron-builder itself packs the app around a
 * stand-in Electron so the asar it writes can be inspected.
 */

const root = path.resolve(__dirname, '../..');
const nodeSqlite = path.join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as T;
}
const dependencies = Object.keys(
  readJson<{ dependencies: Record<string, string> }>('package.json').dependencies,
);
const electronVersion = readJson<{ version: string }>('node_modules/electron/package.json').version;
const sqliteVersion = readJson<{ version: string }>(
  'node_modules/better-sqlite3/package.json',
).version;
const electronAbi = fs
  .readFileSync(path.join(root, 'node_modules/electron/abi_version'), 'utf8')
  .trim();

interface HookContext {
  electronPlatformName: string;
  arch: number;
  appOutDir: string;
  packager: { info: { framework: { version: string } }; getResourcesDir(dir: string): string };
}
const { installElectronSqlite } = createRequire(__filename)('../../scripts/after-pack.cjs') as {
  installElectronSqlite(context: HookContext, nativeDir: string): string;
};

const temps: Array<() => void> = [];
afterAll(() => temps.forEach((cleanup) => cleanup()));
function scratch(): string {
  const t = tempDir('pairwise-packaging-');
  temps.push(t.cleanup);
  return t.dir;
}

function sha1(file: string): string {
  return crypto.createHash('sha1').update(fs.readFileSync(file)).digest('hex');
}

/** What electron-native.cjs leaves behind, with a stand-in binary that carries Electron's ABI. */
function stubElectronSqlite(abi = electronAbi, stamp = { electronVersion, sqliteVersion }): string {
  const dir = scratch();
  fs.writeFileSync(path.join(dir, 'better_sqlite3.node'), `stub node_register_module_v${abi}\n`);
  fs.writeFileSync(path.join(dir, 'stamp.json'), JSON.stringify(stamp));
  return dir;
}

function pngSize(file: string): [number, number] {
  const png = fs.readFileSync(file);
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

describe('electron-builder.yml', () => {
  it("passes electron-builder's own configuration check", async () => {
    const config = await getConfig(root, path.join(root, 'electron-builder.yml'), null);
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    // The check is live: the same config with one unknown option fails it.
    await expect(
      validateConfiguration(
        { ...config, linux: { ...config.linux, bogus: 1 } } as typeof config,
        new DebugLogger(false),
      ),
    ).rejects.toThrow(/does not match the API schema/);

    expect(config).toMatchObject({
      appId: 'org.pairwise.app',
      productName: 'Pairwise',
      npmRebuild: false,
      afterPack: 'scripts/after-pack.cjs',
      extraResources: [{ from: 'resources/samples', to: 'samples' }],
      fileAssociations: [{ ext: 'eval' }],
      linux: { target: ['AppImage', 'deb'] },
      mac: { target: ['dmg'] },
      win: { target: ['nsis'] },
    });
  });
});

describe('icons', () => {
  it('renders resources/icon.svg to every PNG size, with a 512 px icon.png', () => {
    const out = scratch();
    const result = spawnSync(process.execPath, [path.join(root, 'scripts/icons.cjs'), out], {
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    const sizes = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
    expect(fs.readdirSync(out).sort()).toEqual(
      [...sizes.map((s) => `${s}x${s}.png`), 'icon.png'].sort(),
    );
    for (const size of sizes)
      expect(pngSize(path.join(out, `${size}x${size}.png`))).toEqual([size, size]);
    expect(pngSize(path.join(out, 'icon.png'))).toEqual([512, 512]);
    // The committed set is what packaging uses; it must exist at the same sizes.
    for (const name of fs.readdirSync(out))
      expect(pngSize(path.join(root, 'resources/icons', name))).toEqual(
        pngSize(path.join(out, name)),
      );
  });
});

describe('afterPack hook', () => {
  function context(platform: string = process.platform): HookContext {
    const appOutDir = scratch();
    const release = path.join(
      appOutDir,
      'resources/app.asar.unpacked/node_modules/better-sqlite3/build/Release',
    );
    fs.mkdirSync(release, { recursive: true });
    fs.writeFileSync(path.join(release, 'better_sqlite3.node'), 'node build');
    return {
      electronPlatformName: platform,
      arch: archFromString(process.arch),
      appOutDir,
      packager: {
        info: { framework: { version: electronVersion } },
        getResourcesDir: (dir) => path.join(dir, 'resources'),
      },
    };
  }

  it('puts the Electron-ABI build into the unpacked module', () => {
    const native = stubElectronSqlite();
    const installed = installElectronSqlite(context(), native);
    expect(fs.readFileSync(installed, 'utf8')).toBe(`stub node_register_module_v${electronAbi}\n`);
  });

  it('refuses a build for another machine, another version, or Node’s ABI', () => {
    const other = process.platform === 'darwin' ? 'win32' : 'darwin';
    expect(() => installElectronSqlite(context(other), stubElectronSqlite())).toThrow(
      /build .* on a .* host/,
    );
    expect(() =>
      installElectronSqlite(
        context(),
        stubElectronSqlite(electronAbi, { electronVersion: '1.0.0', sqliteVersion }),
      ),
    ).toThrow(/is for Electron 1\.0\.0/);
    expect(() =>
      installElectronSqlite(context(), stubElectronSqlite(process.versions.modules)),
    ).toThrow(new RegExp(`NODE_MODULE_VERSION ${process.versions.modules}, but Electron`));
    expect(() => installElectronSqlite(context(), scratch())).toThrow(/No Electron-ABI build/);
  });
});

function ensureBuilt(): void {
  const outputs = ['out/main/index.js', 'out/preload/index.js', 'out/renderer/index.html'];
  if (outputs.every((file) => fs.existsSync(path.join(root, file)))) return;
  const result = spawnSync(path.join(root, 'node_modules/.bin/electron-vite'), ['build'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`electron-vite build failed:\n${result.stderr}`);
}

/**
 * electron-builder with the real config, targeting the unpacked app, but with a stand-in
 * Electron (a shell script) and a stand-in Electron-ABI module: everything else — file
 * selection, production dependencies, asar and asarUnpack, extraResources, the afterPack hook —
 * is electron-builder's own work. Linux only: the stand-in is a Linux Electron layout.
 */
describe.runIf(process.platform === 'linux')('the packed app (stand-in Electron)', () => {
  let resources = '';
  let files: string[] = [];
  const native = { dir: '', before: '' };

  beforeAll(() => {
    ensureBuilt();
    native.before = sha1(nodeSqlite);
    native.dir = stubElectronSqlite();
    const work = scratch();
    const electronDist = path.join(work, 'electron-dist');
    fs.mkdirSync(path.join(electronDist, 'resources'), { recursive: true });
    // Prints how the CLI wrapper called it.
    fs.writeFileSync(
      path.join(electronDist, 'electron'),
      '#!/bin/sh\necho "ELECTRON_RUN_AS_NODE=$ELECTRON_RUN_AS_NODE" "$@"\n',
      { mode: 0o755 },
    );
    const output = path.join(work, 'dist');
    const script = path.join(work, 'pack.cjs');
    fs.writeFileSync(
      script,
      `const [root, electronDist, output, nativeDir] = process.argv.slice(2);
const { build, Platform, archFromString } = require(require.resolve('electron-builder', { paths: [root] }));
const { installElectronSqlite } = require(root + '/scripts/after-pack.cjs');
build({
  projectDir: root,
  targets: Platform.LINUX.createTarget('dir', archFromString(process.arch)),
  publish: 'never',
  config: {
    directories: { output },
    electronDist,
    afterPack: (context) => installElectronSqlite(context, nativeDir),
  },
}).then(() => process.exit(0), (error) => { console.error(error.stack); process.exit(1); });
`,
    );
    const result = spawnSync(process.execPath, [script, root, electronDist, output, native.dir], {
      cwd: root,
      encoding: 'utf8',
    });
    if (result.status !== 0)
      throw new Error(`electron-builder failed:\n${result.stdout}\n${result.stderr}`);
    const unpacked = fs.readdirSync(output).find((name) => name.endsWith('-unpacked'));
    resources = path.join(output, unpacked!, 'resources');
    files = listPackage(path.join(resources, 'app.asar'), { isPack: false });
  }, 120_000);

  it('holds the app build, package.json and the runtime dependencies', () => {
    for (const file of [
      '/package.json',
      '/out/main/index.js',
      '/out/main/cli.js',
      '/out/main/core.worker.js',
      '/out/preload/index.js',
      '/out/renderer/index.html',
      '/node_modules/better-sqlite3/build/Release/better_sqlite3.node',
    ])
      expect(files).toContain(file);
    for (const dependency of dependencies)
      expect(files).toContain(`/node_modules/${dependency}/package.json`);
    const binding = statFile(
      path.join(resources, 'app.asar'),
      'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
    );
    expect(binding).toMatchObject({ unpacked: true });
    const duckdb = `node_modules/@duckdb/node-bindings-${process.platform}-${process.arch}/duckdb.node`;
    expect(statFile(path.join(resources, 'app.asar'), duckdb)).toMatchObject({ unpacked: true });
  });

  it('leaves out sources, tests, docs, dev tooling and native build leftovers', () => {
    const stray = files.filter(
      (file) =>
        /^\/(test|docs|electron|shared|renderer|scripts|resources|\.electron-native|dist)(\/|$)/.test(
          file,
        ) ||
        /\.(ts|tsx|map)$/.test(file) ||
        /^\/node_modules\/better-sqlite3\/(deps|src|build\/Release\/obj)/.test(file) ||
        /^\/node_modules\/(electron|electron-builder|electron-vite|vite|vitest|react|react-dom|typescript|@resvg|@playwright)\//.test(
          file,
        ),
    );
    expect(stray).toEqual([]);
  });

  it('swaps in the Electron-ABI SQLite build and leaves the Node build in node_modules alone', () => {
    const packed = path.join(
      resources,
      'app.asar.unpacked/node_modules/better-sqlite3/build/Release/better_sqlite3.node',
    );
    expect(fs.readFileSync(packed, 'utf8')).toBe(
      fs.readFileSync(path.join(native.dir, 'better_sqlite3.node'), 'utf8'),
    );
    expect(sha1(nodeSqlite)).toBe(native.before);
  });

  it('ships the demo library and a CLI wrapper that runs the bundled CLI on its own Electron', () => {
    expect(fs.readdirSync(path.join(resources, 'samples')).sort()).toEqual(
      fs.readdirSync(path.join(root, 'resources/samples')).sort(),
    );
    const bin = scratch();
    fs.symlinkSync(path.join(resources, 'bin/pairwise'), path.join(bin, 'pairwise'));
    const result = spawnSync(path.join(bin, 'pairwise'), ['runs', '--json'], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(
      `ELECTRON_RUN_AS_NODE=1 ${resources}/app.asar/out/main/cli.js runs --json`,
    );
  });
});

describe('npm run package:dir', () => {
  /**
   * Here Electron's downloads are unreachable, so it stops with one line and exit code 1; on a
   * machine with network access it packages for real (slow the first time). Either way the
   * Node build of better-sqlite3 that the tests use must still load afterwards.
   */
  it('stops with one clear line where it cannot download, and the Node build still loads', () => {
    const before = sha1(nodeSqlite);
    const result = spawnSync(
      process.platform === 'win32' ? 'npm.cmd' : 'npm',
      ['run', 'package:dir'],
      {
        cwd: root,
        encoding: 'utf8',
        shell: process.platform === 'win32',
      },
    );
    expect([0, 1]).toContain(result.status);
    if (result.status === 1) {
      // npm may add its own "npm error …" lines about the failed script.
      const lines = result.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('npm '));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^Pairwise: cannot package here: Electron ${electronVersion.replace(/\./g, '\\.')}(?:'s headers)? could not be downloaded \\(.+\\)\\. Packaging needs network access to .+\\.$`,
        ),
      );
      expect(`${result.stdout}${result.stderr}`).not.toMatch(/^\s+at /m);
    }
    expect(sha1(nodeSqlite)).toBe(before);

    const load = spawnSync(
      process.execPath,
      [
        '-e',
        "const Database = require('better-sqlite3'); const db = new Database(':memory:'); process.stdout.write(String(db.prepare('select 40 + 2 as x').get().x));",
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(load.stderr).toBe('');
    expect(load.stdout).toBe('42');
  }, 600_000);
});
