import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Which page the desktop window loads and which frames may talk to main, as plain functions
 * (no Electron import) so they can be tested without an Electron binary.
 */

export interface OurPage {
  /** file:// URL of the built renderer's index.html. */
  fileUrl: string;
  /** The electron-vite dev server, in development only. */
  devUrl: string | null;
}

/**
 * The dev server address from ELECTRON_RENDERER_URL, honoured only when not packaged: in an
 * installed app the variable would let anyone who can set the environment load their own page
 * with our preload.
 */
export function devRendererUrl(env: NodeJS.ProcessEnv, packaged: boolean): string | null {
  if (packaged) return null;
  const url = env.ELECTRON_RENDERER_URL?.trim();
  return url ? url : null;
}

export function ourPage(mainDir: string, env: NodeJS.ProcessEnv, packaged: boolean): OurPage {
  return {
    fileUrl: pathToFileURL(path.join(mainDir, '../renderer/index.html')).href,
    devUrl: devRendererUrl(env, packaged),
  };
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * IPC is answered only for our own page: exactly the file we loaded (any query or fragment),
 * or a page of the dev server's origin in development. A `file://` URL that merely contains
 * `/renderer/index.html` (another app's folder, a downloaded copy) is not ours.
 */
export function isTrustedSender(frameUrl: string | undefined, page: OurPage): boolean {
  const frame = frameUrl ? parse(frameUrl) : null;
  if (!frame) return false;
  if (frame.protocol === 'file:') {
    const ours = parse(page.fileUrl);
    return ours !== null && frame.host === ours.host && frame.pathname === ours.pathname;
  }
  const dev = page.devUrl ? parse(page.devUrl) : null;
  return dev !== null && dev.origin !== 'null' && frame.origin === dev.origin;
}

/** The part of Electron's safeStorage the key store uses. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  /** Linux only: which backend encrypts. */
  getSelectedStorageBackend?(): string;
  encryptString(text: string): Buffer;
  decryptString(blob: Buffer): string;
}

/**
 * Whether safeStorage encrypts with a key the OS keeps (Keychain, DPAPI, libsecret, KWallet).
 * On Linux without a keyring it falls back to `basic_text`, a password hard-coded in Chromium:
 * "encrypted" there is readable by anyone with the file, so it does not count.
 */
export function hasOsKeychain(platform: NodeJS.Platform, safe: SafeStorageLike): boolean {
  if (!safe.isEncryptionAvailable()) return false;
  if (platform !== 'linux') return true;
  const backend = safe.getSelectedStorageBackend?.() ?? 'unknown';
  return backend !== 'basic_text' && backend !== 'unknown';
}
