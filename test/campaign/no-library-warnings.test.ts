/**
 * A map or a list used as a YAML key (in a campaign file, a policy file, or a document the language
 * server reads) is reported through our findings only: the `yaml` library, which stringifies such a
 * key when it builds the data, must not also print a Node process warning on stderr ("Keys with
 * collection values will be stringified ..."). Every parse that builds data passes
 * `logLevel: "error"`.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { documentFacts } from "../../cli/lsp/document-facts.js";
import { parseFixtureText } from "../../src/sandbox/fixture/load.js";
import { runCli } from "../helpers/run-cli.js";

let warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(warning.message);
beforeEach(() => {
  warnings = [];
  process.on("warning", onWarning);
});
afterEach(() => {
  process.off("warning", onWarning);
});

/** Lets a warning emitted during the run arrive (process.emitWarning delivers it on a later tick). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

test("validate: a map as a project's key and a list as a policy key are findings, with no process warning", async () => {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-collection-keys-"));
  mkdirSync(join(dir, ".git"));
  writeFileSync(join(dir, "c.yaml"), "version: 1\nprojects:\n  ? {a: 1}\n  : x\n");
  writeFileSync(join(dir, "campaignctl.policy.yaml"), "version: 1\n? [a]\n: 1\n");
  const run = await runCli(["validate", "c.yaml", "--json"], { cwd: dir });
  await settle();
  expect(run.code).toBe(1);
  const found = (
    JSON.parse(run.stdout) as {
      diagnostics: { code: string; range: { file: string; start: { line: number; column: number } } }[];
    }
  ).diagnostics.map((d) => `${d.range.file}:${d.range.start.line}:${d.range.start.column} ${d.code}`);
  // The campaign file's key: one finding, at the key (not the schema's address and required-key
  // findings at the `projects:` line); the policy's key: one finding at the key (it was two at 1:1).
  expect(found).toEqual(["c.yaml:3:5 campaign.yaml-key", "campaignctl.policy.yaml:2:3 policy.file-invalid"]);
  expect(run.stderr).not.toMatch(/Warning|collection values/);
  expect(warnings).toEqual([]);
});

test("the language server's facts and the sandbox's fixture read such a key without a process warning", async () => {
  documentFacts("version: 1\n? {a: 1}\n: x\nprojects: {}\n");
  parseFixtureText("? [a]\n: 1\n", "fixture.yaml");
  await settle();
  expect(warnings).toEqual([]);
});
