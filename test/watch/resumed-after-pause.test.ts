/**
 * A project whose guard's pause landed, started again in the dashboard while the same watch runs
 * (`POST /_sandbox/projects/{id}/resume`, the dashboard's "start again"), end to end against a
 * sandbox (loopback, rate limits on, virtual clock, no real sleeps), every JSON line checked against
 * its schema. The landed pause held only until the project sent again: watch shows it sending,
 * `--until-done` waits for it, and its guard judges it again (as the next watch would, on its
 * lifetime figures) and pauses it again with a key of the new version.
 */
import { afterEach, describe, expect, test } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { admin } from "../sandbox/helpers.js";
import { effects, type Line, liveProject, runWatch } from "./harness.js";
import { failingWorld } from "./world.js";

let sb: SandboxHandle | undefined;
afterEach(async () => {
  expect(sb?.bugs ?? []).toEqual([]);
  await sb?.close();
  sb = undefined;
});

describe("a project started again in the dashboard after its guard's pause landed", () => {
  test("is shown sending, judged again and paused again in the same run; --until-done waits for it", async () => {
    const started = await failingWorld();
    sb = started.sb;
    const { cwd, failing } = started;
    const s = started.sb;
    let resumedAt: string | null = null;
    const run = await runWatch(s, cwd, [], {
      flags: { json: true, untilDone: true, interval: 5000 },
      // Before the first wait that finds the guard's pause landed: a person starts it again.
      beforeWait: async () => {
        if (resumedAt !== null || (await liveProject(s, failing)).status !== "paused") return;
        const resumed = await admin(s, "POST", `/projects/${failing}/resume`);
        expect(resumed.status).toBe(200);
        resumedAt = new Date(s.clock.nowMs()).toISOString();
      },
    });
    expect(resumedAt).not.toBeNull();
    const bravo = (l: Line): boolean => l.project?.id === failing;
    // The poll after the resume shows it as the API does: sending, not `paused`.
    const progress = run.lines.filter((l: Line) => l.type === "progress" && bravo(l));
    expect(progress.some((l: Line) => l.project.status === "active" && l.at > (resumedAt as string))).toBe(
      true,
    );
    // Its guard judged it again and paused it again, with a key of the new version.
    const trips = run.lines.filter((l: Line) => l.type === "tripped" && bravo(l));
    expect(trips).toHaveLength(2);
    const pauses = await effects(s, "pause");
    expect(pauses.filter((p) => p.changed)).toHaveLength(2);
    expect(new Set(pauses.map((p) => p.idempotency_key)).size).toBe(2);
    const live = await liveProject(s, failing);
    expect(live.status).toBe("paused");
    expect(live.pause_reason).toMatch(/^guard: failure rate /);
    // --until-done did not stop while it sent again unguarded.
    expect(run.code).toBe(2);
    expect(run.lines.at(-1)).toMatchObject({
      type: "stop",
      reason: "done",
      paused: 1,
      pending: 0,
      errors: 0,
    });
  });
});
