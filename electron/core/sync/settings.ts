import type { Db } from '../db/open';

/**
 * Where sync sends and with which key. The endpoint is an ordinary setting in SQLite; the key
 * is a secret the host keeps (environment, or the desktop's safeStorage through SecretStore)
 * and is never written to the database, a log or an export.
 */

/**
 * Secrets kept by the host. Async because on desktop the core runs in a worker thread and
 * Electron's safeStorage lives in the main process: each call may be a message round trip.
 */
export interface SecretStore {
  get(name: string): Promise<string | null>;
  /** null forgets the secret. */
  set(name: string, value: string | null): Promise<void>;
  /** Whether a secret outlives the process (an OS keychain) or only this session. */
  storage(): Promise<'keychain' | 'memory'>;
}

/** For the CLI and the browser host: a key given at runtime lives as long as the process. */
export class MemorySecretStore implements SecretStore {
  private values = new Map<string, string>();

  get(name: string): Promise<string | null> {
    return Promise.resolve(this.values.get(name) ?? null);
  }

  set(name: string, value: string | null): Promise<void> {
    if (value === null) this.values.delete(name);
    else this.values.set(name, value);
    return Promise.resolve();
  }

  storage(): Promise<'memory'> {
    return Promise.resolve('memory');
  }
}

export const API_KEY_SECRET = 'mechlens.apiKey';
const URL_SETTING = 'sync.url';

export interface Credentials {
  url: string | null;
  urlSource: 'env' | 'settings' | null;
  key: string | null;
  keySource: 'env' | 'store' | null;
}

function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/**
 * An https URL, or http to this machine only (the key travels as a Bearer header, so plain
 * http to another host would send it in cleartext), without a user name or password (those
 * would be a secret in the database).
 */
export function normalizeEndpoint(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`"${raw}" is not a URL; give the MechLens address, e.g. https://host`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error('The MechLens address must start with https:// (or http:// for a local one).');
  if (url.protocol === 'http:' && !isLoopback(url.hostname))
    throw new Error(
      `The MechLens address must use https:// for ${url.hostname}: over http:// the API key would travel unencrypted (http:// is accepted for this machine only).`,
    );
  if (url.username || url.password)
    throw new Error('Leave the key out of the address; give it as the API key instead.');
  return url.href.replace(/\/+$/, '');
}

export function savedEndpoint(db: Db): string | null {
  const row = db.prepare(`SELECT value FROM app_settings WHERE key = ?`).get(URL_SETTING) as
    { value: string } | undefined;
  return row?.value ?? null;
}

export function saveEndpoint(db: Db, url: string | null): void {
  if (url === null) db.prepare(`DELETE FROM app_settings WHERE key = ?`).run(URL_SETTING);
  else
    db.prepare(
      `INSERT INTO app_settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
    ).run(URL_SETTING, url);
}

/**
 * The environment wins, as with the MechLens SDK: MECHLENS_API_URL and MECHLENS_API_KEY let a
 * CI job or a shell override what the app has saved; status says which one is in use.
 */
export async function resolveCredentials(
  db: Db,
  secrets: SecretStore,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Credentials> {
  const envUrl = env.MECHLENS_API_URL?.trim() || null;
  const saved = savedEndpoint(db);
  const envKey = env.MECHLENS_API_KEY?.trim() || null;
  const stored = envKey ? null : await secrets.get(API_KEY_SECRET);
  return {
    url: envUrl ? normalizeEndpoint(envUrl) : saved,
    urlSource: envUrl ? 'env' : saved ? 'settings' : null,
    key: envKey ?? stored,
    keySource: envKey ? 'env' : stored ? 'store' : null,
  };
}

/** Whatever a server or a network error says, the key never reaches a stored or printed message. */
export function redact(text: string, key: string | null): string {
  return key ? text.split(key).join('[key]') : text;
}
