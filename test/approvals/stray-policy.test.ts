/**
 * A saved plan is applied under the policy files it was made with, and no other: a policy file that
 * applies now but that the saved plan does not list (added after the plan was made, nearer the
 * campaign files) refuses the whole plan, before anything is sent. Before, `apply PLANFILE` judged
 * with the policy discovered now: a stray `campaignctl.policy.yaml` with `loosens:
 * [require_approvals]` beside the campaign files let a saved plan that needed two approvals send its
 * schedules with none.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { ApplyResult } from "../../src/apply/types.js";
import { runCli } from "../helpers/run-cli.js";
import { schemaErrors } from "../helpers/schemas.js";
import { type ApprovalsWorld, approvalsWorld, sent } from "./world.js";

let world: ApprovalsWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The approvals world with its policy (two approvals) at the root, none beside the campaign files. */
async function rootPolicyWorld(): Promise<ApprovalsWorld> {
  const w = await approvalsWorld();
  renameSync(join(w.dir, "examples", "campaignctl.policy.yaml"), join(w.dir, "campaignctl.policy.yaml"));
  renameSync(join(w.dir, "examples", "allowed_signers"), join(w.dir, "allowed_signers"));
  return w;
}

describe("a saved plan and the policy files it was made with", () => {
  test("a policy file added beside the campaign files after the plan (loosening require_approvals) refuses the plan: nothing sent", async () => {
    const w = await rootPolicyWorld();
    world = w;
    const planned = await runCli(["plan", "examples", "--out", "plan.json"], { cwd: w.dir, env: w.env });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stderr).toContain("need 2 approvals by people other than its author");
    const files = JSON.parse(readFileSync(join(w.dir, "plan.json"), "utf8")).files;
    expect(
      files.filter((f: { kind: string }) => f.kind === "policy").map((f: { path: string }) => f.path),
    ).toEqual(["campaignctl.policy.yaml"]);
    writeFileSync(
      join(w.dir, "examples", "campaignctl.policy.yaml"),
      "version: 1\nrules: {}\nloosens: [require_approvals]\n",
    );
    const run = await runCli(["apply", "plan.json", "--json"], { cwd: w.dir, env: w.env });
    expect(schemaErrors("apply-result", JSON.parse(run.stdout))).toEqual([]);
    expect(await sent(w.sb)).toEqual([]);
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as ApplyResult;
    expect(result.refused.map((d) => [d.code, d.message])).toEqual([
      [
        "apply.files-changed",
        "the policy file examples/campaignctl.policy.yaml applies now, but the saved plan was not made with it (a policy file added since, or passed with --policy)",
      ],
    ]);
  }, 60_000);

  test("--loosen-policy given to apply PLANFILE and not to plan refuses the plan: nothing sent", async () => {
    const w = await rootPolicyWorld();
    world = w;
    expect((await runCli(["plan", "examples", "--out", "plan.json"], { cwd: w.dir, env: w.env })).code).toBe(
      0,
    );
    const run = await runCli(["apply", "plan.json", "--json", "--loosen-policy", "require_approvals"], {
      cwd: w.dir,
      env: w.env,
    });
    expect(schemaErrors("apply-result", JSON.parse(run.stdout))).toEqual([]);
    expect(await sent(w.sb)).toEqual([]);
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as ApplyResult;
    expect(result.refused.map((d) => [d.code, d.message])).toEqual([
      [
        "apply.policy-changed",
        "require_approvals is loosened by --loosen-policy now, but the saved plan was made without that loosening",
      ],
    ]);
  }, 60_000);

  test("a plan made with --loosen-policy applies with the same flag (the loosening was reviewed), and is refused without it", async () => {
    const w = await rootPolicyWorld();
    world = w;
    const loosen = ["--loosen-policy", "require_approvals"];
    const planned = await runCli(["plan", "examples", "--out", "plan.json", ...loosen], {
      cwd: w.dir,
      env: w.env,
    });
    expect(planned.code, planned.stderr).toBe(0);
    const without = await runCli(["apply", "plan.json", "--json"], { cwd: w.dir, env: w.env });
    expect((JSON.parse(without.stdout) as ApplyResult).refused.map((d) => [d.code, d.message])).toEqual([
      [
        "apply.policy-changed",
        "require_approvals was loosened by --loosen-policy when the saved plan was made, but is not now",
      ],
    ]);
    expect(await sent(w.sb)).toEqual([]);
    const same = await runCli(["apply", "plan.json", "--json", ...loosen], { cwd: w.dir, env: w.env });
    expect(same.code, same.stdout.slice(0, 3000)).toBe(0);
    expect((await sent(w.sb)).length).toBeGreaterThan(0);
  }, 60_000);

  test("control: the same saved plan, nothing added, is refused for its missing approvals", async () => {
    const w = await rootPolicyWorld();
    world = w;
    expect((await runCli(["plan", "examples", "--out", "plan.json"], { cwd: w.dir, env: w.env })).code).toBe(
      0,
    );
    const run = await runCli(["apply", "plan.json", "--json"], { cwd: w.dir, env: w.env });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as ApplyResult;
    expect(result.refused.map((d) => d.code)).toEqual(["apply.approvals-missing"]);
    expect(await sent(w.sb)).toEqual([]);
  }, 60_000);
});
