/**
 * `watch --record` with a key per organization whose check (`GET /organizations`) failed at the
 * start (a blip): the first poll's recording did not read that key's organization, so the hour is
 * not recorded whole and is tried again, a minute or more later, once the key answers (the watch
 * checks it again, src/api/routing/key-recheck.ts). Before, the key was left out of the recording
 * altogether: the first poll counted the hour as recorded whole and never came back to it.
 * A key the API refused (401) is never checked again in the run: its hour is recorded once.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { storeLines } from "../results/harness.js";
import { admin, CHILD_KEY, CHILD_ORG } from "../sandbox/helpers.js";
import { type Line, runWatch, type WatchRun } from "./harness.js";
import { campaignFile, GUARD, START, watchWorld, workDir } from "./world.js";

const CHILD_VARIABLE = "CAMPAIGNCTL_API_KEY_RIVERSIDE_YOUNG_DEMOCRATS";
const sandboxes: SandboxHandle[] = [];

/**
 * A watch --record of six polls 30 s apart, in one hour, with the child organization's key, whose
 * `GET /organizations` answers `status` until the first poll is over.
 */
async function watchWithBlip(status: 401 | 503): Promise<{ run: WatchRun; cwd: string }> {
  const world = watchWorld(2);
  const sb = await startSandbox({ fixture: world.fixture, timeScale: 0, rateLimits: true });
  sandboxes.push(sb);
  const [a, b] = world.senders as [string, string];
  const cwd = workDir({ "campaign.yaml": campaignFile({ alpha: a, bravo: b }, GUARD) });
  await admin(sb, "POST", "/faults", { spec: `GET /organizations: status(${status}) org=${CHILD_ORG}` });
  let interrupt: () => void = () => {};
  const run = await runWatch(sb, cwd, [], {
    flags: { json: true, record: true, interval: 30_000 },
    env: { [CHILD_VARIABLE]: CHILD_KEY },
    deps: {
      onInterrupt: (handler) => {
        interrupt = handler;
        return () => {};
      },
    },
    beforeWait: async (n) => {
      if (n === 1) await admin(sb, "DELETE", "/faults");
      if (n === 6) interrupt();
    },
  });
  return { run, cwd };
}

let run: WatchRun;
let cwd: string;
let refused: WatchRun;

beforeAll(async () => {
  ({ run, cwd } = await watchWithBlip(503));
  ({ run: refused } = await watchWithBlip(401));
}, 60_000);

afterAll(async () => {
  for (const sb of sandboxes) {
    expect(sb.bugs).toEqual([]);
    await sb.close();
  }
});

const notesOf = (lines: readonly Line[]) =>
  lines.filter((l: Line) => l.type === "diagnostic" && l.diagnostic.code === "results.recorded");

describe("watch --record, a key whose check failed at the start", () => {
  const notes = () => notesOf(run.lines);

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

describe("watch --record, a key the API refused at the start", () => {
  test("is said, and the hour is recorded once: the run never checks that key again", () => {
    const unread = refused.lines.filter(
      (l: Line) => l.type === "diagnostic" && l.diagnostic.code === "results.key-unreadable",
    );
    expect(unread).toHaveLength(1);
    const notes = notesOf(refused.lines);
    expect(notes).toHaveLength(1);
    expect(notes[0].diagnostic.hint ?? null).toBeNull();
  });
});
