import { defineConfig } from 'vitest/config';

/** Shared by `npm test` (unit + integration) and `npm run test:audits` (vitest.audits.config.mts). */
export const testOptions = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks',
} as const;

export default defineConfig({
  test: {
    ...testOptions,
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
  },
});
