import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { PairwiseService } from '../../electron/core/service';
import { startHostileServer, type HostileKind } from '../fixtures/hostile-server';
import type { CaseResult } from './report';

/**
 * `sync` against servers that misbehave, on 127.0.0.1 only, with garbage collections forced
 * throughout (a collected timeout signal once made a request wait forever).
 */

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const KEY = 'ml_chaos_server_key';
const TIMEOUT_MS = 2_000;
const BOUND_S = 30;

const labels: Record<HostileKind, string> = {
  hang: 'never answers',
  trickle: 'trickles a byte every 200 ms',
  huge: 'sends an error body that never ends',
};

export async function serverCases(work: string, lib: string): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const kind of ['hang', 'trickle', 'huge'] as const) {
    const server = await startHostileServer(kind, { trickleEveryMs: 200 });
    process.env.MECHLENS_API_URL = server.url;
    process.env.MECHLENS_API_KEY = KEY;
    const service = new PairwiseService({
      dbPath: path.join(work, `sync-${kind}.db`),
      host: 'cli',
      version: 'chaos',
      watch: false,
      indexWorkers: 1,
      sync: { timeoutMs: TIMEOUT_MS, baseDelayMs: 10, maxDelayMs: 50, maxWaitMs: 3_000 },
    });
    const failures: string[] = [];
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      gc();
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const started = Date.now();
    let summary = '';
    try {
      await service.index([lib]);
      const bound = new Promise<'hung'>((resolve) =>
        setTimeout(() => resolve('hung'), BOUND_S * 1000).unref(),
      );
      const outcome = await Promise.race([service.sync.pass(new AbortController().signal), bound]);
      const seconds = (Date.now() - started) / 1000;
      if (outcome === 'hung') failures.push(`the pass was still running after ${BOUND_S} s`);
      else {
        if (outcome.synced > 0) failures.push(`${outcome.synced} items counted as synced`);
        const status = await service.sync.status(1000);
        const errors = status.items.map((i) => i.lastError ?? '').join('\n');
        if (errors.includes(KEY)) failures.push('the key appears in a stored error');
        summary = `pass ended in ${seconds.toFixed(1)} s with ${outcome.waiting} items left to retry; peak RSS +${Math.round((peak - baseline) / 1e6)} MB; server wrote ${server.written().toLocaleString('en-US')} bytes of body`;
      }
      if (peak - baseline > 256e6)
        failures.push(`memory grew by ${Math.round((peak - baseline) / 1e6)} MB`);
    } finally {
      clearInterval(sampler);
      delete process.env.MECHLENS_API_URL;
      delete process.env.MECHLENS_API_KEY;
      await server.close();
      await service.close();
    }
    results.push({
      name: `Sync server that ${labels[kind]}`,
      runs: 1,
      failures: failures.length,
      notes: failures[0] ?? summary,
    });
  }
  return results;
}
