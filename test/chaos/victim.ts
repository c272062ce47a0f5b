/**
 * A child process for the chaos suite's kill cases: it opens the library and does one kind of
 * work until it is killed, printing a line for each thing it has confirmed (a finding revision
 * saved), so the parent can check that nothing confirmed was lost.
 *
 *   tsx test/chaos/victim.ts <index|compare|save|sync> <db> <library folder>
 *
 * `index` runs without end too (each pass after touching every run file); `sync` ends.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PairwiseService } from '../../electron/core/service';
import type { OpenedFinding, SavedRevision } from '../../shared/findings';
import { callOk } from '../fixtures/service';

async function run(): Promise<void> {
  const [action, dbPath, lib] = process.argv.slice(2) as [string, string, string];
  const runsDir = path.join(lib, '.mechlens', 'runs');
  const service = new PairwiseService({
    dbPath,
    host: 'cli',
    version: 'chaos',
    watch: false,
    indexWorkers: 2,
    sync: { timeoutMs: 2_000, baseDelayMs: 10, maxDelayMs: 50, maxWaitMs: 2_000 },
  });
  process.stdout.write('ready\n');
  if (action === 'index') {
    // Every pass re-reads every file (a newer mtime), so a kill lands on real work.
    for (let pass = 1; ; pass++) {
      const when = new Date(Date.now() + pass * 1000);
      for (const name of fs.readdirSync(runsDir))
        fs.utimesSync(path.join(runsDir, name), when, when);
      await service.index([lib]);
    }
  } else if (action === 'compare') {
    for (let seed = 0; ; seed++)
      await service.compare.run({ experimentId: 'exp-chaos', resamples: 2_000 + seed });
  } else if (action === 'save') {
    const view = await callOk<OpenedFinding>(service, 'findings:create', {
      experimentId: 'exp-chaos',
      resamples: 200,
    });
    const { question, claim, protocol, limitations } = view.body;
    let revision = view.revision;
    for (let i = 0; ; i++) {
      const saved = await callOk<SavedRevision>(service, 'findings:save', {
        findingId: view.finding.id,
        baseRevision: revision,
        body: { question, claim, protocol, conclusion: `edit ${i}`, limitations, pinned: [] },
      });
      revision = saved.revision;
      process.stdout.write(`saved ${saved.finding.id} ${saved.revision}\n`);
    }
  } else if (action === 'sync') {
    await service.sync.pass(new AbortController().signal);
  }
  await service.close();
  process.stdout.write('done\n');
}

run().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
