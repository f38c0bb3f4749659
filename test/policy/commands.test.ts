/**
 * Policy as code through the CLI: the example policy is found beside the example campaign and kept
 * clean; a violation is an error at the campaign file's position in validate and plan, blocks that
 * project's sending actions (and what is ordered after it) but never a pause, and sends nothing.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../helpers/run-cli.js";

interface PlanDoc {
  projects: {
    address: string;
    actions: { id: string; status: string; block?: { codes: string[] } }[];
    diagnostics: { code: string; range?: { file: string; start: { line: number; column: number } } }[];
  }[];
}

function exampleCopy(edit?: (gotv: string) => string): string {
  const cwd = mkdtempSync(join(tmpdir(), "campaignctl-policy-"));
  cpSync("examples", join(cwd, "examples"), { recursive: true });
  if (edit) {
    const path = join(cwd, "examples", "gotv.yaml");
    writeFileSync(path, edit(readFileSync(path, "utf8")));
  }
  return cwd;
}

const withBypass = (gotv: string) =>
  gotv.replace(
    'at: "2026-12-07T10:00:00-06:00"\n      timezone: America/Chicago\n',
    'at: "2026-12-07T10:00:00-06:00"\n      timezone: America/Chicago\n      daily_cap_bypass: true\n',
  );

/** The 1-based line of `daily_cap_bypass: true` in the example edited by `withBypass` (column 25). */
const BYPASS_LINE =
  withBypass(readFileSync("examples/gotv.yaml", "utf8"))
    .split("\n")
    .findIndex((l) => l.trim() === "daily_cap_bypass: true") + 1;

/** The 1-based line of the example policy's `daily_cap_bypass` rule (column 3). */
const RULE_LINE =
  readFileSync("examples/campaignctl.policy.yaml", "utf8")
    .split("\n")
    .findIndex((l) => l.startsWith("  daily_cap_bypass:")) + 1;

describe("policy as code", () => {
  test("the example campaign keeps the example policy clean", async () => {
    const cwd = exampleCopy();
    const validated = await runCli(["validate", "examples/", "--json"], { cwd });
    expect(validated.code).toBe(0);
    expect(validated.stdout).not.toContain('"policy.');
    const plan = await runCli(["plan", "--sandbox", "examples/", "--json"], { cwd, env: {} });
    expect(plan.stdout).not.toContain('"policy.');
  });

  test("validate: daily_cap_bypass against a forbidding policy is an error at gotv.yaml:LINE:COL", async () => {
    const cwd = exampleCopy(withBypass);
    const r = await runCli(["validate", "examples/"], { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `examples/gotv.yaml:${BYPASS_LINE}:25: error[policy.daily-cap-bypass]: gotv-reminder:`,
    );
    expect(r.stdout).toContain(
      `note: the policy's rule daily_cap_bypass at examples/campaignctl.policy.yaml:${RULE_LINE}:3`,
    );
  });

  test("plan: the violating project's test and schedule are blocked, its dependants too, the pause is not", async () => {
    const cwd = exampleCopy(withBypass);
    const r = await runCli(["plan", "--sandbox", "examples/", "--json", "--detailed-exitcode"], {
      cwd,
      env: {},
    });
    expect(r.code).toBe(3);
    const plan = JSON.parse(r.stdout) as PlanDoc;
    const reminder = plan.projects.find((p) => p.address === "gotv-reminder");
    expect(reminder?.diagnostics.find((d) => d.code === "policy.daily-cap-bypass")?.range).toMatchObject({
      file: "examples/gotv.yaml",
      start: { line: BYPASS_LINE, column: 25 },
    });
    const status = (address: string) =>
      Object.fromEntries(
        (plan.projects.find((p) => p.address === address)?.actions ?? []).map((a) => [a.id, a.status]),
      );
    expect(status("gotv-reminder")).toEqual({
      "gotv-reminder.test": "blocked",
      "gotv-reminder.schedule": "blocked",
    });
    expect(reminder?.actions[0]?.block?.codes).toContain("policy.daily-cap-bypass");
    expect(Object.values(status("gotv-followup")).every((s) => s === "blocked")).toBe(true);
    expect(status("early-vote-push")).toEqual({ "early-vote-push.pause": "planned" });
    expect(status("volunteer-recruitment")).toEqual({ "volunteer-recruitment.test": "planned" });
  });

  test("--policy names another file; a broken policy file stops before any request", async () => {
    const cwd = exampleCopy();
    writeFileSync(join(cwd, "strict.yaml"), "version: 1\nrules:\n  min_test_contacts: 5\n");
    const strict = await runCli(["validate", "examples/", "--policy", "strict.yaml"], { cwd });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain("error[policy.min-test-contacts]");
    writeFileSync(join(cwd, "broken.yaml"), "version: 1\nrules:\n  daily_cap_bypass: never\n");
    const broken = await runCli(["plan", "--sandbox", "examples/", "--policy", "broken.yaml"], {
      cwd,
      env: {},
    });
    expect(broken.code).toBe(1);
    expect(broken.stderr + broken.stdout).toContain("broken.yaml:3:21");
    expect(broken.stderr + broken.stdout).toContain("policy.file-invalid");
  });

  test("the found policy file is shown as the campaign path was given (absolute stays absolute)", async () => {
    const cwd = exampleCopy(withBypass);
    const elsewhere = mkdtempSync(join(tmpdir(), "campaignctl-policy-cwd-"));
    const dir = join(cwd, "examples");
    const r = await runCli(["validate", dir], { cwd: elsewhere });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${join(dir, "gotv.yaml")}:${BYPASS_LINE}:25: error[policy.daily-cap-bypass]`);
    expect(r.stdout).toContain(
      `note: the policy's rule daily_cap_bypass at ${join(dir, "campaignctl.policy.yaml")}:${RULE_LINE}:3`,
    );
    // The same directory named twice, two ways, is one policy, not an ambiguous pair.
    const twice = await runCli(["validate", "examples/", join(cwd, "examples", "gotv.yaml")], { cwd });
    expect(twice.stdout + twice.stderr).not.toContain("policy.ambiguous");
  });
});
