/**
 * The open of a library of many experiments: the renderer phase opens libraries of one
 * experiment, where a researcher's holds hundreds, and at open the library renders a card per
 * experiment. The indexed 1gb library (100 experiments, 1,000 runs) is served by the browser
 * host and opened in pages no DevTools session is attached to, its long tasks read from a trace.
 */

import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { startServer } from '../../electron/server/http';
import { PairwiseService } from '../../electron/core/service';
import { openUninspected } from './open-uninspected';
import { buildRenderer, type Interaction, type RendererResult } from './phase-renderer';
import { reportProgress } from './progress';

export interface LibraryOpenArgs {
  dbPath: string;
  /** A temp folder for the renderer build. */
  buildDir: string;
  rounds: number;
}

const CHROMIUM = '/usr/bin/chromium';

export async function libraryOpenPhase(args: LibraryOpenArgs): Promise<RendererResult> {
  if (!fs.existsSync(CHROMIUM)) return { interactions: [], error: `no Chromium at ${CHROMIUM}` };
  reportProgress({ phase: 'building the renderer', done: 0, total: null });
  await buildRenderer(args.buildDir);
  const service = new PairwiseService({ dbPath: args.dbPath, host: 'browser', version: 'bench' });
  const server = await startServer({ service, rendererDir: args.buildDir, port: 0 });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
  const interactions: Interaction[] = [];
  try {
    for (let round = 1; round <= args.rounds; round++) {
      reportProgress({ phase: 'open the library', done: round - 1, total: args.rounds });
      const open = await openUninspected(browser, server.url);
      interactions.push({ ...open, label: `open ${round} of ${args.rounds}` });
    }
    return { interactions, error: null };
  } catch (error) {
    return { interactions, error: `the open stopped: ${String(error).split('\n')[0]}` };
  } finally {
    await browser.close();
    await server.close();
    await service.close();
  }
}
