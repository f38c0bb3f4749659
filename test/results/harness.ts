/**
 * The results tests' harness: `results record` and `results` run in-process (the command functions
 * with a captured terminal and the flags commander would give) against a sandbox over real HTTP on
 * loopback, with keys per organization from the environment; every JSON document and every line of
 * the file store is checked against its schema.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { type ResultsFlags, resultsCommand } from "../../cli/commands/results.js";
import { type RecordFlags, resultsRecordCommand } from "../../cli/commands/results-record.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { type CliResult, captureIo } from "../helpers/run-cli.js";
import { schemaErrors } from "../helpers/schemas.js";
import { CHILD_KEY, PARENT_KEY } from "../sandbox/helpers.js";

/** Keys per organization, as a data team's pipeline sets them (no default key). */
export const ORGANIZATION_KEYS: Readonly<Record<string, string>> = {
  CAMPAIGNCTL_API_KEY_RIVERSIDE_DEMOCRATS: PARENT_KEY,
  CAMPAIGNCTL_API_KEY_RIVERSIDE_YOUNG_DEMOCRATS: CHILD_KEY,
};

/** The variable the PostgreSQL tests read their database from (.ci/run sets it). */
export const TEST_POSTGRES_ENV = "CAMPAIGNCTL_TEST_POSTGRES_URL";

/** `results record ARGV` against `sb`; `flags` are what commander would make of `argv`. */
export async function record(
  sb: SandboxHandle,
  cwd: string,
  argv: readonly string[],
  flags: Partial<RecordFlags> = {},
  env: Readonly<Record<string, string>> = {},
  keys: Readonly<Record<string, string>> = ORGANIZATION_KEYS,
): Promise<CliResult> {
  const io = captureIo({
    env: { NO_COLOR: "1", ...keys, ...env },
    cwd,
    clock: () => sb.clock.nowMs(),
  });
  const outcome = await resultsRecordCommand({ baseUrl: sb.baseUrl, ...flags }, io, {
    clock: { now: () => sb.clock.nowMs() },
    sleep: async (ms) => sb.clock.advance(ms),
  });
  const result = { code: exitCodeOf(outcome), stdout: io.out(), stderr: io.err() };
  checkCliDocuments(["results", "record", ...argv], result.stdout, cwd);
  return result;
}

/** `results [paths] ARGV` in `cwd` (no API: the store only). */
export async function show(
  cwd: string,
  argv: readonly string[],
  paths: readonly string[],
  flags: Partial<ResultsFlags> = {},
  env: Readonly<Record<string, string>> = {},
  clock: () => number = () => Date.parse("2027-06-19T12:00:00Z"),
): Promise<CliResult> {
  const io = captureIo({ env: { NO_COLOR: "1", ...env }, cwd, clock });
  const outcome = await resultsCommand(paths, flags, io);
  const result = { code: exitCodeOf(outcome), stdout: io.out(), stderr: io.err() };
  checkCliDocuments(["results", ...argv], result.stdout, cwd);
  return result;
}

/** Every line of every file of the store at `dir`: whole, and each a valid snapshot. */
export function storeLines(dir: string): { file: string; line: string }[] {
  const out: { file: string; line: string }[] = [];
  for (const org of readdirSync(dir, { withFileTypes: true })) {
    if (!org.isDirectory()) continue;
    // Month files only: a temporary file of a killed recording is never read.
    for (const name of readdirSync(join(dir, org.name))
      .filter((n) => /^\d{4}-\d{2}\.jsonl$/.test(n))
      .sort()) {
      const text = readFileSync(join(dir, org.name, name), "utf8");
      expect(text === "" || text.endsWith("\n"), `${org.name}/${name} ends in a whole line`).toBe(true);
      for (const line of text.split("\n").filter((l) => l !== "")) {
        expect(schemaErrors("results-snapshot", JSON.parse(line)), `${org.name}/${name}: ${line}`).toEqual(
          [],
        );
        out.push({ file: `${org.name}/${name}`, line });
      }
    }
  }
  return out;
}
