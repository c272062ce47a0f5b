import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../electron/core/dispatch';
import { editableBody } from '../../shared/finding-body';
import type { EditableBody, OpenedFinding, SavedRevision, Staleness } from '../../shared/findings';
import { examples, writeMechlensRun, type ExampleSpec } from '../fixtures/formats';
import { callOk, makeService, type Harness } from '../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

function call<T>(name: string, input: unknown): Promise<T> {
  return callOk<T>(harness!.service, name, input);
}

async function callError(name: string, input: unknown): Promise<{ code: string; message: string }> {
  const result = await dispatch(harness!.service, name, input);
  if (result.ok) throw new Error(`${name} should have failed`);
  return result.error;
}

const HOSTILE_OUTPUT = '<img src=x onerror=alert(1)></pre><script>alert(2)</script> ``` end';

function steerExamples(refusedEvery: number): ExampleSpec[] {
  return examples(40, (i) => ({ refused: i % refusedEvery === 0, score: (i % 5) + 1 })).map(
    (e, i) => (i === 0 ? { ...e, output: HOSTILE_OUTPUT } : e),
  );
}

function writeSteer(root: string, refusedEvery: number): string {
  return writeMechlensRun(root, {
    id: 'steer',
    name: 'steer',
    experiment: { id: 'exp-test', role: 'intervention' },
    condition: { expect: { refusal_rate: 'decrease' }, compare_to: [], series: null, level: null },
    examples: steerExamples(refusedEvery),
    extra: { metrics: { refusal_rate: 1 / refusedEvery } },
  });
}

function library(dir: string): string {
  const root = path.join(dir, 'lib');
  writeMechlensRun(root, { id: 'ref', name: 'reference', examples: examples(40) });
  writeSteer(root, 4);
  writeMechlensRun(root, {
    id: 'ctrl',
    name: 'control',
    experiment: { id: 'exp-test', role: 'control' },
    examples: examples(41),
  });
  return root;
}

async function draft(): Promise<{ root: string; view: OpenedFinding }> {
  harness = makeService();
  const root = library(harness.dir);
  await harness.service.index([root]);
  const view = await call<OpenedFinding>('findings:create', {
    experimentId: 'exp-test',
    resamples: 500,
  });
  return { root, view };
}

function editable(view: OpenedFinding, change: Partial<EditableBody> = {}): EditableBody {
  return { ...editableBody(view), ...change };
}

describe('findings', () => {
  it('drafts from the evidence and leaves the conclusion to the researcher', async () => {
    const { view } = await draft();
    const { body } = view;
    expect(view.revision).toBe(1);
    expect(view.finding.experimentId).toBe('exp-test');
    expect(body.question).toBe('Does the intervention change refusals?');
    expect(body.claim).toBe('It lowers refusals.');
    expect(body.conclusion).toBe('');
    for (const needle of [
      'org/model',
      'abc123',
      'prompts',
      'split test',
      'n = 40',
      'n = 41',
      'seed 7',
      'Checker version: 1',
      'Statistics: 95 % intervals',
    ])
      expect(body.protocol).toContain(needle);
    expect(body.limitations.length).toBeGreaterThan(0);
    expect(body.limitations.every((l) => l.origin === 'candidate' && l.status === 'proposed')).toBe(
      true,
    );
    expect(body.limitations.some((l) => /Small sample/.test(l.text))).toBe(true);
    expect(body.limitations.some((l) => /ex-041/.test(l.text))).toBe(true);
    expect(body.snapshot.runs.map((r) => r.runId).sort()).toEqual(['ctrl', 'ref', 'steer']);
    expect(body.snapshot.runs.every((r) => /^[0-9a-f]{64}$/.test(r.sourceSha256 ?? ''))).toBe(true);
    // The statistics the report used, named per method: never a method it did not use.
    expect(body.snapshot.bootstrap.resamples).toBe(500);
    expect(body.snapshot.bootstrap.method).toMatch(/^95 % intervals: .*(Tango|Student t)/);
    expect(body.snapshot.bootstrap.method).not.toMatch(/percentile bootstrap/);
    expect(body.protocol).toContain(`- Statistics: ${body.snapshot.bootstrap.method}`);
    const list = await call<{ id: string; syncState: string }[]>('findings:list', {
      experimentId: 'exp-test',
    });
    expect(list).toEqual([expect.objectContaining({ id: view.finding.id, syncState: 'pending' })]);
  });

  it('saves revisions, refuses a stale base revision, lists and restores', async () => {
    const { view } = await draft();
    const id = view.finding.id;
    const limitations = view.body.limitations.map((l, i) =>
      i === 0
        ? { ...l, status: 'accepted' as const }
        : i === 1
          ? { ...l, status: 'dismissed' as const }
          : l,
    );
    const second = await call<SavedRevision>('findings:save', {
      findingId: id,
      baseRevision: 1,
      body: editable(view, { conclusion: 'The steer lowers refusals.', limitations }),
    });
    expect(second.revision).toBe(2);
    // A save answers with its revision alone: the evidence is carried over, not sent back.
    expect(second).not.toHaveProperty('body');
    const secondView = await call<OpenedFinding>('findings:get', { findingId: id, revision: 2 });
    expect(secondView.body.snapshot).toEqual(view.body.snapshot);
    const third = await call<SavedRevision>('findings:save', {
      findingId: id,
      baseRevision: 2,
      body: editable(secondView, { conclusion: 'Second thoughts.' }),
      title: 'Refusals drop under steering',
    });
    expect(third.finding.title).toBe('Refusals drop under steering');
    const conflict = await callError('findings:save', {
      findingId: id,
      baseRevision: 2,
      body: editable(secondView, { conclusion: 'From a stale window.' }),
    });
    expect(conflict.code).toBe('conflict');
    expect((await call<OpenedFinding>('findings:get', { findingId: id })).body.conclusion).toBe(
      'Second thoughts.',
    );

    const revisions = await call<{ revision: number; summary: string }[]>('findings:revisions', {
      findingId: id,
    });
    expect(revisions.map((r) => r.revision)).toEqual([3, 2, 1]);
    expect(revisions[1]!.summary).toBe('The steer lowers refusals.');
    const old = await call<OpenedFinding>('findings:get', { findingId: id, revision: 2 });
    expect(old.body.conclusion).toBe('The steer lowers refusals.');

    const restored = await call<OpenedFinding>('findings:restore', { findingId: id, revision: 2 });
    expect(restored.revision).toBe(4);
    expect(restored.body).toEqual(old.body);
    const outbox = harness!.service.db
      .prepare(`SELECT idempotency_key FROM outbox WHERE kind = 'finding' ORDER BY id`)
      .all() as { idempotency_key: string }[];
    expect(outbox.map((o) => o.idempotency_key)).toEqual([1, 2, 3, 4].map((r) => `${id}:${r}`));
    expect((await callError('findings:get', { findingId: 'nope' })).code).toBe('not_found');
  });

  it('reports staleness after a run file changes, and refreshes only when asked', async () => {
    const { root, view } = await draft();
    const id = view.finding.id;
    expect(await call<Staleness>('findings:staleness', { findingId: id })).toEqual({
      stale: false,
      runs: [],
      changes: [],
    });
    writeSteer(root, 2);
    fs.utimesSync(
      path.join(root, '.mechlens/runs/steer.json'),
      new Date(),
      new Date(Date.now() + 10_000),
    );
    await harness!.service.index([root]);

    const stale = await call<Staleness>('findings:staleness', { findingId: id });
    expect(stale.stale).toBe(true);
    expect(stale.runs).toEqual([{ runId: 'steer', condition: 'steer', change: 'changed' }]);
    const refusal = stale.changes.find(
      (c) => c.metric === 'refusal_rate' && c.comparison === 'steer vs reference',
    );
    expect(refusal?.before?.difference).not.toBe(refusal?.after?.difference);
    expect(stale.changes.every((c) => c.comparison.startsWith('steer'))).toBe(true);
    // Looking is not refreshing: the finding still stands on its old evidence.
    expect((await call<OpenedFinding>('findings:get', { findingId: id })).revision).toBe(1);

    const refreshed = await call<OpenedFinding>('findings:refresh', { findingId: id });
    expect(refreshed.revision).toBe(2);
    expect(refreshed.body.snapshot.reportKey).not.toBe(view.body.snapshot.reportKey);
    expect(refreshed.body.protocol).toBe(view.body.protocol);
    expect((await call<Staleness>('findings:staleness', { findingId: id })).stale).toBe(false);
  });

  it('exports Markdown with metric rows and intervals', async () => {
    const { view } = await draft();
    const { filename, content } = await call<{ filename: string; content: string }>(
      'findings:export',
      { findingId: view.finding.id, format: 'markdown' },
    );
    expect(filename).toMatch(/^it-lowers-refusals-r1\.md$/);
    const steerRow = content
      .split('\n')
      .find((l) => l.startsWith('| steer vs reference | refusal_rate |'));
    expect(steerRow).toMatch(
      /\| 40 \| -?[\d.]+ \| \[-?[\d.]+, -?[\d.]+\] \| 500 \| decrease \| (consistent|inconclusive|inconsistent) \|$/,
    );
    expect(content).toContain('## Conclusion\n\n_No conclusion written yet._');
    // Proposed limitations are not the researcher's: they stay out until accepted.
    expect(content).toContain('## Limitations\n\n_None recorded._');
  });

  it('exports one self-contained HTML file where hostile text stays inert', async () => {
    const { view } = await draft();
    const id = view.finding.id;
    const { key, report } = harness!.service.compare.cached({
      experimentId: 'exp-test',
      resamples: 500,
    })!;
    const pair = report.comparisons.findIndex((c) => c.candidate.condition === 'steer');
    const pinned = await call<OpenedFinding>('findings:pin', {
      findingId: id,
      reportKey: key,
      pair,
      exampleId: 'ex-001',
      note: '<script>alert("note")</script>',
    });
    expect(pinned.body.pinned[0]!.candidate!.output).toBe(HOSTILE_OUTPUT);
    const hostile = '<img src=x onerror=alert(1)>';
    const saved = await call<SavedRevision>('findings:save', {
      findingId: id,
      baseRevision: pinned.revision,
      title: '<script>alert("title")</script>',
      body: editable(pinned, {
        claim: '[click me](javascript:alert(1)) <a href="javascript:alert(1)">x</a>',
        conclusion: `<script>alert(1)</script>\n${hostile}`,
        limitations: [
          { id: 'r1', text: hostile, origin: 'researcher', status: 'accepted' },
          { id: 'r2', text: 'Dismissed one', origin: 'researcher', status: 'dismissed' },
        ],
      }),
    });
    const { content: html, filename } = await call<{ filename: string; content: string }>(
      'findings:export',
      { findingId: id, format: 'html' },
    );
    expect(filename).toBe(`script-alert-title-script-r${saved.revision}.html`);

    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<a[\s>]/i);
    expect(html).not.toMatch(/<(link|iframe|object|embed|base|form|meta http-equiv="refresh")/i);
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?\s*https?:/i);
    expect(html).not.toMatch(/url\(/i);
    // Every real tag is one we write, with attributes we write; none is a handler or a URL.
    const allowedTags = new Set([
      'html',
      'head',
      'meta',
      'title',
      'style',
      'body',
      'h1',
      'h2',
      'h3',
      'h4',
      'p',
      'div',
      'table',
      'thead',
      'tbody',
      'tr',
      'th',
      'td',
      'ul',
      'li',
      'pre',
      'section',
      'hr',
      'svg',
      'line',
      'text',
      'circle',
    ]);
    for (const [, name, attrs] of html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g)) {
      expect(allowedTags).toContain(name!.toLowerCase());
      for (const [, attr] of attrs!.matchAll(/\s([^\s="]+)(?:="[^"]*")?/g)) {
        expect(attr!.toLowerCase()).not.toMatch(/^(on|href|src|xlink|style$|srcset)/);
      }
    }
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain(
      '[click me](javascript:alert(1)) &lt;a href=&quot;javascript:alert(1)&quot;&gt;x&lt;/a&gt;',
    );
    expect(html).toContain('&lt;/pre&gt;&lt;script&gt;alert(2)&lt;/script&gt; ``` end');
    expect(html).toContain(
      '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'">',
    );
    // The metrics table, the forest plot, the kept limitation and both full outputs are there.
    expect(html).toMatch(/<td>steer vs reference<\/td><td>refusal_rate<\/td>/);
    expect(html).toMatch(/<svg class="forest"[^>]*>.*<circle/s);
    expect(html).not.toContain('Dismissed one');
    expect(html).toContain('Answer number 1.');

    const markdown = (
      await call<{ content: string }>('findings:export', { findingId: id, format: 'markdown' })
    ).content;
    expect(markdown).toContain(`\`\`\`\`text\n${HOSTILE_OUTPUT}\n\`\`\`\``);
    // Outside the fenced example text, nothing from a run file or a draft becomes markup.
    const prose = markdown.replace(/^(`{4,})text\n[\s\S]*?\n\1$/gm, '');
    expect(prose).not.toMatch(/<(script|img|a)[\s>]/i);
    expect(prose).not.toMatch(/\]\(\s*javascript:/i);
    expect(prose).toContain('&lt;img src=x onerror=alert(1)>');
  });

  it('keeps pinned evidence: an editor can annotate or drop a pin but not invent one', async () => {
    const { view } = await draft();
    const { key } = harness!.service.compare.cached({ experimentId: 'exp-test', resamples: 500 })!;
    const pinned = await call<OpenedFinding>('findings:pin', {
      findingId: view.finding.id,
      reportKey: key,
      pair: 0,
      exampleId: 'ex-002',
    });
    const ref = pinned.body.pinned[0]!;
    const annotated = await call<SavedRevision>('findings:save', {
      findingId: view.finding.id,
      baseRevision: pinned.revision,
      body: editable(pinned, {
        pinned: [{ reportKey: key, pair: 0, exampleId: 'ex-002', note: 'Look here' }],
      }),
    });
    const reread = await call<OpenedFinding>('findings:get', { findingId: view.finding.id });
    expect(reread.revision).toBe(annotated.revision);
    expect(reread.body.pinned).toEqual([{ ...ref, note: 'Look here' }]);
    const invented = await callError('findings:save', {
      findingId: view.finding.id,
      baseRevision: annotated.revision,
      body: editable(reread, {
        pinned: [{ reportKey: key, pair: 0, exampleId: 'ex-009', note: '' }],
      }),
    });
    expect(invented.code).toBe('conflict');
  });
});
