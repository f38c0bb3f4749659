/**
 * Plan and apply find the same policy: discovery starts from the campaign files read, so `plan DIR`
 * and `apply PLANFILE` (which names the same files) see the same nested and outer policy files, and
 * refuse, or proceed with --policy, the same way.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../helpers/run-cli.js";

/**
 * A repository (`.git`) with the example policy at its root, `campaigns/gotv/gotv.yaml` beside its
 * own lenient policy and `campaigns/other.yaml` beside none.
 */
function repository(): string {
  const cwd = mkdtempSync(join(tmpdir(), "campaignctl-policy-agree-"));
  mkdirSync(join(cwd, ".git"));
  mkdirSync(join(cwd, "campaigns", "gotv"), { recursive: true });
  copyFileSync("examples/campaignctl.policy.yaml", join(cwd, "campaignctl.policy.yaml"));
  copyFileSync("examples/gotv.yaml", join(cwd, "campaigns", "gotv", "gotv.yaml"));
  writeFileSync(
    join(cwd, "campaigns", "gotv", "campaignctl.policy.yaml"),
    "version: 1\nrules:\n  min_test_contacts: 1\n",
  );
  copyFileSync("examples/volunteers.yaml", join(cwd, "campaigns", "other.yaml"));
  return cwd;
}

const AMBIGUOUS =
  "error[policy.ambiguous]: the campaign files lead to different policy files: " +
  "campaigns/gotv/campaignctl.policy.yaml (nearest to campaigns/gotv/gotv.yaml), " +
  "campaignctl.policy.yaml (nearest to campaigns/other.yaml)";

describe("plan and apply find the same policy", () => {
  test("a nested and an outer policy: plan DIR and apply PLANFILE both refuse; with --policy both proceed", async () => {
    const cwd = repository();
    const plan = await runCli(["plan", "--sandbox", "campaigns/", "--out", "refused.json"], { cwd, env: {} });
    expect(plan.code).toBe(1);
    expect(plan.stdout + plan.stderr).toContain(AMBIGUOUS);
    expect(existsSync(join(cwd, "refused.json"))).toBe(false);

    const planned = await runCli(
      ["plan", "--sandbox", "campaigns/", "--policy", "campaignctl.policy.yaml", "--out", "plan.json"],
      { cwd, env: {} },
    );
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
    expect(planned.stdout + planned.stderr).not.toMatch(/\[policy\./);

    // The saved plan names campaigns/gotv/gotv.yaml and campaigns/other.yaml: the same two policies.
    const apply = await runCli(["apply", "plan.json", "--sandbox"], { cwd, env: {} });
    expect(apply.code).toBe(1);
    expect(apply.stdout + apply.stderr).toContain(AMBIGUOUS);
    const json = await runCli(["apply", "plan.json", "--sandbox", "--json"], { cwd, env: {} });
    expect(json.code).toBe(1);
    const refused = JSON.parse(json.stdout) as { refused: { code: string }[] };
    expect(refused.refused.map((d) => d.code)).toEqual(["policy.ambiguous"]);

    const applied = await runCli(["apply", "plan.json", "--sandbox", "--policy", "campaignctl.policy.yaml"], {
      cwd,
      env: {},
    });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stderr).toContain("it is the same plan");
  });
});
