/**
 * Policy discovery that cannot be cut short (issue 24 item 1), end to end: the root policy of a
 * repository forbids (and locks) `daily_cap_bypass`; the campaign files live in `campaigns/team/`,
 * which holds a nested repository's `.git` (a directory, or the file a submodule leaves), or the
 * root policy is spelt `.yml`, or misspelt. In every case `apply` against the sandbox schedules
 * nothing the policy forbids: the root policy applies, or the run fails naming the near miss.
 * The GOTV reminder's test is first sent and approved under an honest file (once per file, each
 * case starting from a copy of that state), so that its schedule is exactly what the second apply
 * would send; effects are counted from `/_sandbox/effects`.
 */
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { runCli } from "../helpers/run-cli.js";
import { admin, GOTV_REMINDER, PARENT_KEY, sandbox } from "../sandbox/helpers.js";

let sb: SandboxHandle;
afterEach(async () => {
  await sb.close();
});

const cli = (cwd: string, ...argv: string[]) =>
  runCli([...argv, "--base-url", sb.baseUrl], { cwd, env: { CAMPAIGNCTL_API_KEY: PARENT_KEY } });

const effects = async () =>
  (await admin(sb, "GET", "/effects")).body.data.effects as { project_id: string; kind: string }[];

const TEAM = join("campaigns", "team");

/**
 * The honest first run, made once per file: a repository whose root holds the example policy (with
 * `daily_cap_bypass` locked) and whose `campaigns/team/` holds the example campaign files (its own
 * policy file empty: the root's is the only one with rules), applied (the GOTV reminder's test goes
 * out) and the test approved, in a sandbox that keeps its state in a file. Each test starts `sb`
 * from a copy of that state (world, effects, idempotency keys, clock) with a copy of the directory.
 */
let prepared: Promise<{ readonly state: string; readonly cwd: string; readonly policy: string }> | undefined;

async function prepare(): Promise<{ state: string; cwd: string; policy: string }> {
  const state = join(mkdtempSync(join(tmpdir(), "campaignctl-nested-state-")), "state.json");
  sb = await sandbox({ rateLimits: true, statePath: state });
  try {
    const cwd = mkdtempSync(join(tmpdir(), "campaignctl-nested-"));
    mkdirSync(join(cwd, ".git"));
    mkdirSync(join(cwd, "campaigns"));
    cpSync("examples", join(cwd, TEAM), { recursive: true, filter: (src) => !src.includes("/ci") });
    const policy = readFileSync(join(cwd, TEAM, "campaignctl.policy.yaml"), "utf8");
    writeFileSync(join(cwd, TEAM, "campaignctl.policy.yaml"), "version: 1\nrules: {}\n");
    writeFileSync(join(cwd, "campaignctl.policy.yaml"), `${policy}locked: [daily_cap_bypass]\n`);
    const first = await cli(cwd, "apply", TEAM, "--auto-approve");
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect((await effects()).some((e) => e.kind === "test" && e.project_id === GOTV_REMINDER)).toBe(true);
    expect((await admin(sb, "POST", `/projects/${GOTV_REMINDER}/approve`)).status).toBe(200);
    return { state, cwd, policy };
  } finally {
    await sb.close();
  }
}

/**
 * The honest first run's repository and sandbox state, copied, with the root policy as
 * `policyName` and `nested` adding a `.git` to `campaigns/team/`; then the team sets
 * `daily_cap_bypass` on the reminder, which the root policy forbids.
 */
async function repository(policyName: string, nested: "dir" | "file" | null): Promise<string> {
  prepared ??= prepare();
  const made = await prepared;
  const state = join(mkdtempSync(join(tmpdir(), "campaignctl-nested-state-")), "state.json");
  copyFileSync(made.state, state);
  sb = await sandbox({ rateLimits: true, statePath: state });
  const cwd = mkdtempSync(join(tmpdir(), "campaignctl-nested-"));
  cpSync(made.cwd, cwd, { recursive: true });
  if (policyName !== "campaignctl.policy.yaml") {
    writeFileSync(join(cwd, policyName), `${made.policy}locked: [daily_cap_bypass]\n`);
    rmSync(join(cwd, "campaignctl.policy.yaml"));
  }
  if (nested === "dir") mkdirSync(join(cwd, TEAM, ".git"));
  if (nested === "file") writeFileSync(join(cwd, TEAM, ".git"), "gitdir: ../../.git/modules/team\n");
  const gotv = join(cwd, TEAM, "gotv.yaml");
  writeFileSync(
    gotv,
    readFileSync(gotv, "utf8").replace(
      "      timezone: America/Chicago\n",
      "      timezone: America/Chicago\n      daily_cap_bypass: true\n",
    ),
  );
  return cwd;
}

const reminderSchedules = async () =>
  (await effects()).filter((e) => e.kind === "schedule" && e.project_id === GOTV_REMINDER);

describe("apply schedules nothing the root policy forbids", () => {
  test.each([
    ["a nested .git directory", "campaignctl.policy.yaml", "dir"],
    ["a nested .git file (a submodule)", "campaignctl.policy.yaml", "file"],
    ["a root policy named .yml", "campaignctl.policy.yml", null],
    ["a .yml root policy above a nested .git file", "campaignctl.policy.yml", "file"],
  ] as const)("%s: the root policy applies", async (_, name, nested) => {
    const cwd = await repository(name, nested);
    const plan = await cli(cwd, "plan", TEAM);
    expect(plan.stdout).toContain(`policy:    ${name}, campaigns/team/campaignctl.policy.yaml`);
    const r = await cli(cwd, "apply", TEAM, "--auto-approve");
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain("error[policy.daily-cap-bypass]");
    expect(await reminderSchedules()).toEqual([]);
  });

  test("a misspelt root policy (Campaignctl.policy.yaml): the run fails naming it, and sends nothing", async () => {
    const cwd = await repository("Campaignctl.policy.yaml", "dir");
    const before = (await effects()).length;
    const r = await cli(cwd, "apply", TEAM, "--auto-approve");
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(
      "Campaignctl.policy.yaml looks like a policy file but is not named campaignctl.policy.yaml or campaignctl.policy.yml, so it is not read: did you mean campaignctl.policy.yaml?",
    );
    expect((await effects()).length).toBe(before);
  });

  test("control: with no root policy at all, the same apply schedules the reminder (so the count can fail)", async () => {
    const cwd = await repository("campaignctl.policy.yaml", "dir");
    rmSync(join(cwd, "campaignctl.policy.yaml"));
    const r = await cli(cwd, "apply", TEAM, "--auto-approve");
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await reminderSchedules()).toHaveLength(1);
    // --require-policy would have stopped it: the team's empty policy file is a policy, the
    // root's is what was missing; without any policy file the flag fails the run.
    rmSync(join(cwd, TEAM, "campaignctl.policy.yaml"));
    const required = await cli(cwd, "plan", TEAM, "--require-policy");
    expect(required.code).toBe(1);
    expect(required.stdout + required.stderr).toContain("error[policy.required]");
  });
});
