/**
 * A saved plan's schedule that was blocked when the plan was reviewed (and approved: the approvals
 * named only the schedules that could go out) is never sent by `apply PLANFILE`, even when the
 * loop, re-judging during `--wait-for-approval`, finds it unblocked: here a monthly budget held
 * the follow-up's schedule, and while apply waited the reminder's live estimate dropped, which
 * made room for it. Only what was reviewed for sending goes out.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { admin, GOTV_FOLLOWUP, GOTV_REMINDER } from "../sandbox/helpers.js";
import { applyWaiting, approveTests, signByDanaErinFrank } from "./waiting.js";
import { type ApprovalsWorld, approvalsWorld, sent, TWO_APPROVALS } from "./world.js";

let world: ApprovalsWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** $0.50 a month: room for one of the two GOTV sends ($0.38 each), not both. */
const BUDGET = "  budgets:\n    - {usd: 0.50, per: month}\n";

test("a schedule blocked in the reviewed plan stays unsent when it becomes runnable during the wait", async () => {
  const w = await approvalsWorld(TWO_APPROVALS + BUDGET, { autoApproveTests: false });
  world = w;
  for (const name of ["dana", "erin", "frank"]) {
    w.key(name);
    w.allow(`${name}@example.org`, name);
  }
  const planned = await runCli(["plan", "examples", "--out", "plan.json"], { cwd: w.dir, env: w.env });
  expect(planned.stderr).toContain("gotv-reminder.schedule needs 2 approvals");
  const saved = JSON.parse(readFileSync(join(w.dir, "plan.json"), "utf8")) as {
    projects: { actions: { id: string; status: string }[] }[];
  };
  const status = new Map(saved.projects.flatMap((p) => p.actions).map((a) => [a.id, a.status]));
  expect(status.get("gotv-reminder.schedule")).toBe("deferred");
  expect(status.get("gotv-followup.schedule")).toBe("blocked");
  await signByDanaErinFrank(w);
  const run = await applyWaiting(w, w.env, async (n) => {
    // While apply waits, the reminder's live estimate drops to nothing: the budget has room again.
    if (n === 1) await admin(w.sb, "PATCH", `/projects/${GOTV_REMINDER}`, { estimated_cost_cents: 0 });
    await approveTests(w);
  });
  expect(run.waits).toBeGreaterThanOrEqual(1);
  const byId = new Map(run.result.actions.map((a) => [a.id, a]));
  expect(byId.get("gotv-reminder.schedule")?.status).toBe("done");
  const followup = byId.get("gotv-followup.schedule");
  expect(followup).toMatchObject({ status: "failed", attempts: 0 });
  expect(followup?.error).toMatchObject({ source: "campaignctl", code: "apply.plan-differs" });
  expect(followup?.error?.message).toContain("status: saved blocked, fresh planned");
  expect(run.code).toBe(1);
  const effects = await sent(w.sb);
  expect(effects).toContain(`${GOTV_REMINDER}:schedule`);
  expect(effects).not.toContain(`${GOTV_FOLLOWUP}:schedule`);
}, 60_000);
