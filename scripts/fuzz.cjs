#!/usr/bin/env node
/**
 * `npm run fuzz`: the property tests with many more runs and a fresh seed, and the large hostile
 * corpus (ten million examples, a 2 GiB sparse file, a 400 MB array bomb). `npm test` runs the
 * same files small and with a fixed seed. A failure prints its seed: replay it with
 * PAIRWISE_FUZZ_SEED=<seed> npm run fuzz.
 */
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const seed = process.env.PAIRWISE_FUZZ_SEED || String(Math.floor(Math.random() * 2 ** 31));
const runs = process.env.PAIRWISE_FUZZ_RUNS || '2000';
process.stdout.write(
  `fuzz: ${runs} runs per property, seed ${seed} (replay: PAIRWISE_FUZZ_SEED=${seed} npm run fuzz)\n`,
);
const files = [
  'test/integration/fuzz-importers.test.ts',
  'test/integration/fuzz-contract.test.ts',
  'test/integration/hostile.test.ts',
];
const result = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...files, ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      PAIRWISE_FUZZ_RUNS: runs,
      PAIRWISE_FUZZ_SEED: seed,
      PAIRWISE_FUZZ_LARGE: '1',
    },
  },
);
process.exit(result.status ?? 1);
