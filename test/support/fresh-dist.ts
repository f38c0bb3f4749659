/**
 * Vitest global setup: the tests that run the built CLI (`node dist/cli/main.js`) never run a
 * missing or stale build. Before any test file runs, every source file (`cli/**`, `src/**`,
 * `schemas/**`) is compared with its output under `dist/`; when one is missing or older than its
 * source, dist/ is built here (validators generated, `tsc` without type checking: type errors are
 * `npm run typecheck`'s job, and `tsc` emits either way, then the schemas copied), and the run
 * fails with the build's output if that does not make dist/ current. `npm test` builds first, so
 * there this finds nothing to do.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Files under `dir` (relative to the root), recursively. */
function files(dir: string): string[] {
  const abs = join(ROOT, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

/** Sources whose output under dist/ is missing or older than they are ("src/x.ts -> dist/src/x.js"). */
export function staleOutputs(): string[] {
  const pairs: [string, string][] = [];
  for (const dir of ["cli", "src"])
    for (const f of files(dir))
      if (f.endsWith(".ts") && !f.endsWith(".d.ts")) pairs.push([f, join("dist", f.replace(/\.ts$/, ".js"))]);
  for (const f of files("schemas")) pairs.push([f, join("dist", f)]);
  const stale: string[] = [];
  for (const [source, output] of pairs) {
    const out = join(ROOT, output);
    if (!existsSync(out) || statSync(out).mtimeMs < statSync(join(ROOT, source)).mtimeMs)
      stale.push(`${source} -> ${output}`);
  }
  return stale;
}

function build(): void {
  const steps: [string, string[]][] = [
    [process.execPath, ["scripts/gen-validators.mjs"]],
    [process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json", "--noCheck"]],
    [process.execPath, ["scripts/after-build.mjs"]],
  ];
  for (const [file, args] of steps)
    try {
      execFileSync(file, args, { cwd: ROOT, stdio: "pipe", encoding: "utf8" });
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string; message: string };
      throw new Error(
        `dist/ is stale and building it failed at \`node ${args.join(" ")}\`:\n${err.stdout ?? ""}${err.stderr ?? err.message}`,
      );
    }
}

export default function setup(): void {
  const stale = staleOutputs();
  if (stale.length === 0) return;
  console.warn(
    `dist/ is missing or older than ${stale.length} source file(s) (${stale.slice(0, 3).join(", ")}${stale.length > 3 ? ", …" : ""}): building it before the tests run.`,
  );
  build();
  const still = staleOutputs();
  if (still.length > 0)
    throw new Error(
      `dist/ is still older than its sources after building (${still.slice(0, 5).join(", ")}): run \`npm run build\` and look at its errors.`,
    );
}
