import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

/**
 * main: the Electron main process plus every Node entry that shares the core (the CLI, the
 * browser host it starts, and the worker threads), so one build serves all three hosts.
 */
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // Bundled: from its package, zod's classic build evaluated every locale, about half of an
      // index worker's start (docs/architecture.md, "Hosts").
      externalizeDeps: { exclude: ['zod'] },
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'electron/main/index.ts'),
          cli: resolve(__dirname, 'electron/cli/pairwise.ts'),
          'index.worker': resolve(__dirname, 'electron/workers/index.worker.ts'),
          'core.worker': resolve(__dirname, 'electron/workers/core.worker.ts'),
          'compare.worker': resolve(__dirname, 'electron/workers/compare.worker.ts'),
          'search.worker': resolve(__dirname, 'electron/workers/search.worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: { input: { index: resolve(__dirname, 'electron/preload/index.ts') } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
    },
  },
});
