/**
 * electron-builder afterPack hook (electron-builder.yml). The asar carries better-sqlite3 as
 * node_modules has it, built for Node, because `npmRebuild: false` keeps electron-builder from
 * rebuilding node_modules in place (that would break the tests, the CLI and the browser host).
 * Here the unpacked native module is swapped for the Electron-ABI build that
 * scripts/electron-native.cjs made, so the packaged main loads it with a plain
 * require('better-sqlite3'). This runs before fuses and code signing, so the signature covers it.
 */
const fs = require('node:fs');
const path = require('node:path');
const { Arch } = require('builder-util');

const root = path.resolve(__dirname, '..');
const modulePath = ['node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'];

/**
 * The build in `nativeDir` must be for this Electron and this better-sqlite3, and really for
 * Electron's ABI: node-gyp quietly builds against Node's headers when npm_config_nodedir is set.
 * Returns the binding's path.
 */
function checkElectronSqlite(nativeDir, electronVersion) {
  const binding = path.join(nativeDir, 'better_sqlite3.node');
  const stampFile = path.join(nativeDir, 'stamp.json');
  if (!fs.existsSync(binding) || !fs.existsSync(stampFile)) {
    throw new Error(
      `No Electron-ABI build of better-sqlite3 in ${nativeDir}; run node scripts/electron-native.cjs (npm run package does).`,
    );
  }
  const stamp = JSON.parse(fs.readFileSync(stampFile, 'utf8'));
  const sqliteVersion = require(
    path.join(root, 'node_modules', 'better-sqlite3', 'package.json'),
  ).version;
  if (stamp.electronVersion !== electronVersion || stamp.sqliteVersion !== sqliteVersion) {
    throw new Error(
      `The Electron-ABI build of better-sqlite3 is for Electron ${stamp.electronVersion} / better-sqlite3 ${stamp.sqliteVersion}, not ${electronVersion} / ${sqliteVersion}; run node scripts/electron-native.cjs.`,
    );
  }
  const abi = fs.readFileSync(path.join(root, 'node_modules', 'electron', 'abi_version'), 'utf8');
  const built = /node_register_module_v(\d+)/.exec(fs.readFileSync(binding).toString('latin1'));
  if (built?.[1] !== abi.trim()) {
    throw new Error(
      `${binding} is built for NODE_MODULE_VERSION ${built?.[1] ?? '(none found)'}, but Electron ${electronVersion} needs ${abi.trim()}; delete ${nativeDir} and rebuild it without npm_config_nodedir.`,
    );
  }
  return binding;
}

/**
 * @param {import('app-builder-lib').AfterPackContext} context
 * @param {string} nativeDir where electron-native.cjs left better_sqlite3.node and stamp.json
 */
function installElectronSqlite(context, nativeDir) {
  const target = `${context.electronPlatformName}-${Arch[context.arch]}`;
  const host = `${process.platform}-${process.arch}`;
  // The cached build is compiled on and for this machine; another platform or arch would load
  // a binary it cannot run. Build those on a matching host (docs/releasing.md).
  if (target !== host) {
    throw new Error(
      `Pairwise packages for ${host} only on this machine (the Electron-ABI SQLite build is native); build ${target} on a ${target} host.`,
    );
  }

  const binding = checkElectronSqlite(nativeDir, context.packager.info.framework.version);

  const unpacked = path.join(
    context.packager.getResourcesDir(context.appOutDir),
    'app.asar.unpacked',
    ...modulePath,
  );
  if (!fs.existsSync(unpacked)) {
    throw new Error(
      `${path.relative(context.appOutDir, unpacked)} is missing from the package: better-sqlite3 must stay in asarUnpack (electron-builder.yml).`,
    );
  }
  fs.copyFileSync(binding, unpacked);
  return unpacked;
}

module.exports = async function afterPack(context) {
  installElectronSqlite(context, path.join(root, '.electron-native'));
};
module.exports.installElectronSqlite = installElectronSqlite;
module.exports.checkElectronSqlite = checkElectronSqlite;
