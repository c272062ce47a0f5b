import path from 'node:path';
import react from '@vitejs/plugin-react';
import { build, type Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../../renderer');

/** The renderer's chunks as the build writes them, without writing them. */
async function chunks(): Promise<Rolldown.OutputChunk[]> {
  const output = await build({
    configFile: false,
    root,
    base: './',
    logLevel: 'silent',
    plugins: [react()],
    build: { write: false, modulePreload: { polyfill: false } },
  });
  const outputs = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
  return outputs
    .flatMap((o) => o.output)
    .filter((o): o is Rolldown.OutputChunk => o.type === 'chunk');
}

describe("the renderer's chunks", () => {
  it('load zod only to read an address: never at open, nor with a view preloaded when idle', async () => {
    const all = await chunks();
    const byName = new Map(all.map((c) => [c.fileName, c]));
    const withZod = (c: Rolldown.OutputChunk) =>
      c.moduleIds.some((id) => id.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`));
    /** A chunk and every chunk it imports statically: what evaluating it evaluates. */
    const evaluated = (c: Rolldown.OutputChunk, seen = new Set<string>()): string[] => {
      if (seen.has(c.fileName)) return [];
      seen.add(c.fileName);
      for (const name of c.imports) evaluated(byName.get(name)!, seen);
      return [...seen];
    };
    const readRoute = all.find((c) => c.facadeModuleId?.endsWith('readRoute.ts'));
    expect(readRoute && evaluated(readRoute).some((name) => withZod(byName.get(name)!))).toBe(true);
    const loaded = all.filter((c) => c.isEntry || (c.isDynamicEntry && c !== readRoute));
    expect(loaded.length).toBeGreaterThan(5);
    for (const chunk of loaded)
      expect({
        chunk: chunk.facadeModuleId,
        zod: evaluated(chunk).filter((name) => withZod(byName.get(name)!)),
      }).toEqual({ chunk: chunk.facadeModuleId, zod: [] });
  }, 120_000);
});
