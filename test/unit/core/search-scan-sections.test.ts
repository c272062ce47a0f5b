import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ftsWords } from '../../../electron/core/compare/filters';
import { wellFormed } from '../../../electron/core/ingest/limits';
import { scanTerms } from '../../../electron/core/search/scan';
import { ScanState, WholeRows } from '../../../electron/core/search/scan-rows';
import { SectionsScan } from '../../../electron/core/search/scan-sections';
import { prefixQuery } from '../../../electron/core/search/terms';
import { encodeSectionsBlock } from '../../../electron/core/texts/sections';
import { sectionTextsAndSearchesArb } from '../../fixtures/search-texts';

interface Texts {
  input: string;
  output: string;
}

/**
 * A block's matches for a search's words, by ordinal: scanned in its sections (in pieces of
 * at most `pieceBytes`, when given), or with each row read whole, the way older archived
 * blocks are decided (checked against FTS5 itself in search-scan.test.ts).
 */
function matches(
  db: Database.Database,
  texts: Texts[],
  words: string[],
  pieceBytes: number | 'whole rows',
): number[] | null {
  const terms = scanTerms(db, words);
  if (terms === null) return null;
  const state = new ScanState(texts.length, terms);
  const whole = new WholeRows(db, state, prefixQuery(words));
  if (pieceBytes === 'whole rows') texts.forEach((t, i) => whole.add(i, t.input, t.output));
  else {
    const rows = texts.map((t) => ({ ...t, fields: '{}', target: null, error: null }));
    new SectionsScan(state, whole, pieceBytes).block(encodeSectionsBlock(rows).data, 0);
  }
  whole.flush();
  return [...state.hits.keys()].filter((i) => state.hits[i]);
}

describe('the scan of an archived sections block', () => {
  it('matches what the rows read whole match, however its sections are cut into pieces', () => {
    fc.assert(
      fc.property(
        sectionTextsAndSearchesArb,
        fc.integer({ min: 1, max: 2000 }),
        ([raw, searches], pieceBytes) => {
          const texts = raw.map((t) => ({
            input: wellFormed(t.input),
            output: wellFormed(t.output),
          }));
          const db = new Database(':memory:');
          for (const words of searches.map(ftsWords)) {
            if (words === null) continue;
            expect(matches(db, texts, words, pieceBytes)).toEqual(
              matches(db, texts, words, 'whole rows'),
            );
          }
          db.close();
        },
      ),
      { numRuns: 100 },
    );
  });
});
