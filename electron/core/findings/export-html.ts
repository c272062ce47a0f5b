import type { FindingView, Pin } from '../../../shared/findings';
import { forestPlotSvg, splitByInterval } from './forest-plot';
import {
  CHECK_COLUMNS,
  checkBlocks,
  type CheckBlock,
  exportedAt,
  interval,
  keptLimitations,
  METRIC_COLUMNS,
  metricRows,
  num,
  observedText,
  signed,
  statisticsNote,
  type MetricRow,
} from './view';

/**
 * A finding as one self-contained HTML file: inline CSS, inline SVG charts, no scripts and no
 * external requests (a CSP meta tag forbids both, should anything slip through). Every piece
 * of text, whoever wrote it, is HTML-escaped; no text ever becomes an attribute URL.
 */

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

const e = escapeHtml;

const CSS = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2330;max-width:980px;margin:2rem auto;padding:0 1.2rem}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #d9dde5;padding-bottom:.2rem}
h3{font-size:1rem;margin-top:1.4rem}.meta{color:#5b6475;font-size:.85rem}
.text{white-space:pre-wrap;overflow-wrap:anywhere}.empty{color:#8a92a3;font-style:italic}
table{border-collapse:collapse;width:100%;font-size:.88rem;margin:.6rem 0}
th,td{border:1px solid #d9dde5;padding:.3rem .45rem;text-align:left;vertical-align:top}
th{background:#f3f5f9}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.consistent{color:#17703a}.inconsistent{color:#b3261e}.inconclusive{color:#8a6d00}
.not_comparable,.differs{color:#b3261e}.unknown{color:#8a6d00}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f7f9;border:1px solid #e3e6ec;padding:.6rem;border-radius:4px;font-size:.85rem}
.sides{display:grid;grid-template-columns:1fr 1fr;gap:.8rem}
svg.forest{max-width:100%;height:auto;font-size:11px;fill:#1d2330}
svg .zero{stroke:#8a92a3;stroke-dasharray:4 3}svg .axis{stroke:#5b6475}
svg .ci{stroke:#2d5bd7;stroke-width:2}svg .point{fill:#2d5bd7}svg .none{fill:#8a92a3;font-style:italic}
`;

function text(value: string, empty: string): string {
  return value.trim() ? `<div class="text">${e(value)}</div>` : `<p class="empty">${e(empty)}</p>`;
}

function metricsTable(rows: MetricRow[]): string {
  if (rows.length === 0) return '<p class="empty">The report has no metrics.</p>';
  const head = METRIC_COLUMNS;
  const body = rows.map(
    (r) =>
      `<tr><td>${e(r.comparison)}</td><td>${e(r.metric)}</td><td class="num">${e(r.reference)}</td>` +
      `<td class="num">${e(r.candidate)}</td><td class="num">${r.n ?? '—'}</td>` +
      `<td class="num">${e(signed(r.difference))}${r.reportedOnly ? ' (reported)' : ''}</td>` +
      `<td class="num">${e(interval(r.ci95))}</td><td class="num">${r.resamples ?? '—'}</td>` +
      `<td>${e(r.expect ?? '—')}</td><td class="${e(r.verdictClass ?? '')}">${e(r.verdict ?? '—')}</td></tr>`,
  );
  return `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${body.join('')}</tbody></table>`;
}

/**
 * One plot per metric: comparisons of one metric share a scale; different metrics need not.
 * Only values with an interval are drawn; the rest are listed under the plot as having none.
 */
function forestPlots(rows: MetricRow[]): string {
  const byMetric = new Map<string, MetricRow[]>();
  for (const r of rows) byMetric.set(r.metric, [...(byMetric.get(r.metric) ?? []), r]);
  return [...byMetric.entries()]
    .map(([metric, list]) => {
      const { drawn, unplotted } = splitByInterval(list);
      const plot =
        drawn.length > 0
          ? forestPlotSvg(
              `${metric}: paired difference (candidate − reference) with 95% interval`,
              drawn.map((r) => ({ label: r.comparison, difference: r.difference, ci95: r.ci95 })),
              e,
            )
          : '';
      const none = unplotted.map(
        (r) =>
          `<li>${e(r.comparison)}: ${e(signed(r.difference))}${r.reportedOnly ? ' (reported values)' : ''} — no interval</li>`,
      );
      return (
        `<h3>${e(metric)}: paired difference with 95% interval</h3>${plot}` +
        (none.length
          ? `<p class="meta">Not drawn, no interval:</p><ul class="none">${none.join('')}</ul>`
          : '')
      );
    })
    .join('');
}

function checksSection(blocks: CheckBlock[]): string {
  if (blocks.length === 0) return '<h2>Checks</h2><p class="empty">Nothing was compared.</p>';
  const parts = blocks.map((b) => {
    const head =
      `<h3>${e(b.comparison)}</h3><p>Checks: ${e(b.summary)}.` +
      `${b.rows.length === 0 ? ' Every check matches.' : ''}</p>` +
      (b.evaluatedDiffers ? '<p class="differs">The runs differ in what was evaluated.</p>' : '');
    if (b.rows.length === 0) return head;
    const rows = b.rows.map(
      (r) =>
        `<tr><td>${e(r.path)}</td><td class="${e(r.status.replace(' ', '-'))}">${e(r.status)}</td>` +
        `<td class="text">${e(r.reference)}</td><td class="text">${e(r.candidate)}</td></tr>`,
    );
    return (
      `${head}<table><thead><tr>${CHECK_COLUMNS.map((h) => `<th>${h}</th>`).join('')}</tr></thead>` +
      `<tbody>${rows.join('')}</tbody></table>`
    );
  });
  return `<h2>Checks</h2>${parts.join('')}`;
}

function reproductionTable(view: FindingView): string {
  const reproduction = view.body.snapshot.report.reproduction;
  if (!reproduction || reproduction.rows.length === 0) return '';
  const source = [
    reproduction.arxiv && `arXiv ${reproduction.arxiv}`,
    reproduction.version,
    reproduction.where,
  ]
    .filter(Boolean)
    .join(', ');
  const rows = reproduction.rows.map(
    (r) =>
      `<tr><td>${e(r.metric)}</td><td>${e(r.condition)}</td><td class="num">${e(num(r.paper))}</td>` +
      `<td class="num">${e(observedText(r))}</td><td class="num">${e(signed(r.difference))}</td></tr>`,
  );
  return (
    `<h2>Paper vs observed</h2>${source ? `<p>Paper: ${e(source)}.</p>` : ''}` +
    `<table><thead><tr><th>Metric</th><th>Condition</th><th>Paper</th><th>Observed (95% interval)</th><th>Observed − paper</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table>`
  );
}

function pinned(pin: Pin, index: number): string {
  const side = (name: string, s: Pin['reference']) =>
    s
      ? `<div><h4>${e(s.condition)} output</h4><p class="meta">run ${e(s.runId)}</p><pre>${e(s.output)}</pre></div>`
      : `<div><h4>${e(name)}</h4><p class="empty">Not logged by this run.</p></div>`;
  const input =
    pin.reference && pin.candidate && pin.reference.input !== pin.candidate.input
      ? `<h4>Input (reference)</h4><pre>${e(pin.reference.input)}</pre><h4>Input (candidate)</h4><pre>${e(pin.candidate.input)}</pre>`
      : `<h4>Input</h4><pre>${e(pin.reference?.input ?? pin.candidate?.input ?? '')}</pre>`;
  return (
    `<section class="pin"><h3>${index + 1}. Example ${e(pin.exampleId)}</h3>` +
    (pin.note.trim() ? `<div class="text">${e(pin.note)}</div>` : '') +
    `${input}<div class="sides">${side('Reference', pin.reference)}${side('Candidate', pin.candidate)}</div></section>`
  );
}

export function findingHtml(view: FindingView): string {
  const { body, finding } = view;
  const { report, bootstrap } = body.snapshot;
  const rows = metricRows(report);
  const limitations = keptLimitations(body.limitations);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(finding.title)}</title><style>${CSS}</style></head>
<body>
<h1>${e(finding.title)}</h1>
<p class="meta">Experiment ${e(finding.experimentId)} · revision ${view.revision} saved ${e(view.savedAt)} · evidence from the comparison of ${e(body.snapshot.reportCreatedAt)} (report ${e(body.snapshot.reportKey.slice(0, 12))}, checker version ${e(report.checker_version)})</p>
<h2>Question</h2>${text(body.question, 'No question given.')}
<h2>Claim</h2>${text(body.claim, 'No claim given.')}
<h2>Protocol</h2>${text(body.protocol, 'No protocol given.')}
<h2>Results</h2>${metricsTable(rows)}
<p class="meta">${e(statisticsNote(bootstrap))} "(reported)": the runs' own values, no interval.</p>
${forestPlots(rows)}
${checksSection(checkBlocks(report))}
${reproductionTable(view)}
<h2>Limitations</h2>${
    limitations.length
      ? `<ul>${limitations.map((l) => `<li class="text">${e(l.text)}</li>`).join('')}</ul>`
      : '<p class="empty">None recorded.</p>'
  }
<h2>Conclusion</h2>${text(body.conclusion, 'No conclusion written yet.')}
${body.pinned.length ? `<h2>Pinned examples</h2>${body.pinned.map(pinned).join('')}` : ''}
<hr><p class="meta">Exported by Pairwise on ${exportedAt()}.</p>
</body></html>
`;
}
