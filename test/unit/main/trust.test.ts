import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PendingRequests } from '../../../electron/main/pending';
import { SafeStorageSecrets } from '../../../electron/main/secrets';
import {
  devRendererUrl,
  hasOsKeychain,
  isTrustedSender,
  ourPage,
  type SafeStorageLike,
} from '../../../electron/main/trust';
import { tempDir } from '../../fixtures/tmp';

const mainDir = '/opt/Pairwise/resources/app.asar/out/main';

describe('our page', () => {
  it('ignores ELECTRON_RENDERER_URL in a packaged app', () => {
    const env = { ELECTRON_RENDERER_URL: 'http://localhost:5173' };
    expect(devRendererUrl(env, true)).toBeNull();
    expect(devRendererUrl(env, false)).toBe('http://localhost:5173');
    expect(ourPage(mainDir, env, true)).toEqual({
      fileUrl: 'file:///opt/Pairwise/resources/app.asar/out/renderer/index.html',
      devUrl: null,
    });
  });

  it('trusts exactly our own file, not any file:// URL containing /renderer/index.html', () => {
    const page = ourPage(mainDir, {}, true);
    expect(isTrustedSender(page.fileUrl, page)).toBe(true);
    expect(isTrustedSender(`${page.fileUrl}#/experiments`, page)).toBe(true);
    for (const other of [
      'file:///home/eve/Downloads/renderer/index.html',
      'file:///tmp/x/renderer/index.html?/opt/Pairwise/resources/app.asar/out/renderer/index.html',
      'file://evil.example/opt/Pairwise/resources/app.asar/out/renderer/index.html',
      'https://evil.example/renderer/index.html',
      'http://localhost:5173/',
      'about:blank',
      'not a url',
      undefined,
    ])
      expect(isTrustedSender(other, page), String(other)).toBe(false);
  });

  it('trusts the dev server by origin in development only', () => {
    const dev = ourPage(mainDir, { ELECTRON_RENDERER_URL: 'http://localhost:5173' }, false);
    expect(isTrustedSender('http://localhost:5173/index.html', dev)).toBe(true);
    expect(isTrustedSender('http://localhost:5173.evil.example/', dev)).toBe(false);
    expect(isTrustedSender('http://localhost:5174/', dev)).toBe(false);
  });
});

function fakeSafeStorage(available: boolean, backend?: string): SafeStorageLike {
  return {
    isEncryptionAvailable: () => available,
    ...(backend ? { getSelectedStorageBackend: () => backend } : {}),
    encryptString: (text) => Buffer.from(`enc:${text}`),
    decryptString: (blob) => blob.toString().replace(/^enc:/, ''),
  };
}

describe('the sync key store on desktop', () => {
  let cleanup = () => undefined as void;
  afterEach(() => cleanup());

  it('counts only a real OS keychain, not Linux basic_text', () => {
    expect(hasOsKeychain('linux', fakeSafeStorage(true, 'basic_text'))).toBe(false);
    expect(hasOsKeychain('linux', fakeSafeStorage(true, 'unknown'))).toBe(false);
    expect(hasOsKeychain('linux', fakeSafeStorage(true, 'gnome_libsecret'))).toBe(true);
    expect(hasOsKeychain('linux', fakeSafeStorage(true, 'kwallet5'))).toBe(true);
    expect(hasOsKeychain('darwin', fakeSafeStorage(true))).toBe(true);
    expect(hasOsKeychain('win32', fakeSafeStorage(false))).toBe(false);
  });

  it('keeps the key in memory only when the backend is basic_text, and says so', () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = path.join(t.dir, 'secrets.json');
    const store = new SafeStorageSecrets(file, fakeSafeStorage(true, 'basic_text'), 'linux');
    store.set('mechlens.apiKey', 'ml_secret');
    expect(store.get('mechlens.apiKey')).toBe('ml_secret');
    expect(store.storage()).toBe('memory');
    expect(fs.existsSync(file)).toBe(false);
  });

  it('encrypts to its file with a real keychain', () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = path.join(t.dir, 'secrets.json');
    const store = new SafeStorageSecrets(file, fakeSafeStorage(true, 'gnome_libsecret'), 'linux');
    store.set('mechlens.apiKey', 'ml_secret');
    expect(store.storage()).toBe('keychain');
    expect(fs.readFileSync(file, 'utf8')).not.toContain('ml_secret');
    expect(
      new SafeStorageSecrets(file, fakeSafeStorage(true, 'kwallet'), 'linux').get(
        'mechlens.apiKey',
      ),
    ).toBe('ml_secret');
  });
});

describe('requests to the core worker', () => {
  it('answers waiting and later requests once the worker is gone', async () => {
    const pending = new PendingRequests();
    const sent: number[] = [];
    const first = pending.add((id) => sent.push(id));
    const second = pending.add((id) => sent.push(id));
    pending.answer(sent[0]!, { ok: true, value: 1 });
    expect(await first).toEqual({ ok: true, value: 1 });
    pending.stop('The core stopped (exit code 1); restart Pairwise.');
    expect(await second).toMatchObject({ ok: false, error: { code: 'internal' } });
    const later = await pending.add(() => {
      throw new Error('must not be sent');
    });
    expect(later).toMatchObject({ ok: false, error: { message: /core stopped/ } });
    expect(pending.size).toBe(0);
  });

  it('answers a request that cannot be posted', async () => {
    const pending = new PendingRequests();
    const result = await pending.add(() => {
      throw new Error('worker is terminated');
    });
    expect(result).toMatchObject({ ok: false, error: { message: /could not be reached/ } });
  });
});
