import type { OutboxItem } from '../../shared/findings';
import { PairwiseService } from '../core/service';
import type { SendOutcome } from '../core/sync/client';
import { UsageError, type Io } from './commands';
import { defaultDbPath, packageVersion } from './paths';

/**
 * `pairwise sync`: queue the current runs and send the outbox to MechLens. The key comes only
 * from MECHLENS_API_KEY; the address from MECHLENS_API_URL or the saved setting. Nothing
 * printed here contains the key.
 */

function describe(item: OutboxItem): string {
  return `${item.kind} ${item.idempotencyKey}`;
}

function line(item: OutboxItem, outcome: SendOutcome): string {
  switch (outcome.kind) {
    case 'synced':
      return `synced    ${describe(item)}${item.remoteUrl ? ` → ${item.remoteUrl}` : ''}`;
    case 'rejected':
      return `rejected  ${describe(item)}: ${item.lastError ?? ''}`;
    case 'stop':
      return `stopped   ${describe(item)}: ${outcome.message}`;
    case 'retry':
      return `retrying  ${describe(item)} at ${item.nextAttemptAt ?? 'once possible'}: ${outcome.message}`;
  }
}

export async function syncCommand(
  flags: { db?: string; 'dry-run'?: boolean },
  io: Io,
): Promise<number> {
  const service = new PairwiseService({
    dbPath: defaultDbPath(flags.db),
    host: 'cli',
    version: packageVersion(),
  });
  try {
    await service.converted();
    const status = await service.sync.status(1);
    if (flags['dry-run']) {
      const plan = service.sync.plan();
      io.out(
        `Would queue ${plan.newRuns.length} run(s) and send ${plan.queued.length + plan.newRuns.length} item(s) in order:`,
      );
      for (const item of plan.queued) io.out(`  ${describe(item)} (${item.state})`);
      for (const runId of plan.newRuns) io.out(`  run ${runId} (new)`);
      if (!status.configured)
        io.out('Sync is not set up: set MECHLENS_API_URL and MECHLENS_API_KEY to send.');
      return 0;
    }
    if (!status.configured)
      throw new UsageError(
        'Sync is not set up: set MECHLENS_API_KEY, and MECHLENS_API_URL (or save an address in the app).',
      );
    io.out(`Syncing with ${status.endpoint}…`);
    const result = await service.sync.pass(new AbortController().signal, (item, outcome) =>
      io.out(line(item, outcome)),
    );
    io.out(
      `${result.enqueued} run(s) queued; ${result.synced} synced, ${result.rejected} rejected, ${result.waiting} still waiting.`,
    );
    if (result.stopped) {
      io.err(`pairwise: ${result.stopped}`);
      return 1;
    }
    return result.rejected > 0 || result.waiting > 0 ? 1 : 0;
  } finally {
    await service.close();
  }
}
