import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

export interface ServedApp {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
  /** Stops the host and leaves its data folder, to be served again. */
  keep(): Promise<void>;
}

export interface ServeOptions {
  /**
   * An ISO 8601 instant the core's clock stands still at, with counted rather than random UUIDs
   * (`fixed-core.cjs`): for screenshots that must come out the same on every run.
   */
  fixedClock?: string;
  /** An earlier host's data folder (see `keep`), opened again as a second launch does. */
  dataDir?: string;
}

/** Starts the built CLI's browser host on its own data folder, as a user would. */
export async function serveApp(
  extraArgs: string[] = [],
  { fixedClock, dataDir: reused }: ServeOptions = {},
): Promise<ServedApp> {
  const dataDir = reused ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pairwise-e2e-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(fixedClock ? ['--require', path.join(__dirname, 'fixed-core.cjs')] : []),
      path.join(root, 'out/main/cli.js'),
      'serve',
      '--no-open',
      '--port',
      '0',
      '--db',
      path.join(dataDir, 'pairwise.db'),
      ...extraArgs,
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        PAIRWISE_CLI_MAIN: '1',
        ...(fixedClock ? { PAIRWISE_FIXED_CLOCK: fixedClock } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out} ${err}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      // A lab server (--auth) names no token: its users bring their own.
      const match = /running at (http:\/\/\S+)|Open (http:\/\/[^\s?]+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve((match[1] ?? match[2])!);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
  const exit = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  };
  return {
    url,
    dataDir,
    stop: async () => {
      await exit();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    keep: exit,
  };
}
