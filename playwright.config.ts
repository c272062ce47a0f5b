import { defineConfig } from '@playwright/test';
import { chromiumArgs, systemChromium } from './test/e2e/browser';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: /.*\.spec\.ts$/,
  timeout: 60_000,
  // Each test serves its own host (own port, own data folder), so two run side by side.
  workers: 2,
  reporter: [['list']],
  use: {
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      ...(systemChromium ? { executablePath: systemChromium } : {}),
      args: chromiumArgs,
    },
  },
});
