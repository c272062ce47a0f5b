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

  it('name the run an error belongs to, and say it once when both runs failed alike', () => {
    const candidateOnly = render(side('ref'), side('cand', { error: 'RateLimitError' }));
    expect(candidateOnly).toContain('error in steered:</span> <span class="mono">RateLimitError');
    expect(candidateOnly).not.toContain('error in base');
    const different = render(
      side('ref', { error: 'Timeout after 60 s' }),
      side('cand', { error: 'RateLimitError' }),
    );
    expect(different).toContain('error in base:</span> <span class="mono">Timeout after 60 s');
    expect(different).toContain('error in steered:</span> <span class="mono">RateLimitError');
    const alike = render(
      side('ref', { error: 'RateLimitError' }),
      side('cand', { error: 'RateLimitError' }),
    );
    expect(alike.split('RateLimitError')).toHaveLength(2);
    expect(alike).toContain('error in both runs:');
  });

  it('show one target when both runs were graded against it, each run its own otherwise', () => {
    const same = render(side('ref', { target: 'Paris' }), side('cand', { target: 'Paris' }));
    expect(same).toContain('target:</span> <span class="mono">Paris');
    expect(same.split('Paris</span>')).toHaveLength(2);
    const differ = render(side('ref', { target: 'Paris' }), side('cand', { target: 'paris' }));
    expect(differ).toContain('target in base:</span> <span class="mono">Paris');
    expect(differ).toContain('target in steered:</span> <span class="mono">paris');
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
