import fs from 'node:fs';
import path from 'node:path';
import { PairwiseService } from '../../electron/core/service';
import type { OpenedFinding, SavedRevision } from '../../shared/findings';
import { runCli } from '../fixtures/cli';
import { examples, writeFile, writeMechlensRun } from '../fixtures/formats';
import { callOk } from '../fixtures/service';
import type { CaseResult } from './report';

/**
 * Run files written to attack whoever reads Pairwise's output: a terminal (escape sequences in
 * names, ids and file names), a Markdown renderer (HTML and script links in a sidecar's
 * question and claim, model ids and condition names) and a spreadsheet (formulas behind line
 * breaks, ids that look alike).
 */

const ESCAPES = [
  '\u001b]52;c;cHduZWQ=\u0007',
  '\u001b]0;owned\u0007',
  '\u001b[2J',
  '\u009b31m',
  'a\rb',
];
const HTML = '<img src=x onerror=alert(1)><script>alert(2)</script>[x](javascript:alert(3))';

function hostileLibrary(dir: string): string {
  const lib = path.join(dir, 'hostile-lib');
  const texts = (i: number) => ({
    id: i === 0 ? '\n=cmd()' : i === 1 ? 'safe\u202egnp.exe' : `ex-${i}`,
  });
  writeMechlensRun(lib, {
    id: `ref${ESCAPES[0]}`,
    name: `reference${ESCAPES[1]}${HTML}`,
    experiment: { id: `exp-hostile${ESCAPES[2]}`, role: 'reference', claim: HTML },
    examples: examples(6).map((e, i) => ({ ...e, ...texts(i) })),
    extra: { model: { id: `org/model${ESCAPES[3]}${HTML}`, revision: 'r' }, question: HTML },
  });
  writeMechlensRun(lib, {
    id: 'int',
    name: `steer${ESCAPES[4]}${HTML}`,
    experiment: { id: `exp-hostile${ESCAPES[2]}`, role: 'intervention', claim: HTML },
    examples: examples(6, (i) => ({ refused: i % 2 === 0 })).map((e, i) => ({ ...e, ...texts(i) })),
    extra: { model: { id: `org/other${ESCAPES[3]}`, revision: 'r' }, question: HTML },
  });
  writeFile(lib, `.mechlens/runs/broken${ESCAPES[2]}.json`, '{"id": ');
  return lib;
}

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

export async function contentCases(work: string): Promise<CaseResult[]> {
  const lib = hostileLibrary(work);
  const db = path.join(work, 'hostile.db');
  const results: CaseResult[] = [];
  {
    const failures: string[] = [];
    const outputs = [
      runCli(['index', lib, '--db', db]),
      runCli(['runs', '--db', db]),
      runCli(['compare', '--db', db, '--format', 'table', '--resamples', '200']),
      runCli(['compare', lib, '--format', 'json', '--resamples', '200']),
    ];
    for (const [i, out] of outputs.entries()) {
      const text = (out.stdout + out.stderr).replace(/\r\n/g, '\n');
      if (CONTROL.test(text))
        failures.push(`command ${i}: a raw control character reached the terminal`);
    }
    results.push({
      name: 'Terminal escapes in names, ids and file names (index, runs, compare table/json)',
      runs: outputs.length,
      failures: failures.length,
      notes: failures[0] ?? 'every control character printed as a visible escape',
    });
  }
  const service = new PairwiseService({ dbPath: db, host: 'cli', version: 'chaos', watch: false });
  try {
    const experiment = service.db
      .prepare('SELECT DISTINCT experiment_id FROM runs')
      .pluck()
      .get() as string;
    const view = await callOk<OpenedFinding>(service, 'findings:create', {
      experimentId: experiment,
      resamples: 200,
    });
    const saved = await callOk<SavedRevision>(service, 'findings:save', {
      findingId: view.finding.id,
      baseRevision: view.revision,
      body: {
        question: view.body.question,
        claim: view.body.claim,
        protocol: view.body.protocol,
        conclusion: HTML,
        limitations: view.body.limitations.map((l) => ({ ...l, status: 'accepted' })),
        pinned: [],
      },
    });
    const { content } = await callOk<{ content: string }>(service, 'findings:export', {
      findingId: saved.finding.id,
      format: 'markdown',
    });
    const prose = content.replace(/^(`{3,})text\n[\s\S]*?\n\1$/gm, '');
    const failures: string[] = [];
    // A backslash-escaped `\<` or `\]` is text in Markdown.
    if (/(^|[^\\])<(script|img)[\s>]/im.test(prose))
      failures.push('raw HTML in the Markdown export');
    if (/(^|[^\\])\]\(\s*javascript:/im.test(prose))
      failures.push('a javascript: link in the Markdown export');
    if (/\r(?!\n)/.test(content)) failures.push('a lone CR (a Markdown line break) in the export');
    results.push({
      name: 'HTML and script links from a sidecar, model ids and conditions in the Markdown export',
      runs: 1,
      failures: failures.length,
      notes: failures[0] ?? 'no raw HTML, no script link',
    });
    const csv = await callOk<{ content: string }>(service, 'export:examplesCsv', {
      reportKey: view.body.snapshot.reportKey,
    });
    const csvFailures: string[] = [];
    if (csv.content.includes('"\n=cmd()'))
      csvFailures.push('a formula behind a line feed reached the CSV');
    if (csv.content.includes('\u202e'))
      csvFailures.push('a bidi override in an id reached the CSV');
    results.push({
      name: 'CSV: a formula behind a line feed, a bidi override in an id',
      runs: 1,
      failures: csvFailures.length,
      notes: csvFailures[0] ?? "neutralised with a leading ' and shown as \\u202e",
    });
  } finally {
    await service.close();
  }
  fs.rmSync(lib, { recursive: true, force: true });
  return results;
}
