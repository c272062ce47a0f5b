/**
 * The shape of a benchmark run's figures (also saved as JSON, for `--render`) and the few
 * formatting helpers both the rows and the document use.
 */

import type { GeneratedLibrary, LibrarySpec } from './generate';
import { MB, ms, secs, type CodeVersion, type Machine } from './measure';
import type { CompareResult } from './phase-compare';
import type { DuckResult } from './phase-duckdb';
import type { ExplorerQuery } from './phase-explorer';
import type { BaselineResult, IndexResult, OpenedPass } from './phase-index';
import type { RendererResult } from './phase-renderer';
import type { SearchResult } from './phase-search';
import type { PhaseMeta } from './spawn';

export interface LibraryResult {
  spec: LibrarySpec;
  bytes: GeneratedLibrary['bytes'];
  examples: number;
  files: number;
  generateSeconds: number;
  errors: string[];
  phases: PhaseMeta[];
  baseline?: BaselineResult;
  index?: IndexResult;
  /** Small libraries: a fresh service's first pass, its index workers started as it opened. */
  indexOpened?: OpenedPass;
  compare?: CompareResult;
  explorer?: ExplorerQuery[];
  renderer?: RendererResult;
  /** Libraries of many experiments: the app's open over them (phase-library-open.ts). */
  libraryOpen?: RendererResult;
  duckdb?: DuckResult;
  search?: SearchResult;
}

export interface BenchResults {
  date: string;
  sizes: string[];
  machine: Machine;
  explorerUi: boolean;
  /** Whether the phases ran the worker threads from the app's build (absent in older runs: no). */
  builtWorkers?: boolean;
  libraries: Partial<
    Record<'small' | 'pair100k' | '1gb' | 'pair1m' | 'pair1mShort', LibraryResult>
  >;
  totalSeconds: number;
  /** The product code at the start and at the end of the run. */
  code: { start: CodeVersion; end: CodeVersion | null };
}

export const n = (x: number) => Math.round(x).toLocaleString('en-US');
export const mb = (bytes: number) => `${n(bytes / MB)} MB`;
export const escape = (s: string) => s.replaceAll('|', '\\|');
export const showQuery = (q: ExplorerQuery) =>
  q.timedOut ? `> ${secs(q.seconds)} (stopped)` : ms(q.seconds);
