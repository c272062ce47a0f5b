import { defineConfig } from 'vitest/config';
import { testOptions } from './vitest.config.mts';

/**
 * The slow audits, out of `npm test` so it stays quick here and still run by CI: crash kills
 * (index, compare, finding saves), the Electron security audit, and packaging.
 */
export default defineConfig({
  test: { ...testOptions, include: ['test/audits/**/*.test.ts'] },
});
