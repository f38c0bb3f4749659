/**
 * The benches are not run by the suite (they time things: bench/README.md), so nothing else would
 * notice one of them naming something campaignctl no longer exports (bench/forecast.mjs once called
 * a function a refactoring had replaced, and failed until someone ran it). This reads every static
 * `import { ... }` of bench/*.mjs and checks each name: from the build (`../dist/src/x.js`,
 * `../dist/cli/x.js`), on the module the build makes it from (src/x.ts, cli/x.ts), imported; from
 * another bench file, among that file's exports, read, not run (a bench runs when imported).
 * Imports whose path is computed at run time are not seen.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { SourceFile } from "typescript";
import { expect, test } from "vitest";
import ts from "../architecture/typescript.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BENCH = join(ROOT, "bench");

interface NamedImport {
  readonly file: string;
  readonly from: string;
  readonly names: readonly string[];
}

function sourceOf(file: string): SourceFile {
  return ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
}

/** The static `import { a, b as c } from "..."` of a file, with the names as exported. */
function namedImports(file: string): NamedImport[] {
  const out: NamedImport[] = [];
  for (const statement of sourceOf(file).statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings === undefined || !ts.isNamedImports(bindings)) continue;
    const names = bindings.elements.map((e) => (e.propertyName ?? e.name).text);
    out.push({ file, from: statement.moduleSpecifier.text, names });
  }
  return out;
}

/** The names a bench file exports (declarations and `export { ... }`), read from its text. */
function exportsOf(file: string): Set<string> {
  const names = new Set<string>();
  for (const statement of sourceOf(file).statements) {
    if (
      ts.isExportDeclaration(statement) &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause)
    )
      for (const e of statement.exportClause.elements) names.add(e.name.text);
    const exported = ts.canHaveModifiers(statement)
      ? ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (!exported) continue;
    if (ts.isVariableStatement(statement))
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) names.add(d.name.text);
      }
    else if (
      (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) &&
      statement.name !== undefined
    )
      names.add(statement.name.text);
  }
  return names;
}

/** The source module a build path names (`../dist/src/x.js` -> src/x.ts), or undefined. */
function sourceModule(from: string): string | undefined {
  const built = /^\.\.\/dist\/((?:src|cli)\/.+)\.js$/.exec(from);
  return built?.[1] === undefined ? undefined : join(ROOT, `${built[1]}.ts`);
}

const benches = readdirSync(BENCH)
  .filter((name) => name.endsWith(".mjs"))
  .sort()
  .map((name) => join(BENCH, name));
const imports = benches.flatMap(namedImports);

test("the reader sees the benches' imports of the build and of each other", () => {
  expect(benches.length).toBeGreaterThan(30);
  expect(imports.filter((i) => sourceModule(i.from) !== undefined).length).toBeGreaterThan(10);
  expect(imports.filter((i) => i.from.startsWith("./")).length).toBeGreaterThan(20);
});

test("every name a bench imports from the build or from another bench is exported there", async () => {
  const missing: string[] = [];
  for (const { file, from, names } of imports) {
    const where = `${file.slice(ROOT.length)}: ${from}`;
    const source = sourceModule(from);
    if (source !== undefined) {
      const module: Record<string, unknown> = await import(pathToFileURL(source).href);
      for (const name of names) if (!(name in module)) missing.push(`${where} has no export ${name}`);
    } else if (from.startsWith("./")) {
      const exported = exportsOf(join(BENCH, from));
      for (const name of names) if (!exported.has(name)) missing.push(`${where} has no export ${name}`);
    }
  }
  expect(missing).toEqual([]);
});
