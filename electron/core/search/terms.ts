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
 * itself (case, diacritics) exactly as it folds a query's word; and the index's term list.
 * Temp tables are the connection's own, so a read-only connection has them too.
 */
function statements(db: Db): Statements {
  let found = prepared.get(db);
  if (!found) {
    db.exec(`
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_fold
        USING fts5(word, content='', tokenize='unicode61', detail=none);
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_fold_terms
        USING fts5vocab(temp, search_fold, row);
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.examples_fts_terms
        USING fts5vocab(main, examples_fts, row);`);
    found = {
      fold: db.prepare(`INSERT INTO temp.search_fold (rowid, word) VALUES (1, ?)`),
      folded: db.prepare(`SELECT term FROM temp.search_fold_terms`).pluck(),
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
  s.fold.run(text);
  const terms = s.folded.all() as string[];
  s.clear.run();
  return terms;
}

/**
 * Past every term that begins with a prefix, in the index's bytewise order: no term holds
 * U+10FFFF, a noncharacter, which unicode61 never keeps in a word. The term list counts each
 * term's matches as it lists it, so a bound spares it the first term past the prefix.
 */
const PAST = '\u{10FFFF}';

/**
 * The index's terms that begin with `prefix`, in the index's order (bytewise, so those that
 * begin with it come one after another); null when there are more than MAX_TERMS.
 */
function termsFrom(s: Statements, prefix: string): string[] | null {
  const found: string[] = [];
  for (const term of s.terms.iterate(prefix, prefix + PAST) as IterableIterator<string>) {
    if (!term.startsWith(prefix)) break;
    if (found.length === MAX_TERMS) return null;
    found.push(term);
  }
  return found;
}

const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;

/**
 * The FTS5 query for a search's words, each a prefix (`"word"*`), with a word of one term and
 * few completions asked as an OR of those exact terms instead. It matches the same rows: a
 * prefix matches a text holding any term that begins with it. FTS5 gathers a prefix's matches
 * from every term and every segment into one list before it reads any, while exact terms are
 * read as they are stored: 2–2.5× faster for a common word. A word that FTS5 would cut into
 * several terms, or whose completions are many, stays a prefix. Null when some word begins no
 * term of the index: the search then matches no text.
 */
export function exactTermsQuery(db: Db, words: string[]): string | null {
  const s = statements(db);
  const parts: string[] = [];
  for (const word of words) {
    const folded = fold(s, word);
    const terms = folded.length === 1 ? termsFrom(s, folded[0]!) : null;
    if (terms && terms.length === 0) return null;
    // A term asked for as it is must be cut back into itself, or the OR would ask another term.
    const exact = terms?.every((term) => {
      const again = fold(s, term);
      return again.length === 1 && again[0] === term;
    });
    parts.push(exact ? `(${terms!.map(quoted).join(' OR ')})` : `${quoted(word)}*`);
  }
  return parts.join(' AND ');
}
