/**
 * `require_guards` and a guard's `min_sample`: a guard that judges no rate before more messages are
 * sent than the send has recipients can never pause it, so it does not meet the rule. Known only
 * with the live recipients, so `plan` judges it (over real HTTP against the sandbox, at the fixed
 * test instant); `validate`, offline, cannot.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { TEST_NOW } from "../helpers/clock.js";
import { fileProject, liveProject, scheduleAt, TEST_BLOCK } from "../plan-command/fixture-builder.js";
import { planIn, withCase } from "../plan-command/harness.js";

const NOW = TEST_NOW;
const POLICY = "version: 1\nrules:\n  require_guards: true\n";

async function planWith(minSample: number | undefined) {
  return withCase(
    {
      live: [liveProject(1, NOW, { status: "draft", total_recipients: 40 })],
      files: {
        one: fileProject(1, {
          state: "scheduled",
          test: TEST_BLOCK,
          schedule: scheduleAt(NOW, 10),
          guard: { max_failure_rate: 0.05, ...(minSample === undefined ? {} : { min_sample: minSample }) },
        }),
      },
    },
    async (sandbox, dir) => {
      writeFileSync(join(dir, "campaignctl.policy.yaml"), POLICY);
      const run = await planIn(sandbox, dir, ["--json"]);
      return { run, project: JSON.parse(run.stdout).projects[0] };
    },
  );
}

describe("require_guards: a guard whose sample the send never reaches", () => {
  test("min_sample over the send's 40 recipients: policy.require-guards holds the schedule, exit 1", async () => {
    const { run, project } = await planWith(1_000);
    expect(run.code, run.stderr).toBe(1);
    const guards = project.diagnostics.filter((d: { code: string }) => d.code === "policy.require-guards");
    expect(guards).toHaveLength(1);
    expect(guards[0].message).toContain("1000 messages");
    expect(guards[0].message).toContain("40 recipients");
    const schedule = project.actions.find((a: { kind: string }) => a.kind === "schedule");
    expect(schedule.status).toBe("blocked");
    expect(schedule.block.codes).toContain("policy.require-guards");
  });

  test("no min_sample: its default (100) is over the send's 40 recipients, the rule is not met", async () => {
    const { run, project } = await planWith(undefined);
    expect(run.code, run.stderr).toBe(1);
    const [guard] = project.diagnostics.filter((d: { code: string }) => d.code === "policy.require-guards");
    expect(guard.message).toContain("before 100 messages are sent");
    expect(guard.hint).toContain("min_sample of at most 40");
  });

  test("min_sample within the send's recipients: the rule is met", async () => {
    const { run, project } = await planWith(40);
    expect(run.code, run.stderr).toBe(0);
    expect(project.diagnostics.map((d: { code: string }) => d.code)).not.toContain("policy.require-guards");
    expect(project.actions.map((a: { status: string }) => a.status)).not.toContain("blocked");
  });
});
