import { describe, expect, it } from 'vitest';
import { afterOpening, inputLine, sharedOpening } from '../../shared/input-opening';

const TEMPLATE = '<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\n';

describe("the opening an explorer page's inputs share", () => {
  it('is the chat template or few-shot block every input starts with, cut at a word', () => {
    const inputs = [
      `${TEMPLATE}Question: How many pages will Jack read?`,
      `${TEMPLATE}Question: How far did the birds fly?`,
      `${TEMPLATE}Question: Howard has 3 apples.`,
    ];
    // "How" is shared, but ends inside "Howard": the cut goes back to the word's start.
    expect(sharedOpening(inputs)).toBe(`${TEMPLATE}Question: `);
    expect(afterOpening(inputs[2]!, sharedOpening(inputs), null)).toEqual({
      text: 'Howard has 3 apples.',
      cut: true,
    });
  });

  it('is nothing for one input, a short shared start, or inputs with nothing in common', () => {
    expect(sharedOpening([`${TEMPLATE}a`])).toBe('');
    expect(sharedOpening(['Question: one thing', 'Question: another'])).toBe('');
    expect(sharedOpening(['alpha', 'beta'])).toBe('');
    expect(sharedOpening([])).toBe('');
  });

  it('leaves something of every input, skips inputs it could not read, never splits a character', () => {
    expect(sharedOpening([TEMPLATE, `${TEMPLATE}More`, ''])).toBe(
      '<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n',
    );
    const emoji = `${'x '.repeat(15)}\u{1F600}`;
    const opening = sharedOpening([`${emoji}a`, `${emoji.slice(0, -1)}\uDE01b`]);
    expect(opening).toBe('x '.repeat(15));
  });

  it('is left in a cell whose input lacks it, and where a search hits only inside it', () => {
    const opening = `${TEMPLATE}Question: `;
    expect(afterOpening('Other text', opening, null)).toEqual({ text: 'Other text', cut: false });
    const text = `${opening}How far?`;
    expect(afterOpening(text, opening, /(?<!\p{L})begin/giu)).toEqual({ text, cut: false });
    expect(afterOpening(text, opening, /(?<!\p{L})far/giu)).toEqual({
      text: 'How far?',
      cut: true,
    });
  });
});

describe("the comparison page's changed examples", () => {
  it('show each input after the opening the listed ones share, on one line', () => {
    const inputs = [`${TEMPLATE}Tom has 3 apples.`, `${TEMPLATE}${'Ann '.repeat(50)}`];
    const opening = sharedOpening(inputs);
    expect(inputLine(inputs[0]!, opening, 140)).toBe('… Tom has 3 apples.');
    expect(inputLine(inputs[1]!, opening, 140)).toBe(`… ${'Ann '.repeat(35)}…`);
    expect(inputLine('short', '', 140)).toBe('short');
  });
});
