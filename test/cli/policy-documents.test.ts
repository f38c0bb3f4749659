/**
 * With the examples' own policy and one project that breaks it, every document the commands print
 * or save is valid against its schema (issue 15): the policy codes follow the shared code pattern.
 * The helpers that run the CLI check each document against its schema; this test makes sure the
 * documents carry the policy finding, so the check is not vacuous.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { checkCliDocuments } from "../helpers/documents.js";
import { runCli } from "../helpers/run-cli.js";
import { schemaErrors } from "../helpers/schemas.js";

/** The examples with `gotv-reminder` setting daily_cap_bypass, which the examples' policy forbids. */
function examplesBreakingPolicy(): string {
  const cwd = mkdtempSync(join(tmpdir(), "campaignctl-policy-docs-"));
  cpSync("examples", join(cwd, "examples"), { recursive: true });
  const file = join(cwd, "examples", "gotv.yaml");
  const text = readFileSync(file, "utf8");
  const broken = text.replace(
    'at: "2026-12-07T10:00:00-06:00"',
    'at: "2026-12-07T10:00:00-06:00"\n      daily_cap_bypass: true',
  );
  expect(broken).not.toBe(text);
  writeFileSync(file, broken);
  return cwd;
}

const codesOf = (diagnostics: readonly { code: string }[]) => diagnostics.map((d) => d.code);

describe("documents with a policy finding are valid against their schemas", () => {
  test("validate --json, plan --json and the saved plan", async () => {
    const cwd = examplesBreakingPolicy();
    const cli = (...argv: string[]) => runCli(argv, { cwd, env: {} });

    const validated = await cli("validate", "examples/", "--json");
    expect(validated.code).toBe(1);
    expect(codesOf(JSON.parse(validated.stdout).diagnostics)).toContain("policy.daily-cap-bypass");

    const planned = await cli("plan", "--sandbox", "examples/", "--json", "--out", "plan.json");
    const plan = JSON.parse(planned.stdout);
    const reminder = plan.projects.find((p: { address: string }) => p.address === "gotv-reminder");
    expect(codesOf(reminder.diagnostics)).toContain("policy.daily-cap-bypass");
    expect(reminder.actions.map((a: { block?: { codes: string[] } }) => a.block?.codes ?? [])).toContainEqual(
      ["policy.daily-cap-bypass"],
    );
    expect(JSON.parse(readFileSync(join(cwd, "plan.json"), "utf8"))).toEqual(plan);
  });

  test("the check the CLI helpers run refuses a document that breaks its schema", () => {
    const bad = {
      format_version: 1,
      error: true,
      diagnostics: [
        {
          severity: "error",
          code: "policy.daily_cap_bypass",
          message: "m",
          range: null,
          hint: null,
          related: [],
        },
      ],
    };
    expect(schemaErrors("error-result", bad)).not.toEqual([]);
    expect(() => checkCliDocuments(["validate", "--json"], JSON.stringify(bad), ".")).toThrow(/error-result/);
    expect(() => checkCliDocuments(["plan", "--json"], '{"format_version": 2}', ".")).toThrow(/plan/);
    expect(() => checkCliDocuments(["plan", "--json"], "not json", ".")).toThrow(/not one JSON document/);
  });
});
