import fs from 'node:fs';
import { hasOsKeychain, type SafeStorageLike } from './trust';

/**
 * The sync API key on desktop: encrypted with the OS keychain through safeStorage and kept in
 * its own file in userData, never in the SQLite database. Where the OS offers no keychain (a
 * Linux session without one, where safeStorage would fall back to a hard-coded password) the
 * key is kept in memory for this session only, and `storage()` tells the UI so.
 */
export class SafeStorageSecrets {
  private readonly memory = new Map<string, string>();
  private readonly keychain: boolean;

  constructor(
    private readonly file: string,
    private readonly safe: SafeStorageLike,
    platform: NodeJS.Platform = process.platform,
  ) {
    this.keychain = hasOsKeychain(platform, safe);
  }

  storage(): 'keychain' | 'memory' {
    return this.keychain ? 'keychain' : 'memory';
  }

  private read(): Record<string, string> {
    try {
      return JSON.parse(fs.readFileSync(this.file, 'utf8')) as Record<string, string>;
    } catch {
      return {};
    }
  }

  get(name: string): string | null {
    if (!this.keychain) return this.memory.get(name) ?? null;
    const blob = this.read()[name];
    return blob ? this.safe.decryptString(Buffer.from(blob, 'base64')) : null;
  }

  set(name: string, value: string | null): void {
    if (!this.keychain) {
      if (value === null) this.memory.delete(name);
      else this.memory.set(name, value);
      return;
    }
    const all = this.read();
    if (value === null) delete all[name];
    else all[name] = this.safe.encryptString(value).toString('base64');
    fs.writeFileSync(this.file, JSON.stringify(all), { mode: 0o600 });
  }
}
