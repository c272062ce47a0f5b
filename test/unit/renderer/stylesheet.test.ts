import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const STYLES = path.resolve(__dirname, '../../../renderer/styles.css');

/** The stylesheet's selectors: what precedes each rule's block, comments left out. */
function selectors(css: string): string[] {
  const bare = css.replace(/\/\*[\s\S]*?\*\//g, '');
  return [...bare.matchAll(/([^{}]+)\{/g)].map((m) => m[1]!.trim());
}

describe('the stylesheet', () => {
  it('has no rule that selects on a title, which the explorer cells change on every scroll step', () => {
    // Once any selector tests [title], Chromium restyles every element whose title changes: the
    // grid's cells carry titles and take new ones for each row a scroll brings into view.
    const onTitle = selectors(fs.readFileSync(STYLES, 'utf8')).filter((s) => /\[title\b/.test(s));
    expect(onTitle).toEqual([]);
  });

  it('lays out only the library cards in view, which at 159 experiments was a 200 ms task at open', () => {
    const css = fs.readFileSync(STYLES, 'utf8');
    const rule = /\n\.experiment-card \{([^}]*)\}/.exec(css)?.[1] ?? '';
    expect(rule).toMatch(/content-visibility:\s*auto/);
    // Without a size, a card out of view counts as empty and the scrollbar jumps as it renders.
    expect(rule).toMatch(/contain-intrinsic-size:\s*auto \d+px/);
  });

  it('lets a limitation’s box grow to its text, which a guessed number of rows cut off at 1024 px', () => {
    const css = fs.readFileSync(STYLES, 'utf8');
    const rule = /\.limitation textarea \{([^}]*)\}/.exec(css)?.[1] ?? '';
    expect(rule).toMatch(/field-sizing:\s*content/);
  });

  it('fits a finding’s evidence table to its card: fixed columns, text that wraps, whole numbers', () => {
    const css = fs.readFileSync(STYLES, 'utf8');
    const rule = (selector: string) =>
      new RegExp(`(?:^|\\n)${selector.replace(/[.*]/g, '\\$&')} \\{([^}]*)\\}`).exec(css)?.[1] ??
      '';
    expect(rule('table.evidence-metrics')).toMatch(/table-layout:\s*fixed/);
    // `.grid td` breaks anywhere, which let a squeezed column cut a number between its digits.
    const cells = rule('table.evidence-metrics th,\ntable.evidence-metrics td');
    expect(cells).toMatch(/white-space:\s*normal/);
    expect(cells).toMatch(/overflow-wrap:\s*break-word/);
    const widths = ['value', 'value', 'difference', 'interval', 'p', 'verdict'].map((col) =>
      Number(/width:\s*([\d.]+)%/.exec(rule(`.evidence-metrics col.${col}`))?.[1]),
    );
    expect(widths.reduce((a, b) => a + b, 0)).toBe(100);
  });
});
