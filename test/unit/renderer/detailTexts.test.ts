import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  InputSection,
  OutputsSection,
  type Detail,
} from '../../../renderer/features/examples/DetailTexts';

type Side = NonNullable<Detail['reference']>;

function side(runId: string, over: Partial<Side> = {}): Side {
  return {
    run_id: runId,
    input: 'What is the capital of France?',
    output: `${runId} says Paris.`,
    fields: {},
    target: null,
    error: null,
    unavailable: null,
    ...over,
  };
}

const unread = (runId: string, reason: Side['unavailable']) =>
  side(runId, { input: '', output: '', unavailable: reason });

function render(reference: Side | null, candidate: Side | null): string {
  const detail: Detail = { example_id: 'ex-1', reference, candidate, classes: {} };
  const props = { detail, labels: { reference: 'base', candidate: 'steered' }, hit: null };
  return (
    renderToStaticMarkup(createElement(InputSection, props)) +
    renderToStaticMarkup(createElement(OutputsSection, props))
  );
}

const CHANGED = 'Source changed since indexing — re-index the folder to read this text.';
const MISSING = 'Source file is gone — its texts were not archived yet.';

describe('example detail texts', () => {
  it('diff two readable outputs word by word', () => {
    const html = render(side('ref'), side('cand'));
    expect(html).toContain('class="word-diff"');
    expect(html).not.toContain('text-unavailable');
  });

  it("show a side that could not be read as a sentence beside the other's text, with no diff", () => {
    const html = render(unread('ref', 'source-changed'), side('cand'));
    expect(html).not.toContain('word-diff');
    expect(html).not.toContain('differs between the runs');
    // Input and output: each side under its label, the unread one as the sentence.
    expect(html.split(CHANGED)).toHaveLength(3);
    expect(html).toContain('What is the capital of France?');
    expect(html).toContain('cand says Paris.');
    expect(html).toContain('<div class="diff-label" title="steered">steered</div>');
  });

  it('say it once when neither side could be read for the same reason', () => {
    const html = render(unread('ref', 'source-missing'), unread('cand', 'source-missing'));
    expect(html.split(MISSING)).toHaveLength(3);
    expect(html).not.toContain('diff-grid');
  });

  it('say why for an example in one run only', () => {
    const html = render(null, unread('cand', 'source-changed'));
    expect(html.split(CHANGED)).toHaveLength(3);
    expect(html).not.toContain('<pre');
  });
});
