import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const probes: string[] = [];
afterAll(() => probes.forEach((file) => fs.rmSync(file, { force: true })));

/** A probe file inside a layer, removed after the test: the rules must see it where it lives. */
function probe(relative: string, text: string): string {
  const file = path.join(root, relative);
  fs.writeFileSync(file, text);
  probes.push(file);
  return file;
}

/** Type errors of one file compiled with a layer's own tsconfig (its lib and types). */
function typeErrors(config: string, file: string): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(root, config),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  )!;
  const options = { ...parsed.options, composite: false, noEmit: true, declaration: false };
  const program = ts.createProgram([file], options);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === file)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

async function lintErrors(file: string): Promise<string[]> {
  const [result] = await new ESLint({ cwd: root }).lintFiles([file]);
  return result!.messages.map((m) => m.message);
}

describe('the layers the compiler and lint enforce', () => {
  it('the renderer has no Node globals and shared/ has neither Node nor DOM', () => {
    const renderer = probe('renderer/layer-probe.ts', 'export const probe = process.env.X;\n');
    expect(typeErrors('tsconfig.renderer.json', renderer).join('\n')).toMatch(/'process'/);
    const shared = probe(
      'shared/layer-probe.ts',
      'export const a = Buffer.from("x");\nexport const b = document.title;\n',
    );
    const errors = typeErrors('tsconfig.shared.json', shared).join('\n');
    expect(errors).toMatch(/'Buffer'/);
    expect(errors).toMatch(/'document'/);
  });

  it('the core never imports a host, and electron/main imports no core runtime code', async () => {
    const core = probe(
      'electron/core/layer-probe.ts',
      "import { usage } from '../cli/usage';\nimport { serveApp } from '../server/http';\nexport const x = [usage, serveApp];\n",
    );
    expect((await lintErrors(core)).join('\n')).toMatch(/never imports a host/);
    const main = probe(
      'electron/main/layer-probe.ts',
      "import { listRuns } from '../core/library';\nimport type { Db } from '../core/db/open';\nexport const x = listRuns;\nexport type Y = Db;\n",
    );
    const errors = await lintErrors(main);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/electron\/main runs no core code/);
  });
});
