import { defineConfig } from '@playwright/test';
import { chromiumArgs, systemChromium } from './test/e2e/browser';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: /.*\.spec\.ts$/,
  timeout: 60_000,
  workers: 1,
  reporter: [['list']],
  use: {
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      ...(systemChromium ? { executablePath: systemChromium } : {}),
      args: chromiumArgs,
    },
  },
});
