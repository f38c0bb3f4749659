/**
 * Approvals are read again before a round sends what needs them (`apply PLANFILE
 * --wait-for-approval`): an approval withdrawn while apply waits for the test messages' approval
 * (the signer's line removed from the allowed signers file, their signature file deleted, a GitHub
 * reviewer requesting changes) holds the schedules that go out after it. They are not sent
 * (`apply.approvals-missing`, exit 1); tests and pauses, which need no approval, go on. With the
 * approvals still in place the same wait sends them.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { planSha256 } from "../../src/approvals/plan-hash.js";
import { runCli } from "../helpers/run-cli.js";
import { EARLY_VOTE, GOTV_FOLLOWUP, GOTV_REMINDER } from "../sandbox/helpers.js";
import { applyWaiting, approveTests, signByDanaErinFrank } from "./waiting.js";
import { type ApprovalsWorld, approvalsWorld, sent } from "./world.js";

let world: ApprovalsWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A saved plan whose schedules wait for their tests, signed by dana as author, approved by erin and frank. */
async function approvedPlan(): Promise<{ w: ApprovalsWorld; dir: string }> {
  const w = await approvalsWorld(undefined, { autoApproveTests: false });
  world = w;
  for (const name of ["dana", "erin", "frank"]) {
    w.key(name);
    w.allow(`${name}@example.org`, name);
  }
  const planned = await runCli(["plan", "examples", "--out", "plan.json"], { cwd: w.dir, env: w.env });
  expect(planned.code, planned.stderr).toBe(0);
  const saved = JSON.parse(readFileSync(join(w.dir, "plan.json"), "utf8"));
  const statuses = Object.fromEntries(
    (saved.projects as { actions: { id: string; status: string }[] }[])
      .flatMap((p) => p.actions)
      .map((a) => [a.id, a.status]),
  );
  expect(statuses).toMatchObject({ "gotv-reminder.schedule": "deferred" });
  await signByDanaErinFrank(w);
  return { w, dir: join(w.dir, "approvals", planSha256(saved)) };
}

function statuses(result: { actions: readonly { id: string; status: string }[] }) {
  return Object.fromEntries(result.actions.map((a) => [a.id, a.status]));
}

describe("approvals withdrawn while apply waits", () => {
  test("still in place: the schedules go out once the tests are approved", async () => {
    const { w } = await approvedPlan();
    const run = await applyWaiting(w, w.env, () => approveTests(w));
    expect(run.code, run.stdout).toBe(0);
    expect(statuses(run.result)).toMatchObject({
      "gotv-reminder.schedule": "done",
      "gotv-followup.schedule": "done",
    });
    expect(await sent(w.sb)).toContain(`${GOTV_REMINDER}:schedule`);
  }, 60_000);

  test("a signer's line removed from the allowed signers file: the schedules are held, not sent", async () => {
    const { w } = await approvedPlan();
    const signers = join(w.dir, "examples", "allowed_signers");
    const run = await applyWaiting(w, w.env, async (n) => {
      // Erin's approval is withdrawn during the first wait; the test messages are approved.
      if (n === 1) {
        const kept = readFileSync(signers, "utf8")
          .split("\n")
          .filter((l) => !l.startsWith("erin@"));
        writeFileSync(signers, kept.join("\n"));
      }
      await approveTests(w);
    });
    expect(run.waits).toBeGreaterThanOrEqual(1);
    expect(run.code, run.stdout).toBe(1);
    // The reminder's schedule is held; the follow-up, ordered after it (`after:`), is skipped.
    const byId = new Map(run.result.actions.map((a) => [a.id, a]));
    const held = byId.get("gotv-reminder.schedule");
    expect(held).toMatchObject({ status: "failed", attempts: 0 });
    expect(held?.error).toMatchObject({ source: "campaignctl", code: "apply.approvals-missing" });
    expect(held?.reason).toContain("read again just before sending it");
    for (const id of ["gotv-followup.test", "gotv-followup.schedule"])
      expect(byId.get(id)?.status, id).toBe("skipped");
    const first = held?.error?.message ?? "";
    expect(first).toContain("gotv-reminder.schedule; read again just before sending them, it has 1");
    expect(first).toContain("needs 2 approvals by people other than its author");
    expect(first).toContain("it has 1");
    expect(first).toContain("not in the allowed signers file examples/allowed_signers");
    const effects = await sent(w.sb);
    expect(effects).not.toContain(`${GOTV_REMINDER}:schedule`);
    expect(effects).not.toContain(`${GOTV_FOLLOWUP}:schedule`);
    // What needs no approval went: the tests, the pause.
    expect(effects).toContain(`${GOTV_REMINDER}:test`);
    expect(effects).toContain(`${EARLY_VOTE}:pause`);
  }, 60_000);

  test("a signature file deleted: the schedules are held, not sent", async () => {
    const { w, dir } = await approvedPlan();
    const run = await applyWaiting(w, w.env, async (n) => {
      if (n === 1) rmSync(join(dir, "frank@example.org.sig"));
      await approveTests(w);
    });
    expect(run.code, run.stdout).toBe(1);
    const held = run.result.actions.find((x) => x.id === "gotv-reminder.schedule");
    expect(held?.status).toBe("failed");
    expect(held?.error).toMatchObject({ code: "apply.approvals-missing" });
    expect(held?.error?.message).toContain("missing: 1 more approval (could approve: frank@example.org)");
    expect((await sent(w.sb)).filter((e) => e.endsWith(":schedule"))).toEqual([]);
  }, 60_000);
});
