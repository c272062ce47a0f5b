import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  keepingSections,
  sectionEnd,
  sectionStart,
  withSection,
  type KeptSection,
} from '../../bench/kept-sections';
import { tempDir } from '../../fixtures/tmp';

const block = (name: KeptSection, text: string) =>
  `${sectionStart(name)}\n${text}\n${sectionEnd(name)}\n`;

describe('sections the speed benchmark carries over', () => {
  it('keeps every marked section of the old document, in place of the new one’s or at its end', () => {
    const tmp = tempDir();
    const file = path.join(tmp.dir, 'benchmarks.md');
    fs.writeFileSync(
      file,
      `# Old\n\n${block('small-index-notes', 'small')}\n${block('search-notes', 'notes')}\n${block('engines', 'engines old')}\n${block('coverage', 'cov')}`,
    );
    const fresh = `# New\n\nfigures\n\n${block('engines', 'placeholder')}`;
    const kept = keepingSections(file, fresh);
    expect(kept).toContain('figures');
    expect(kept).toContain('engines old');
    expect(kept).not.toContain('placeholder');
    expect(kept).toContain('notes');
    expect(kept).toContain('small');
    expect(kept).toContain('cov');
    expect(kept).not.toContain('# Old');
    tmp.cleanup();
  });

  it('replaces a section without touching what follows it', () => {
    const doc = `a\n${block('coverage', 'one')}\nafter\n`;
    expect(withSection(doc, 'coverage', block('coverage', 'two'))).toBe(
      `a\n${block('coverage', 'two')}after\n`,
    );
  });
});
