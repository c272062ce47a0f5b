import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../electron/cli/pairwise';
import { forTerminal } from '../../../electron/cli/terminal-text';
import { examples, writeFile, writeMechlensRun } from '../../fixtures/formats';
import { tempDir } from '../../fixtures/tmp';

const OSC52 = '\u001b]52;c;ZWNobyBwd25lZA==\u0007';
const TITLE = '\u001b]0;owned\u0007';
const CLEAR = '\u001b[2J\u001b[H';
const CSI_C1 = '\u009b31m';
// Anything a terminal would act on: ESC, BEL, C1 controls, lone CR, bidi overrides.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('forTerminal', () => {
  it('shows control characters as escapes and keeps line breaks and tabs', () => {
    expect(forTerminal(`a${OSC52}b`)).toBe('a\\u001b]52;c;ZWNobyBwd25lZA==\\u0007b');
    expect(forTerminal(`x${CSI_C1}`)).toBe('x\\u009b31m');
    expect(forTerminal('over\rwrite')).toBe('over\\u000dwrite');
    expect(forTerminal('safe\u202egnp.exe')).toBe('safe\\u202egnp.exe');
    expect(forTerminal('one\ntwo\r\nthree\tfour')).toBe('one\ntwo\r\nthree\tfour');
  });

  it('keeps JSON valid and equal', () => {
    const value = { id: `a\u0085b${CSI_C1}\u202e`, n: 1 };
    expect(JSON.parse(forTerminal(JSON.stringify(value)))).toEqual(value);
  });
});

describe('every CLI print path', () => {
  let cleanup = () => undefined as void;
  afterEach(() => {
    vi.restoreAllMocks();
    cleanup();
  });

  function capture(): { text: () => string } {
    const chunks: string[] = [];
    const grab = (chunk: unknown) => {
      chunks.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(grab);
    vi.spyOn(process.stderr, 'write').mockImplementation(grab);
    return { text: () => chunks.join('') };
  }

  it('prints run names, problem lines and compare tables without raw control characters', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const lib = path.join(t.dir, 'lib');
    writeMechlensRun(lib, { id: 'ref', name: `ref${TITLE}`, examples: examples(4) });
    writeMechlensRun(lib, {
      id: 'int',
      name: `steer${OSC52}${CLEAR}`,
      experiment: { id: `exp${CSI_C1}`, role: 'intervention' },
      examples: examples(4, (i) => ({ refused: i % 2 === 0 })),
    });
    writeFile(lib, `.mechlens/runs/bad${CLEAR}.json`, '{"id": "x", ');
    const db = path.join(t.dir, 'p.db');
    const out = capture();
    expect(await main(['index', lib, '--db', db])).toBe(0);
    expect(await main(['runs', '--db', db])).toBe(0);
    expect(await main(['compare', '--db', db, '--format', 'table', '--resamples', '100'])).toBe(0);
    const text = out.text();
    expect(text).toContain('problem: ');
    expect(text).toContain('steer\\u001b]52;');
    expect(text).toMatch(/Experiment exp\\u009b31m/);
    expect(text.replace(/\r\n/g, '\n')).not.toMatch(CONTROL);
    expect(fs.existsSync(db)).toBe(true);
  });
});
