import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../electron/core/ingest/importers/csv-rows';
import type { OpenedFinding } from '../../shared/findings';
import { runCli } from '../fixtures/cli';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { callOk, makeService, type Harness } from '../fixtures/service';
import { tempDir } from '../fixtures/tmp';
import { cleanupsAfterEach } from '../fixtures/cleanups';

/**
 * Issue 17, point 1, end to end: a control sampled at temperature 0.7 against a reference at 0
 * gets no verdict in the CLI table, the summary CSV, the finding's candidate limitations and
 * both finding exports, which also carry the checks.
 */

const CONTROL = 'hf/google/gemma-2-2b-it steering.feature_id=0 steering.sae_id=random-control';

const cleanups = cleanupsAfterEach();

function library(dir: string): string {
  const root = path.join(dir, 'lib');
  writeMechlensRun(root, { id: 'ref', name: 'reference', examples: examples(30) });
  writeMechlensRun(root, {
    id: 'ctrl',
    name: CONTROL,
    experiment: { id: 'exp-test', role: 'control' },
    condition: { expect: { refusal_rate: 'no_effect' }, compare_to: [], series: null, level: null },
    examples: examples(30),
    extra: { generation: { max_new_tokens: 64, temperature: 0.7 } },
  });
  return root;
}

describe('a confounded pair in every export', () => {
  it('the CLI table says not comparable and names the setting', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const db = path.join(t.dir, 'p.db');
    expect(runCli(['index', library(t.dir), '--db', db]).status).toBe(0);
    const out = runCli(['compare', '--db', db, '--resamples', '200']);
    expect(out.status, out.stderr).toBe(0);
    const row = out.stdout.split('\n').find((l) => l.trimStart().startsWith('refusal_rate'));
    expect(row).toMatch(/no_effect\s+not comparable: generation\.temperature differs$/);
    expect(out.stdout).not.toMatch(/refusal_rate.*\bconsistent\b/);
  });

  it('the summary CSV, the candidate limitations and both finding exports', async () => {
    const harness: Harness = makeService();
    cleanups.push(() => harness.close());
    await harness.service.index([library(harness.dir)]);
    const { key } = await harness.service.compare.run({ experimentId: 'exp-test', resamples: 200 });

    const summary = await callOk<{ content: string }>(harness.service, 'export:summaryCsv', {
      reportKey: key,
    });
    const [head, ...rows] = parseCsv(summary.content.slice(1)).map((r) => r.cells);
    const row = Object.fromEntries(head!.map((h, i) => [h, rows[0]![i]]));
    expect(row).toMatchObject({
      verdict: 'not_comparable',
      not_comparable: 'generation.temperature',
    });

    const view = await callOk<OpenedFinding>(harness.service, 'findings:create', {
      experimentId: 'exp-test',
      resamples: 200,
    });
    const texts = view.body.limitations.map((l) => l.text);
    expect(
      texts.some((t) =>
        t.includes(
          'Not comparable: the runs were generated with different settings — generation.temperature (reference: 0, candidate: 0.7)',
        ),
      ),
    ).toBe(true);

    const markdown = await callOk<{ content: string }>(harness.service, 'findings:export', {
      findingId: view.finding.id,
      format: 'markdown',
    });
    expect(markdown.content).toContain('## Checks');
    // The statistics note reads as a sentence (it once said "intervals are 95% 95 % intervals").
    expect(markdown.content).toContain(
      'Differences are candidate − reference over paired examples. 95 % intervals:',
    );
    expect(markdown.content).not.toContain('95% 95 %');
    expect(markdown.content).toMatch(
      /Checks: \d+ match, 1 differ, \d+ unknown, \d+ not applicable\./,
    );
    expect(markdown.content).toContain('| generation.temperature | differs | 0 | 0.7 |');
    expect(markdown.content).toMatch(
      /\| refusal_rate \|.*\| no_effect \| not comparable: generation\.temperature differs \|/,
    );

    const html = await callOk<{ content: string }>(harness.service, 'findings:export', {
      findingId: view.finding.id,
      format: 'html',
    });
    expect(html.content).toContain('<h2>Checks</h2>');
    expect(html.content).toContain(
      '<tr><td>generation.temperature</td><td class="differs">differs</td><td class="text">0</td><td class="text">0.7</td></tr>',
    );
    expect(html.content).toContain(
      '<td class="not_comparable">not comparable: generation.temperature differs</td>',
    );
  });
});
