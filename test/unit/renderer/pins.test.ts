import { describe, expect, it } from 'vitest';
import type { Pin } from '../../../shared/findings';
import { shownPins, withoutPin, withPinNote } from '../../../renderer/features/findings/pins';

function pin(exampleId: string, pair = 0, note = '', reportKey = 'k1'): Pin {
  return { reportKey, pair, exampleId, note, reference: null, candidate: null };
}

function ref({ reportKey, pair, exampleId, note }: Pin) {
  return { reportKey, pair, exampleId, note };
}

describe('pinned examples in the editor', () => {
  const saved = [pin('ex1', 0, 'saved note'), pin('ex2', 0), pin('ex1', 1)];

  it("shows the saved pins the draft still holds, with the draft's notes", () => {
    const draft = [{ ...ref(saved[0]!), note: 'typed' }, ref(saved[2]!)];
    const shown = shownPins(saved, draft);
    expect(shown.map((p) => [p.exampleId, p.pair, p.note])).toEqual([
      ['ex1', 0, 'typed'],
      ['ex1', 1, ''],
    ]);
  });

  it('drops a saved pin the draft holds under another report', () => {
    expect(shownPins(saved, [{ ...ref(saved[1]!), reportKey: 'k2' }])).toEqual([]);
  });

  it('notes and unpins one example of one pair, leaving the same id in another pair', () => {
    const draft = saved.map(ref);
    expect(withPinNote(draft, saved[2]!, 'why').map((p) => p.note)).toEqual([
      'saved note',
      '',
      'why',
    ]);
    expect(withoutPin(draft, saved[0]!).map((p) => [p.exampleId, p.pair])).toEqual([
      ['ex2', 0],
      ['ex1', 1],
    ]);
  });
});
