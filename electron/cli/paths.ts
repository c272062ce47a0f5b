import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The first candidate that exists: the CLI runs from out/main (built) or from source (tests). */
function firstExisting(candidates: string[]): string | null {
  return candidates.find((c) => fs.existsSync(c)) ?? null;
}

export function rendererDir(): string | null {
  return firstExisting([
    path.join(__dirname, '../renderer'),
    path.resolve(__dirname, '../../out/renderer'),
  ]);
}

export function samplesDir(): string | null {
  return firstExisting([
    path.resolve(__dirname, '../../resources/samples'),
    path.resolve(__dirname, '../../../resources/samples'),
    // Inside an installed app: resources/app.asar/out/main → resources/samples.
    path.resolve(__dirname, '../../../samples'),
  ]);
}

export function packageVersion(): string {
  const file = firstExisting([
    path.resolve(__dirname, '../../package.json'),
    path.resolve(__dirname, '../../../package.json'),
  ]);
  if (!file) return '0.0.0';
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

/**
 * --db, then $PAIRWISE_DB, then $XDG_DATA_HOME/pairwise/pairwise.db (docs/architecture.md,
 * "SQLite").
 */
export function defaultDbPath(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (flag) return path.resolve(flag);
  if (env.PAIRWISE_DB) return path.resolve(env.PAIRWISE_DB);
  const dataHome = env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share');
  return path.join(dataHome, 'pairwise', 'pairwise.db');
}
