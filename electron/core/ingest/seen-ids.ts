/**
 * The ids of a run's examples read so far, each with its example number (from 1, in file
 * order), so that a duplicate is refused wherever it falls. Most runs write their ids in
 * increasing order: while they come so, an id greater than the last cannot repeat one, and
 * they are only listed. The first id out of order turns the list into a map, since any id
 * after it may repeat an earlier one. A map of a million ids cost some 350 ms of hashing and
 * 40 MB; the list, 30 ms and the references.
 */
export class SeenIds {
  private readonly inOrder: string[] = [];
  private byId: Map<string, number> | null = null;

  /**
   * Notes `id` as example `n`'s, unless an earlier example has it: then returns that one's
   * number and notes nothing. Examples are added one after another from the first.
   */
  add(id: string, n: number): number | undefined {
    if (this.byId === null) {
      const count = this.inOrder.length;
      if (count === 0 || id > this.inOrder[count - 1]!) {
        this.inOrder.push(id);
        return undefined;
      }
      this.byId = new Map();
      for (let i = 0; i < count; i++) this.byId.set(this.inOrder[i]!, i + 1);
      this.inOrder.length = 0;
    }
    const earlier = this.byId.get(id);
    if (earlier === undefined) this.byId.set(id, n);
    return earlier;
  }

  has(id: string): boolean {
    if (this.byId) return this.byId.has(id);
    let low = 0;
    let high = this.inOrder.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const seen = this.inOrder[mid]!;
      if (seen === id) return true;
      if (seen < id) low = mid + 1;
      else high = mid - 1;
    }
    return false;
  }
}
