import { describe, expect, it } from 'vitest';
import { method } from '../../bench/report';

describe("the benchmark page's method section", () => {
  it('says where the worker threads came from, once, and keeps every other line', () => {
    const built = method({ builtWorkers: true });
    const source = method({ builtWorkers: false });
    const older = method({});
    expect(built.filter((l) => l.includes("run from the app's build"))).toHaveLength(1);
    expect(source.filter((l) => l.includes('ran from the TypeScript sources'))).toHaveLength(1);
    expect(older).toEqual(source);
    // The section's blank lines and headings stay as they are: only the placeholder is replaced.
    const common = built.filter((l) => !source.includes(l) && !l.startsWith('  '));
    expect(common).toEqual([
      "- The service's worker threads (index, compare, search) run from the app's build",
    ]);
    expect(built[0]).toBe('## How it is measured');
    expect(built[1]).toBe('');
    expect(built.some((l) => l.startsWith('<'))).toBe(false);
  });
});
