/**
 * `apply` of campaign files under `require_approvals` (issue 37 point 6): no saved plan was approved,
 * so the schedules the rule covers are held (`apply.approvals-need-saved-plan`, at the schedule), with
 * what is ordered after them, while tests and the pause go; the hold holds in apply's loop too, when
 * a schedule becomes runnable after its test is approved. With `for: daily_cap_bypass` only a
 * schedule that bypasses the cap is held, in files mode and in a saved plan alike.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { ApplyResult } from "../../src/apply/types.js";
import { runCli } from "../helpers/run-cli.js";
import { EARLY_VOTE, GOTV_FOLLOWUP, GOTV_REMINDER, VOLUNTEERS } from "../sandbox/helpers.js";
import { type ApprovalsWorld, approvalsWorld, sent, TWO_APPROVALS } from "./world.js";

let world: ApprovalsWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function statuses(result: ApplyResult): Record<string, string> {
  return Object.fromEntries(result.actions.map((a) => [a.id, a.status]));
}

/** The follow-up bypasses the daily cap, which the example policy then allows. */
function bypassFollowup(w: ApprovalsWorld): void {
  const policy = join(w.dir, "examples", "campaignctl.policy.yaml");
  writeFileSync(
    policy,
    readFileSync(policy, "utf8").replace("daily_cap_bypass: forbid", "daily_cap_bypass: allow"),
  );
  const gotv = join(w.dir, "examples", "gotv.yaml");
  const schedule = '      at: "2026-12-08T15:00:00-06:00"\n      timezone: America/Chicago\n';
  const text = readFileSync(gotv, "utf8");
  expect(text).toContain(schedule);
  writeFileSync(gotv, text.replace(schedule, `${schedule}      daily_cap_bypass: true\n`));
}

describe("apply of campaign files under require_approvals", () => {
  test("holds every schedule (and what waits for it), sends the tests and the pause", async () => {
    const w = await approvalsWorld(TWO_APPROVALS);
    world = w;
    const run = await runCli(["apply", "examples", "--auto-approve", "--json"], { cwd: w.dir, env: w.env });
    expect(run.code, run.stderr).toBe(1);
    const result = JSON.parse(run.stdout) as ApplyResult;
    expect(statuses(result)).toEqual({
      "early-vote-push.pause": "done",
      "gotv-reminder.test": "done",
      "gotv-reminder.schedule": "blocked",
      "gotv-followup.test": "blocked",
      "gotv-followup.schedule": "blocked",
      "volunteer-recruitment.test": "done",
    });
    const held = result.actions.find((a) => a.id === "gotv-reminder.schedule");
    expect(held?.reason).toContain("needs 2 approvals of a saved plan (require_approvals)");
    // The plan shown before the question says why, at the schedule.
    expect(run.stderr).toMatch(
      /error\[apply\.approvals-need-saved-plan\]: gotv-reminder: the policy's require_approvals holds this schedule/,
    );
    expect(run.stderr).toContain("examples/gotv.yaml:");
    // The test was approved at once, and the loop still did not schedule: the hold is on every re-judgement.
    expect(new Set(await sent(w.sb))).toEqual(
      new Set([`${EARLY_VOTE}:pause`, `${GOTV_REMINDER}:test`, `${VOLUNTEERS}:test`]),
    );
  }, 60_000);

  test("for: daily_cap_bypass holds only the schedule that bypasses the cap", async () => {
    const w = await approvalsWorld(
      "  require_approvals: {count: 2, for: daily_cap_bypass, allowed_signers: allowed_signers}\n",
    );
    world = w;
    bypassFollowup(w);
    // A saved plan: only the bypassing schedule needs approvals.
    const planned = await runCli(["plan", "examples", "--out", "plan.json"], { cwd: w.dir, env: w.env });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stderr).toContain("gotv-followup.schedule needs 2 approvals");
    const saved = await runCli(["apply", "plan.json", "--json"], { cwd: w.dir, env: w.env });
    expect(saved.code).toBe(1);
    const refused = (JSON.parse(saved.stdout) as ApplyResult).refused.map((d) => d.message).join("\n");
    expect(refused).toContain("before it sends gotv-followup.schedule;");
    expect(await sent(w.sb)).toEqual([]);
    // Campaign files: the reminder is scheduled, the bypassing follow-up held.
    const run = await runCli(["apply", "examples", "--auto-approve", "--json"], { cwd: w.dir, env: w.env });
    expect(run.code, run.stderr).toBe(1);
    expect(statuses(JSON.parse(run.stdout) as ApplyResult)).toMatchObject({
      "gotv-reminder.schedule": "done",
      "gotv-followup.test": "done",
      "gotv-followup.schedule": "blocked",
    });
    const effects = await sent(w.sb);
    expect(effects).toContain(`${GOTV_REMINDER}:schedule`);
    expect(effects).not.toContain(`${GOTV_FOLLOWUP}:schedule`);
  }, 60_000);

  test("control: without the rule the same apply schedules both (so the holds above can fail)", async () => {
    const w = await approvalsWorld("");
    world = w;
    const run = await runCli(["apply", "examples", "--auto-approve", "--json"], { cwd: w.dir, env: w.env });
    expect(run.code, run.stderr).toBe(0);
    const effects = await sent(w.sb);
    expect(effects).toContain(`${GOTV_REMINDER}:schedule`);
    expect(effects).toContain(`${GOTV_FOLLOWUP}:schedule`);
  }, 60_000);
});
