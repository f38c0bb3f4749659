#!/usr/bin/env node
/**
 * Writes cli/flags/command-flags.json from the built command tree: every command (its words after
 * `campaignctl`: `apply`, `replies run`) with the long flags its help lists, `--help` left out. A
 * run registers only the command it names (cli/program.ts) and a code-cached bundle holds only its
 * own, so an unknown flag learns whose flag it is (`plan --auto-approve`: apply's) from this table.
 * test/cli/command-flags.test.ts fails when the table is not the tree's. Needs a build.
 *
 *   node scripts/gen-command-flags.mjs           # rewrite the table
 *   node scripts/gen-command-flags.mjs --check   # exit 1 when it is out of date
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const TABLE = join(root, "cli/flags/command-flags.json");

const { buildProgram } = await import(join(root, "dist/cli/program.js"));
const { commandFlagsTable, commandFlagsJson } = await import(
  join(root, "dist/cli/flags/command-flags-table.js")
);
const silent = { stdout: () => {}, stderr: () => {}, env: {}, cwd: root, clock: () => 0 };
const text = commandFlagsJson(commandFlagsTable(await buildProgram(silent, () => {})));
if (process.argv.includes("--check")) {
  if (readFileSync(TABLE, "utf8") !== text) {
    console.error("cli/flags/command-flags.json is out of date: run node scripts/gen-command-flags.mjs");
    process.exitCode = 1;
  }
} else {
  writeFileSync(TABLE, text);
  console.log("wrote cli/flags/command-flags.json");
}
