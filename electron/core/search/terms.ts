import type { Db } from '../db/open';

/**
 * Past this many index terms a word stays a prefix query. On 200,000 examples an OR of a
 * prefix's exact terms took 0.4–0.5× the prefix query's time up to ~20 terms, about the same
 * at ~30 and twice it at 300; listing the terms costs a walk of each one's matches too.
 */
const MAX_TERMS = 16;

interface Statements {
  fold: { run(word: string): unknown };
  folded: { all(): unknown[] };
  clear: { run(): unknown };
  terms: { iterate(from: string, to: string): IterableIterator<unknown> };
}

const prepared = new WeakMap<Db, Statements>();

/**
 * A scratch FTS5 table in the connection's temp schema, tokenized as the index is
 * (`unicode61`, as the migrations create `examples_fts`), so a word is cut and folded by FTS5
 * itself (case, diacritics) exactly as it folds a query's word, each of its terms listed
 * with its place (a word may be cut into the same term twice); and the index's term list.
 * Temp tables are the connection's own, so a read-only connection has them too.
 */
function statements(db: Db): Statements {
  let found = prepared.get(db);
  if (!found) {
    db.exec(`
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_fold
        USING fts5(word, content='', tokenize='unicode61');
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_fold_terms
        USING fts5vocab(temp, search_fold, instance);
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.examples_fts_terms
        USING fts5vocab(main, examples_fts, row);`);
    found = {
      fold: db.prepare(`INSERT INTO temp.search_fold (rowid, word) VALUES (1, ?)`),
      folded: db.prepare(`SELECT term FROM temp.search_fold_terms ORDER BY offset`).pluck(),
      clear: db.prepare(`INSERT INTO temp.search_fold (search_fold) VALUES ('delete-all')`),
      terms: db
        .prepare(`SELECT term FROM temp.examples_fts_terms WHERE term >= ? AND term < ?`)
        .pluck(),
    };
    prepared.set(db, found);
  }
  return found;
}

/** The index terms a text is cut into, as FTS5 cuts a query's quoted word. */
function fold(s: Statements, text: string): string[] {
  // Cleared first, so a fold that failed halfway leaves no row in the way of the next.
  s.clear.run();
  s.fold.run(text);
  return s.folded.all() as string[];
}

/**
 * Past every term that begins with a prefix, in the index's bytewise order: no term holds
 * U+10FFFF, a noncharacter, which unicode61 never keeps in a word. The term list counts each
 * term's matches as it lists it, so a bound spares it the first term past the prefix.
 */
const PAST = '\u{10FFFF}';

/**
 * Right after a term and before every longer term that begins with it: no term holds U+0000,
 * which unicode61 never keeps in a word either. Listing from the term itself counted its own
 * matches first: ~40 ms for a word in nearly all of two million examples, for a term the query
 * names anyway.
 */
const LONGER = '\u0000';

/**
 * The index's terms that begin with `prefix` and are longer, in the index's order (bytewise,
 * so those that begin with it come one after another); null when there are more than
 * MAX_TERMS less one (the prefix itself is the other).
 */
function longerTerms(s: Statements, prefix: string): string[] | null {
  const found: string[] = [];
  for (const term of s.terms.iterate(prefix + LONGER, prefix + PAST) as IterableIterator<string>) {
    if (!term.startsWith(prefix)) break;
    if (found.length === MAX_TERMS - 1) return null;
    found.push(term);
  }
  return found;
}

const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** A word as a prefix, as the search asked before: FTS5 cuts and folds it itself. */
const prefix = (word: string) => `${quoted(word)}*`;

/** The search's words each as a prefix: the query every faster form must agree with. */
export const prefixQuery = (words: string[]): string => words.map(prefix).join(' ');

/** Each word's index terms, as FTS5 cuts and folds it. */
export function foldWords(db: Db, words: string[]): string[][] {
  const s = statements(db);
  return words.map((word) => fold(s, word));
}

/**
 * One word's part of the query: an OR of its completions, or the word as a prefix. The folded
 * word is one of them whether or not the index holds it: an exact term that no text holds
 * matches nothing, as it adds nothing to the prefix.
 */
function wordQuery(s: Statements, word: string, folded: string[]): string {
  const longer = folded.length === 1 ? longerTerms(s, folded[0]!) : null;
  const terms = longer && [folded[0]!, ...longer];
  // A term asked for as it is must be cut back into itself, or the OR would ask another.
  const exact =
    terms !== null &&
    terms.every((term) => {
      const again = fold(s, term);
      return again.length === 1 && again[0] === term;
    });
  return exact ? `(${terms.map(quoted).join(' OR ')})` : prefix(word);
}

/**
 * The FTS5 query for a search's words, each a prefix (`"word"*`), with a word of one term and
 * a few completions asked as an OR of those exact terms instead. It matches the same rows: a
 * prefix matches a text holding any term that begins with it. FTS5 gathers a prefix's matches
 * from every term and every segment into one list before it reads any, while exact terms are
 * read as they are stored: 2–2.5× faster for a common word. A word whose completions are
 * many stays a prefix. A word FTS5 cuts into no term (a lone combining
 * mark) is left out, as FTS5 leaves it out of words joined without AND (joined with AND it
 * would match nothing). A search with a word FTS5 cuts into several terms (a phrase, which it
 * refuses without positions), or with no word left, is asked as before, and fails or matches
 * nothing as before.
 */
export function exactTermsQuery(db: Db, words: string[]): string {
  const s = statements(db);
  const folded = words.map((word) => [word, fold(s, word)] as const);
  const kept = folded.filter(([, terms]) => terms.length > 0);
  if (kept.length === 0 || kept.some(([, terms]) => terms.length > 1)) return prefixQuery(words);
  return kept.map(([word, terms]) => wordQuery(s, word, terms)).join(' AND ');
}
