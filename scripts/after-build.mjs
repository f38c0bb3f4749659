// After `tsc`: copies the JSON schemas next to the compiled code (so `dist/src/**` finds them at
// the same relative path as `src/**` does), then bundles the two entry points of the compiled CLI
// (dist/cli/main.js, the bin, and dist/cli/validate-worker.js, validate's worker thread) with
// esbuild, over themselves, and makes the bin executable.
//
// Why a bundle (issue 36): a run of `validate` on a small file loaded about 230 modules (the `yaml`
// package alone is 72 CommonJS files), and Node resolves, reads and compiles each on its own (a
// realpath and a package.json lookup per import). The bundle is split at every dynamic `import()`
// (`splitting`), so a command still loads only the code it needs: the registrations and commands
// stay lazy (cli/program.ts), and so do undici, the language server and the rest; what a run loads
// is a few chunks instead of hundreds of files. The chunks sit in dist/cli beside the entries, so
// `import.meta.url` paths (`../schemas/` from cli code) resolve as before; `src` code's
// `../../schemas/` resolves to the package's own schemas/ (shipped, the same files). The other
// compiled files stay in dist/ (tests and tools import them); the bin uses none of them.
// dist/bundle-meta.json (esbuild's metafile, not shipped) says which module is in which chunk:
// test/cli/lazy-commands.test.ts reads it to tell which modules a run loaded.
import { chmodSync, cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const CLI = "dist/cli";
/** What every chunk starts with: `require` for the CommonJS packages bundled into ES modules. */
const BANNER =
  'import { createRequire as __campaignctlRequire } from "node:module"; const require = __campaignctlRequire(import.meta.url);';
/** Marks a bundled entry, so a second run without `tsc` before it stops instead of bundling a bundle. */
const BUNDLED = "// campaignctl bundle";

cpSync("schemas", "dist/schemas", { recursive: true });

for (const entry of ["main.js", "validate-worker.js"])
  if (readFileSync(join(CLI, entry), "utf8").includes(BUNDLED))
    throw new Error(`${CLI}/${entry} is already a bundle: run tsc (npm run build) before this script`);
// The chunks of the last build go: their names change with their contents.
for (const name of readdirSync(CLI)) if (/^chunk-[A-Z0-9]+\.js$/.test(name)) rmSync(join(CLI, name));

const result = await build({
  entryPoints: [join(CLI, "main.js"), join(CLI, "validate-worker.js")],
  outdir: CLI,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  // Left to Node: the HTTP client and the PostgreSQL driver (with its optional native binding),
  // each loaded by an `import()` on first use. They are CommonJS, and an `import()` of a bundled
  // CommonJS chunk has only a default export where Node gives the named ones too (undici's `Agent`).
  external: ["undici", "pg", "pg-native"],
  banner: { js: `${BUNDLED}\n${BANNER}` },
  legalComments: "inline",
  metafile: true,
  logLevel: "warning",
});
writeFileSync("dist/bundle-meta.json", JSON.stringify(result.metafile));
// tsc's source maps of the two entries describe the files the bundle replaced.
for (const entry of ["main.js", "validate-worker.js"]) rmSync(join(CLI, `${entry}.map`), { force: true });
chmodSync(join(CLI, "main.js"), 0o755);
