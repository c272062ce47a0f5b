import { app, safeStorage } from 'electron';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The sync API key on desktop: encrypted with the OS keychain through safeStorage and kept in
 * its own file in userData, never in the SQLite database. Where the OS offers no encryption
 * (a Linux session without a keyring) the key is not stored at all and the user is told.
 */
export class SafeStorageSecrets {
  private readonly file = path.join(app.getPath('userData'), 'secrets.json');

  private read(): Record<string, string> {
    try {
      return JSON.parse(fs.readFileSync(this.file, 'utf8')) as Record<string, string>;
    } catch {
      return {};
    }
  }

  get(name: string): string | null {
    const blob = this.read()[name];
    if (!blob || !safeStorage.isEncryptionAvailable()) return null;
    return safeStorage.decryptString(Buffer.from(blob, 'base64'));
  }

  set(name: string, value: string | null): void {
    const all = this.read();
    if (value === null) delete all[name];
    else {
      if (!safeStorage.isEncryptionAvailable()) {
        throw new Error(
          'This system offers no secure storage for the key; set MECHLENS_API_KEY instead.',
        );
      }
      all[name] = safeStorage.encryptString(value).toString('base64');
    }
    fs.writeFileSync(this.file, JSON.stringify(all), { mode: 0o600 });
  }
}
