import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Coverage } from '../../../renderer/features/comparison/CoverageCriteria';
import { compareRuns } from '../../../shared/compare/report';
import { comparisonView } from '../../../shared/report-view';
import { makeExample, makeExperiment, makeRun } from '../../fixtures/compare';

/** Ten examples a side; `errored` ids failed on that side. */
function run(runId: string, conditionName: string, errored: number[]) {
  return makeRun({
    runId,
    conditionName,
    examples: Array.from({ length: 10 }, (_, i) =>
      makeExample(`ex-${i}`, { score: i % 2 }, errored.includes(i) ? { error: 'timeout' } : {}),
    ),
  });
}

function coverageText(refErrored: number[], candErrored: number[]): string {
  const comparison = compareRuns(
    makeExperiment(),
    run('run-ref', 'base', refErrored),
    run('run-cand', 'steered', candErrored),
    { resamples: 100 },
  );
  const html = renderToStaticMarkup(
    createElement(Coverage, { comparison: comparisonView(comparison), pair: 0 }),
  );
  return html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
}

describe('the coverage card from the counted report', () => {
  it('shows the errored examples when only one side has any', () => {
    expect(coverageText([], [3, 4])).toContain('errored (left out) 0 in base, 2 in steered');
    expect(coverageText([5], [])).toContain('errored (left out) 1 in base, 0 in steered');
  });

  it('says nothing of errors when no example errored', () => {
    expect(coverageText([], [])).not.toContain('errored');
  });
});
