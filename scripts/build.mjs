#!/usr/bin/env node
/**
 * `npm run build`: generates the validators and the zone table, compiles with `tsc`, then bundles
 * (scripts/after-build.mjs). Skipped when dist/ was built from the same inputs by the same Node
 * (scripts/build-stamp.mjs), which `npm test` relies on after `npm ci` has built. One build of a
 * tree at a time (scripts/build-lock.mjs).
 *
 *   node scripts/build.mjs             type-checked build, unless the last one serves
 *   node scripts/build.mjs --force     build even so
 *   node scripts/build.mjs --no-check  `tsc --noCheck` (test/support/fresh-dist.ts: a test run of a
 *                                      tree with type errors still gets its dist/); a later
 *                                      type-checked build does not take it as current
 */
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { withBuildLock } from "./build-lock.mjs";
import { makeStamp, STAMP, staleReason } from "./build-stamp.mjs";

/** Runs one step with this Node, its output on ours; whether it succeeded. */
function run(step) {
  try {
    execFileSync(process.execPath, step, { cwd: root, stdio: "inherit" });
    return true;
  } catch {
    return false;
  }
}

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== "--force" && a !== "--no-check");
if (unknown.length > 0) {
  console.error(`build: unknown option ${unknown.join(" ")} (known: --force, --no-check)`);
  process.exitCode = 2;
} else {
  // Decided and done under the tree's build lock: a second build waits, then finds dist/ current.
  withBuildLock(root, () => {
    const checked = !args.includes("--no-check");
    const reason = args.includes("--force") ? "--force" : staleReason(root, checked);
    if (reason === undefined) {
      console.error(`build: dist/ is current (same sources, lockfile and Node as its build): nothing to do`);
    } else {
      rmSync(join(root, STAMP), { force: true });
      const tsc = [
        "node_modules/typescript/bin/tsc",
        "-p",
        "tsconfig.build.json",
        ...(checked ? [] : ["--noCheck"]),
      ];
      const steps = [
        ["scripts/gen-validators.mjs"],
        ["scripts/gen-zone-offsets.mjs"],
        tsc,
        ["scripts/after-build.mjs"],
      ];
      const failed = steps.find((step) => !run(step));
      if (failed === undefined)
        writeFileSync(join(root, STAMP), `${JSON.stringify(makeStamp(root, checked))}\n`);
      else {
        console.error(`build: \`node ${failed.join(" ")}\` failed (its output is above)`);
        process.exitCode = 1;
      }
    }
  });
}
