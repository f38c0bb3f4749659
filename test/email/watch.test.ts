import { describe, expect, test } from "vitest";
import type { TestBed } from "../apply/helpers.js";
import { admin } from "../sandbox/helpers.js";
import { runWatch } from "../watch/harness.js";
import { CAMPAIGN_SENDING, closedAfterEach, emailBed } from "./world.js";

const beds = closedAfterEach();

/** `watch --until-done --json` over the bed's email files, the sending campaign completing during wait `n`. */
function untilCompleted(bed: TestBed, n: number) {
  return runWatch(bed.sb, bed.world.dir, ["campaign/gotv-email.yaml", "campaign/generated.yaml"], {
    flags: { json: true, untilDone: true },
    beforeWait: (wait) => {
      if (wait === n)
        bed.sb.store.mutate((w) => {
          const c = w.emailCampaigns[CAMPAIGN_SENDING];
          if (c !== undefined) c.status = "completed";
        });
    },
  });
}

describe("watch: email campaigns' guards alert", () => {
  test("a tripped guard is one alert line naming the dashboard step; exit 1", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: 1, sending: true });
    beds.push(bed);
    const run = await runWatch(
      bed.sb,
      bed.world.dir,
      ["campaign/gotv-email.yaml", "campaign/generated.yaml"],
      {
        flags: { json: true, once: true },
      },
    );
    expect(run.code).toBe(1);
    const alerts = run.lines.filter(
      (l) => l.type === "diagnostic" && l.diagnostic.code === "email.guard-tripped",
    );
    expect(alerts).toHaveLength(1);
    expect(alerts[0].diagnostic.hint).toContain(
      'pause it in the dashboard now (Email > Campaigns > "Youth GOTV email" > Pause)',
    );
    const poll = run.lines.find((l) => l.type === "poll");
    expect(poll.requests).toBeGreaterThanOrEqual(2);

    const human = await runWatch(
      bed.sb,
      bed.world.dir,
      ["campaign/gotv-email.yaml", "campaign/generated.yaml"],
      {
        flags: { once: true },
      },
    );
    expect(human.code).toBe(1);
    expect(human.stdout + human.stderr).toContain("email.guard-tripped");
  }, 60_000);

  test("--until-done keeps polling while a watched email campaign sends, and stops once it completed", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: 1, sending: true });
    beds.push(bed);
    // The campaign completes (in the dashboard's world) during the third wait.
    const run = await untilCompleted(bed, 3);
    expect(run.code).toBe(1); // the guard's alert still needs a person
    const polls = run.lines.filter((l) => l.type === "poll");
    expect(polls.map((p) => [p.sending, p.email_sending])).toEqual([
      [0, 1],
      [0, 1],
      [0, 1],
      [0, 0],
    ]);
    expect(polls.at(-1).next_poll_ms).toBeNull();
    expect(run.lines.at(-1)).toMatchObject({ type: "stop", reason: "done", polls: 4 });
    expect(
      run.lines.filter((l) => l.type === "diagnostic" && l.diagnostic.code === "watch.nothing-sending"),
    ).toEqual([]);
  }, 60_000);

  test("--until-done whose first read of the email campaigns fails keeps polling: the next poll reads the campaign and alerts", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: 1, sending: true });
    beds.push(bed);
    // The first poll's read fails with every attempt of the client (4); the second poll's succeeds.
    await admin(bed.sb, "POST", "/faults", { spec: "GET /email/campaigns: status(500) n=4" });
    const run = await untilCompleted(bed, 2);
    const codes = run.lines.filter((l) => l.type === "diagnostic").map((l) => l.diagnostic.code);
    expect(codes.filter((c) => c === "api.rejected")).toHaveLength(1);
    // Not known is not "nothing sending": the campaign the files describe counts until a read says.
    expect(codes).not.toContain("watch.nothing-sending");
    expect(codes).toContain("email.guard-tripped");
    const polls = run.lines.filter((l) => l.type === "poll");
    expect(polls.map((p) => [p.sending, p.email_sending])).toEqual([
      [0, 1],
      [0, 1],
      [0, 0],
    ]);
    expect(run.lines.at(-1)).toMatchObject({ type: "stop", reason: "done", polls: 3 });
    expect(run.code).toBe(1);
  }, 60_000);

  test("--until-done with email campaigns none of which sends stops after the first poll", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: 1, sending: true });
    beds.push(bed);
    bed.sb.store.mutate((w) => {
      const c = w.emailCampaigns[CAMPAIGN_SENDING];
      if (c !== undefined) c.status = "paused";
    });
    const run = await runWatch(
      bed.sb,
      bed.world.dir,
      ["campaign/gotv-email.yaml", "campaign/generated.yaml"],
      { flags: { json: true, untilDone: true } },
    );
    const polls = run.lines.filter((l) => l.type === "poll");
    expect(polls.map((p) => p.email_sending)).toEqual([0]);
    expect(run.lines.at(-1)).toMatchObject({ type: "stop", reason: "done", polls: 1 });
    const note = run.lines.find(
      (l) => l.type === "diagnostic" && l.diagnostic.code === "watch.nothing-sending",
    );
    expect(note.diagnostic.message).toBe(
      "no project or email campaign of the campaign files is sending (scheduled or active) now",
    );
  }, 60_000);

  test("the live view's header counts the email campaigns still sending", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: 1, sending: true });
    beds.push(bed);
    const run = await runWatch(
      bed.sb,
      bed.world.dir,
      ["campaign/gotv-email.yaml", "campaign/generated.yaml"],
      { flags: { once: true }, tty: true },
    );
    expect(run.stdout).toContain("poll 1 · 0 sending · 1 email campaign sending");
  }, 60_000);
});
