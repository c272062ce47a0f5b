import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const RENDERER = path.resolve(__dirname, '../../../renderer');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** Imports of values (not types alone) from the contract module in one file. */
function contractValueImports(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement)) return [];
    const from = (statement.moduleSpecifier as ts.StringLiteral).text;
    if (!from.endsWith('shared/contract')) return [];
    const clause = statement.importClause;
    if (!clause || clause.isTypeOnly) return [];
    const bindings = clause.namedBindings;
    const names =
      bindings && ts.isNamedImports(bindings)
        ? bindings.elements.filter((e) => !e.isTypeOnly).map((e) => e.name.text)
        : ['*'];
    if (clause.name) names.push(clause.name.text);
    return names.map((name) => `${path.relative(RENDERER, file)}: ${name}`);
  });
}

describe("the renderer's imports of the contract", () => {
  it('are types alone: a value would build every request schema while the app starts', () => {
    expect(sources(RENDERER).flatMap(contractValueImports)).toEqual([]);
  });
});
