/**
 * `watch --record` with a key per organization whose check (`GET /organizations`) failed at the
 * start (a blip): the first poll's recording did not read that key's organization, so the hour is
 * not recorded whole and is tried again, a minute or more later, once the key answers (the watch
 * checks it again, src/api/routing/key-recheck.ts). Before, the key was left out of the recording
 * altogether: the first poll counted the hour as recorded whole and never came back to it.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { storeLines } from "../results/harness.js";
import { admin, CHILD_KEY, CHILD_ORG } from "../sandbox/helpers.js";
import { type Line, runWatch, type WatchRun } from "./harness.js";
import { campaignFile, GUARD, START, watchWorld, workDir } from "./world.js";

let sb: SandboxHandle;
let cwd: string;
let run: WatchRun;
const CHILD_VARIABLE = "CAMPAIGNCTL_API_KEY_RIVERSIDE_YOUNG_DEMOCRATS";

beforeAll(async () => {
  const world = watchWorld(2);
  sb = await startSandbox({ fixture: world.fixture, timeScale: 0, rateLimits: true });
  const [a, b] = world.senders as [string, string];
  cwd = workDir({ "campaign.yaml": campaignFile({ alpha: a, bravo: b }, GUARD) });
  // The child organization's key cannot be checked at the start: the API answers 503 for a while.
  await admin(sb, "POST", "/faults", { spec: `GET /organizations: status(503) org=${CHILD_ORG}` });
  let interrupt: () => void = () => {};
  run = await runWatch(sb, cwd, [], {
    flags: { json: true, record: true, interval: 30_000 },
    env: { [CHILD_VARIABLE]: CHILD_KEY },
    deps: {
      onInterrupt: (handler) => {
        interrupt = handler;
        return () => {};
      },
    },
    beforeWait: async (n) => {
      // The blip ends after the first poll; six polls in all, every one in the same hour.
      if (n === 1) await admin(sb, "DELETE", "/faults");
      if (n === 6) interrupt();
    },
  });
}, 60_000);

afterAll(async () => {
  expect(sb.bugs).toEqual([]);
  await sb.close();
});

describe("watch --record, a key whose check failed at the start", () => {
  const notes = () =>
    run.lines.filter((l: Line) => l.type === "diagnostic" && l.diagnostic.code === "results.recorded");

  test("the first poll's recording names the key and is not whole", () => {
    expect(run.lines.every((l: Line) => l.at.slice(0, 13) === START.toISOString().slice(0, 13))).toBe(true);
    const unread = run.lines.filter(
      (l: Line) => l.type === "diagnostic" && l.diagnostic.code === "results.key-unreadable",
    );
    expect(unread.length).toBeGreaterThan(0);
    expect(unread[0].diagnostic.message).toContain(`the key in ${CHILD_VARIABLE} could not be used`);
    expect(notes()[0].diagnostic.hint).toContain("again on a poll a minute from now");
  });

  test("a later poll of the same hour records it whole, with the key that answers now", () => {
    const all = notes();
    expect(all.length).toBeGreaterThanOrEqual(2);
    const last = all[all.length - 1];
    expect(last.diagnostic.hint ?? null).toBeNull();
    expect(last.diagnostic.message).toMatch(/^Recorded \d+ snapshots/);
    expect(storeLines(join(cwd, "results")).length).toBeGreaterThan(0);
    const usable = run.lines.filter(
      (l: Line) => l.type === "diagnostic" && l.diagnostic.code === "api.key-usable-again",
    );
    expect(usable).toHaveLength(1);
  });
});
