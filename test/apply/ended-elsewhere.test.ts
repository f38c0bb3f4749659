/**
 * A schedule that took effect and was then paused from the dashboard before the run's last read
 * (issue 16): the apply report says the project ended paused, and why, instead of a bare "done"
 * while the next plan says plan.restart-not-supported.
 */
import { expect, test } from "vitest";
import { renderApplyHuman } from "../../src/report/apply-human.js";
import { touch } from "../../src/sandbox/routes/project-access.js";
import { applyLoop, bedsClosedAfterEach, effects } from "./helpers.js";

const openBed = bedsClosedAfterEach();

test("a schedule paused from the dashboard right after it took effect: the report says it ended paused", async () => {
  const bed = await openBed({ schedule: 1 });
  const id = bed.world.projects[0]?.id ?? "";
  const { result } = await applyLoop(bed, {
    onEvent: (event) => {
      // The dashboard pauses the project the moment the schedule is done, before the loop re-reads it.
      if (event.type !== "action-end" || event.status !== "done") return;
      const p = bed.sb.store.world.projects[id];
      if (p === undefined) return;
      bed.sb.store.mutate(() => {
        p.status = "paused";
        p.pause_reason = "paused from the dashboard";
        touch(p, bed.sb.clock.nowMs() + 1000);
      });
    },
  });
  expect((await effects(bed.sb)).filter((e) => e.kind === "schedule" && e.changed)).toHaveLength(1);
  const action = result.actions[0];
  expect(action).toMatchObject({ kind: "schedule", status: "done", status_after: "paused" });
  expect(action?.resolution).toContain("then the project was paused outside this run");
  expect(action?.resolution).toContain("plan.restart-not-supported");
  expect(renderApplyHuman(result, { color: false })).toContain("project now paused");
});
