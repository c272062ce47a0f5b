/**
 * Loaded explorer rows as the pages that brought them. Appending a page shares the pages already
 * held instead of copying every row into a new array, so the cost of the 50th page is the cost
 * of the first: what grows with the scroll is a list of page references, not of rows.
 */
export class RowPages<T> {
  private constructor(
    private readonly pages: readonly (readonly T[])[],
    /** Index of each page's first row; one more entry than pages, the last is the length. */
    private readonly starts: readonly number[],
  ) {}

  static empty<T>(): RowPages<T> {
    return new RowPages<T>([], [0]);
  }

  get length(): number {
    return this.starts[this.starts.length - 1]!;
  }

  /** A new store with the page at the end; this one is left as it was. */
  append(rows: readonly T[]): RowPages<T> {
    if (rows.length === 0) return this;
    return new RowPages([...this.pages, rows], [...this.starts, this.length + rows.length]);
  }

  at(index: number): T | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return undefined;
    // Binary search over page starts: pages need not all be the same size.
    let lo = 0;
    let hi = this.pages.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return this.pages[lo]![index - this.starts[lo]!];
  }

  /** The rows from start up to (not including) end that are loaded, in order. */
  slice(start: number, end: number): T[] {
    const rows: T[] = [];
    for (let i = Math.max(0, start); i < Math.min(end, this.length); i++) rows.push(this.at(i)!);
    return rows;
  }
}
