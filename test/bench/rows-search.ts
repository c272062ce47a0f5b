/**
 * The rows of the search phase: how long a first search waits right after indexing and on an
 * archived library whose full-text index was dropped, how the service's thread fares while
 * the fill writes, and later searches once the index is ready.
 */

import { ms, secs } from './measure';
import type { SearchResult } from './phase-search';
import { n, type LibraryResult } from './results';
import type { Row } from './rows';

const FIRST_TARGET = 5;
const LATER_TARGET = 0.3;

function freshRow(area: string, s: SearchResult, targets: boolean): Row[] {
  const f = s.fresh;
  if (!f) return [];
  return [
    {
      area,
      what: 'first search right after indexing: a fresh index of the folder, texts still in their source files',
      result: `${secs(f.seconds)} (CPU ${secs(f.cpuSeconds)}; ${Math.round(f.locatedShare * 100)}% of the text blocks read from the source files)`,
      target: targets ? `< ${FIRST_TARGET} s` : '',
      met: targets ? (f.seconds < FIRST_TARGET ? 'yes' : 'no') : '',
      why: `the pair's runs are not in the full-text index yet, so the search is answered by scanning their ${n(s.examples)} examples' texts in two workers (one run each), with the index's own semantics (docs/search.md): ASCII texts searched where they lie in the source file, anything past ASCII asked of a scratch FTS5 table, each match checked against its text's hash.`,
    },
  ];
}

function firstRow(area: string, s: SearchResult, targets: boolean): Row {
  const rate = s.examples / s.firstSearchSeconds;
  return {
    area,
    what: 'first search on the archived library after its full-text index was dropped (as a rebuild leaves it), asked as the service starts filling',
    result: `${secs(s.firstSearchSeconds)} (every run searchable after ${secs(s.readySeconds)}; ${n(rate)} examples/s; the process used ${secs(s.fillCpuSeconds)} of CPU meanwhile)`,
    target: targets ? `< ${FIRST_TARGET} s` : '',
    met: targets ? (s.firstSearchSeconds < FIRST_TARGET ? 'yes' : 'no') : '',
    why: `the scan inflates each archived block's input and output sections (~800 MB per run of a million, ~2.1 s of one core, which no reading of these blocks avoids) and tests each line where it lies (docs/search.md), one run per worker; the workers start from TypeScript source here, the fill's first slice shares the two cores with them, and the machine is shared. The archive runs after the fill, so a library is in this state only when its full-text index is rebuilt.`,
  };
}

function lockRow(area: string, s: SearchResult): Row {
  return {
    area,
    what: "the service's thread while the worker fills",
    result: `its writes waited up to ${ms(s.longestWriteWaitSeconds)}, blocked up to ${ms(s.blockedSeconds)} at once; fill transactions held the lock up to ${ms(s.longestHoldSeconds)}, ${n(s.longHolds)} of ${n(s.transactions)} over 50 ms`,
    target: '≤ ~50 ms',
    met: s.longestWriteWaitSeconds <= 0.06 ? 'yes' : 'no',
    why: "each fill transaction is sized to hold the write lock ~30 ms by its own timing, then leaves it free until a writer asleep in SQLite's busy handler has tried again, so a write waits about one transaction; that timing counts the time the worker waits for a core: on a busy machine a transaction that needs 30 ms of CPU can hold the lock several times that, and FTS5 merges segments inside some of them.",
  };
}

function laterRow(area: string, s: SearchResult, targets: boolean): Row {
  const slowest = [...s.searches].sort((a, b) => b.seconds - a.seconds)[0];
  return {
    area,
    what: `later searches of new words, first page: p50 / p95 wall (CPU) over ${s.searches.length} (common and rare)`,
    result: `${ms(s.p50)} / ${ms(s.p95)} (CPU ${ms(s.cpuP50)} / ${ms(s.cpuP95)})${slowest ? `; slowest: "${slowest.word}" (${slowest.kind}) ${ms(slowest.seconds)}` : ''}`,
    target: targets ? `p95 < ${LATER_TARGET * 1000} ms` : '',
    met: targets ? (s.p95 < LATER_TARGET ? 'yes' : 'no') : '',
    why: "a common word's matches are most of the pair's 2 million examples, each read from the index and marked (a word of few completions is asked as an OR of its exact terms, which FTS5 reads as stored; a prefix it gathers over the whole index first); a rare word's first page lies all over the pair and decodes a text block for nearly every row.",
  };
}

export function searchRows(label: string, lib: LibraryResult, targets: boolean): Row[] {
  const area = `search, ${label}`;
  const s = lib.search;
  if (!s)
    return [{ area, what: '', result: lib.errors.join('; ') || 'not run', target: '', met: '' }];
  return [
    ...freshRow(area, s, targets),
    firstRow(area, s, targets),
    lockRow(area, s),
    laterRow(area, s, targets),
  ];
}
