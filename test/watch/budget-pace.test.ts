/**
 * The polls' budget (40 requests in any 60 seconds of the key's 100, docs/watch.md "Reads and the
 * rate budget") holds the requests of each poll's other checks too: a policy's `budgets` read the
 * statistics of each period and of the projects sending now on every poll. Against a sandbox
 * (loopback, rate limits on, virtual clock, no real sleeps), every JSON line checked.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { POLL_READS_PER_MINUTE } from "../../src/watch/watch-pace.js";
import { admin } from "../sandbox/helpers.js";
import { busiestMinute, clearRequests, interruptedAt, type Line, requestLog, runWatch } from "./harness.js";
import { campaignFile, GUARD, watchWorld, workDir } from "./world.js";

let sb: SandboxHandle | undefined;
afterEach(async () => {
  expect(sb?.bugs ?? []).toEqual([]);
  await sb?.close();
  sb = undefined;
});

describe("a policy's budgets read on every poll", () => {
  test("count in the polls' budget: no 60 s window of the run over 40 requests", async () => {
    const world = watchWorld(1);
    sb = await startSandbox({ fixture: world.fixture, timeScale: 0, rateLimits: true });
    await admin(sb, "PATCH", "/simulation", { messages_per_batch: 1, batch_interval_ms: 60_000 });
    const cwd = workDir({ "campaign.yaml": campaignFile({ alpha: world.senders[0] as string }, GUARD) });
    writeFileSync(
      join(cwd, "campaignctl.policy.yaml"),
      [
        "version: 1",
        "rules:",
        "  budgets:",
        "    - {usd: 100000, per: day}",
        "    - {usd: 100000, per: week}",
        "    - {usd: 100000, per: month}",
        "",
      ].join("\n"),
    );
    await clearRequests(sb);
    const run = await runWatch(sb, cwd, [], {
      flags: { json: true, interval: 5000 },
      ...interruptedAt(40),
    });
    expect(run.lines.at(-1)).toMatchObject({ type: "stop", reason: "interrupted", errors: 0 });
    // Each poll: one statistics page, and the budgets' listings (three periods, the projects sending now).
    const polls = run.lines.filter((l: Line) => l.type === "poll");
    expect(polls.length).toBe(40);
    expect(polls.slice(1).every((l: Line) => l.requests >= 4)).toBe(true);
    const log = await requestLog(sb);
    expect(busiestMinute(log)).toBeLessThanOrEqual(POLL_READS_PER_MINUTE);
  });
});
