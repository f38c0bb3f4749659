/**
 * `campaignctl watch` as a cron job or CI step (`--once` and its exit codes), with a pause that
 * meets faults (retried with the same key, one effect), stopped by Ctrl-C (an injected interrupt),
 * and its two terminal outputs (a line per change for a pipe, a live view for a terminal); flags
 * refused before any request. Each run on a sandbox started at a fixed instant, on its virtual clock.
 */
import { afterEach, describe, expect, test } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { admin } from "../sandbox/helpers.js";
import {
  clearRequests,
  effects,
  interruptedAt,
  type Line,
  liveProject,
  requestLog,
  runWatch,
} from "./harness.js";
import { campaignFile, GUARD, SEND_AT, failingWorld as startFailingWorld, workDir } from "./world.js";

let sb: SandboxHandle | undefined;
afterEach(async () => {
  expect(sb?.bugs ?? []).toEqual([]);
  await sb?.close();
  sb = undefined;
});

/** The failing world (world.ts), its sandbox closed after the test. */
async function failingWorld(faults?: string): ReturnType<typeof startFailingWorld> {
  const started = await startFailingWorld(faults);
  sb = started.sb;
  return started;
}

/** Lets the simulation send for `ms` after the copies start. */
async function sendFor(s: SandboxHandle, ms: number): Promise<void> {
  await admin(s, "POST", "/clock/advance", { ms: SEND_AT.getTime() - s.clock.nowMs() + ms });
}

describe("--once", () => {
  test("exit 0 while every guard holds, 2 once a guard tripped and paused, 0 again on the next run", async () => {
    const { sb: s, cwd, failing } = await failingWorld();
    await sendFor(s, 4_000);
    const early = await runWatch(s, cwd, [], { flags: { once: true, json: true } });
    expect(early.code).toBe(0);
    expect(early.lines.filter((l: Line) => l.type === "tripped")).toEqual([]);
    expect(early.lines.at(-1)).toMatchObject({ type: "stop", reason: "once", polls: 1 });

    await sendFor(s, 20_000);
    const tripped = await runWatch(s, cwd, [], { flags: { once: true, json: true } });
    expect(tripped.code).toBe(2);
    const trips = tripped.lines.filter((l: Line) => l.type === "tripped");
    expect(trips.map((l: Line) => [l.project.address, l.pause.outcome])).toEqual([["bravo", "paused"]]);
    expect((await liveProject(s, failing)).status).toBe("paused");

    const after = await runWatch(s, cwd, [], { flags: { once: true, json: true } });
    expect(after.code).toBe(0);
    expect(after.lines.filter((l: Line) => l.type === "tripped")).toEqual([]);
    expect((await effects(s, "pause")).map((e) => e.project_id)).toEqual([failing]);
  });

  test.each([
    ["503 SEND_ENQUEUE_FAILED twice", "status(503) n=2", [503, 503, 200], 3],
    ["409 still running", "status(409, retry-after=2) n=1", [409, 200], 2],
    ["429 twice", "burst-429(2, retry-after=3) n=1", [429, 429, 200], 3],
    // Paused, then a 500: the outcome is unknown, the re-read shows it paused: nothing sent again.
    ["an unknown outcome that took effect", "commit-then-fail(500) n=1", [500], 1],
  ] as const)(
    "a pause that meets %s is retried with the same key: one effect",
    async (_name, fault, statuses, attempts) => {
      const { sb: s, cwd, failing } = await failingWorld(`POST /projects/{id}/pause: ${fault}`);
      await sendFor(s, 24_000);
      await clearRequests(s);
      const run = await runWatch(s, cwd, [], { flags: { once: true, json: true } });
      expect(run.code).toBe(2);
      const trip = run.lines.find((l: Line) => l.type === "tripped");
      expect(trip.pause).toMatchObject({ outcome: "paused", attempts, status_after: "paused" });
      const pauses = (await requestLog(s)).filter((r) => r.route === "/projects/{id}/pause");
      expect(pauses.map((r) => r.status)).toEqual(statuses);
      expect(new Set(pauses.map((r) => r.idempotency_key))).toEqual(new Set([trip.pause.idempotency_key]));
      const done = await effects(s, "pause");
      expect(done.filter((e) => e.changed).map((e) => e.project_id)).toEqual([failing]);
    },
  );

  test("a pause the API refuses stays pending: exit 1 when the run ends with it pending, the trip reported once", async () => {
    const { sb: s, cwd } = await failingWorld("POST /projects/{id}/pause: status(400)");
    await sendFor(s, 24_000);
    const run = await runWatch(s, cwd, [], { flags: { once: true, json: true } });
    expect(run.code).toBe(1);
    const trips = run.lines.filter((l: Line) => l.type === "tripped");
    expect(trips).toHaveLength(1);
    expect(trips[0].pause).toMatchObject({ outcome: "pending", attempts: 1, status_after: null });
    expect(trips[0].pause.last_error).toMatch(/400/);
    const codes = run.lines.filter((l: Line) => l.type === "diagnostic").map((l: Line) => l.diagnostic.code);
    expect(codes).toContain("watch.pause-pending");
    expect(run.stderr).toContain("watch.pause-pending");
    expect(run.lines.at(-1)).toMatchObject({ type: "stop", errors: 1, paused: 0, pending: 1, tripped: 1 });
  });
});

describe("a project of the files that cannot be read", () => {
  test("is an error (exit 1), and the others are still watched and judged", async () => {
    const { sb: s, world, failing } = await failingWorld();
    await sendFor(s, 24_000);
    const cwd = workDir({
      "campaign.yaml": campaignFile(
        { bravo: failing, ghost: "9d000000-0000-4000-8000-0000000000ff", alpha: world.senders[0] as string },
        GUARD,
      ),
    });
    const run = await runWatch(s, cwd, [], { flags: { once: true, json: true } });
    expect(run.code).toBe(1);
    const codes = run.lines.filter((l: Line) => l.type === "diagnostic").map((l: Line) => l.diagnostic.code);
    expect(codes).toContain("status.project-not-found");
    expect(run.lines[0].projects.map((p: Line) => [p.address, p.source])).toEqual([
      ["bravo", "statistics"],
      ["ghost", "unreadable"],
      ["alpha", "statistics"],
    ]);
    expect(run.lines.filter((l: Line) => l.type === "tripped").map((l: Line) => l.project.address)).toEqual([
      "bravo",
    ]);
  });
});

describe("Ctrl-C", () => {
  test("stops cleanly between polls: the stop line says interrupted, exit 0", async () => {
    const { sb: s, cwd } = await failingWorld();
    const run = await runWatch(s, cwd, [], { flags: { json: true, interval: 5000 }, ...interruptedAt(2) });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("Interrupt received");
    expect(run.lines.at(-1)).toMatchObject({ type: "stop", reason: "interrupted", polls: 2 });
    expect(run.lines.filter((l: Line) => l.type === "poll")).toHaveLength(2);
  });
});

describe("the first poll's statistics failing", () => {
  const BLIP = "GET /projects/stats: status(503) n=4";

  test("with a blip (past the client's retries) is a failed poll: the next poll reads, trips and pauses", async () => {
    const { sb: s, cwd, failing } = await failingWorld(BLIP);
    await sendFor(s, 24_000);
    const run = await runWatch(s, cwd, [], { flags: { json: true, untilDone: true, interval: 5000 } });
    const types = run.lines.map((l: Line) => (l.type === "diagnostic" ? l.diagnostic.code : l.type));
    expect(types.slice(0, 3)).toEqual(["start", "watch.poll-failed", "poll"]);
    expect(run.lines.find((l: Line) => l.type === "tripped")?.pause).toMatchObject({ outcome: "paused" });
    expect((await liveProject(s, failing)).status).toBe("paused");
    expect(run.lines.at(-1)).toMatchObject({ type: "stop", reason: "done", paused: 1, errors: 0 });
    expect(run.code).toBe(2);
  });

  test("with --once is the run's error (its one poll failed): exit 1", async () => {
    const { sb: s, cwd } = await failingWorld(BLIP);
    await sendFor(s, 24_000);
    const run = await runWatch(s, cwd, [], { flags: { json: true, once: true } });
    expect(run.lines.map((l: Line) => l.type)).toEqual(["diagnostic", "stop"]);
    expect(run.lines[1]).toMatchObject({ reason: "error", polls: 0, errors: 1 });
    expect(run.code).toBe(1);
  });

  test("on every poll, then Ctrl-C: each project of the files is an error at the stop, never a silent exit 0", async () => {
    const { sb: s, cwd } = await failingWorld("GET /projects/stats: status(503)");
    const run = await runWatch(s, cwd, [], { flags: { json: true, interval: 5000 }, ...interruptedAt(2) });
    const never = run.lines.filter(
      (l: Line) => l.type === "diagnostic" && l.diagnostic.code === "watch.project-never-read",
    );
    expect(never.map((l: Line) => l.diagnostic.message.split(":")[0])).toEqual(["alpha", "bravo", "charlie"]);
    expect(run.lines.at(-1)).toMatchObject({ type: "stop", reason: "interrupted", polls: 2, errors: 3 });
    expect(run.code).toBe(1);
  });
});

describe("outputs", () => {
  test("piped: a line per change, the trip, and the end", async () => {
    const { sb: s, cwd } = await failingWorld();
    const run = await runWatch(s, cwd, [], { flags: { untilDone: true, interval: 5000 } });
    expect(run.code).toBe(2);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("watch: 3 of 3 projects sending; polling every 5s, until none is sending");
    expect(lines).toContain(
      "+0s alpha: scheduled, 0 of 38 sent, delivery -, failure -, opt-out - · guard (failure ≤ 20%) waits for 10 sent",
    );
    expect(
      lines.filter((l) =>
        /^\+\d+s bravo: GUARD TRIPPED: failure rate [\d.]+% > 20% \(\d+ of \d+ sent\); paused$/.test(l),
      ),
    ).toHaveLength(1);
    expect(
      lines.some((l) => /^\+\d+s alpha: completed, 38 of 38 sent, delivery 100\.0%, failure 0\.0%/.test(l)),
    ).toBe(true);
    expect(lines.at(-1)).toMatch(
      /^watch: no watched project is sending: \d+ polls, \d+ requests in \d+s; 1 guard tripped, 1 project paused$/,
    );
    // A line only when something changed: no two identical progress lines for a project in a row.
    const alpha = lines.filter((l) => / alpha: /.test(l)).map((l) => l.replace(/^\+\S+ /, ""));
    for (let i = 1; i < alpha.length; i++) expect(alpha[i]).not.toBe(alpha[i - 1]);
    expect(run.stdout).not.toContain("\x1b[");
  });

  test("on a terminal: a live view redrawn in place, the trip above it", async () => {
    const { sb: s, cwd } = await failingWorld();
    const run = await runWatch(s, cwd, [], {
      flags: { untilDone: true, interval: 5000 },
      tty: true,
      env: { COLUMNS: "100" },
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toContain("\x1b[5A\r\x1b[0J");
    expect(run.stdout).toMatch(/PROJECT +STATUS +SENT +DELIVERY +FAILURE +OPT-OUT +GUARD/);
    expect(run.stdout).toMatch(/bravo +paused +\d+ of 38 .* TRIPPED/);
    expect(run.stdout).toMatch(/\+\d+s bravo: GUARD TRIPPED: failure rate/);
    // The redrawn lines fit the width (a wrapped one would break the redraw); lines above may wrap.
    const frame = run.stdout
      .split("\x1b[2K")
      .slice(1)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point
      .map((l) => l.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "").split(/[\r\n]/)[0] ?? "");
    expect(frame.length).toBeGreaterThan(10);
    for (const line of frame) expect(line.length).toBeLessThanOrEqual(100);
  });
});

describe("refused before any request", () => {
  test.each([
    ["--once with --until-done", { once: true, untilDone: true }, "--once and --until-done disagree"],
    ["an interval under 5s", { interval: 1000 }, "--interval 1s is shorter than the 5s minimum"],
  ])("%s", async (_name, flags, message) => {
    const { sb: s, cwd } = await failingWorld();
    await clearRequests(s);
    const run = await runWatch(s, cwd, [], { flags: { ...flags, json: true } });
    expect(run.code).toBe(1);
    expect(run.lines[0]).toMatchObject({ error: true, format_version: 1 });
    expect(run.lines[0].diagnostics[0]).toMatchObject({ code: "cli.usage" });
    expect(run.stderr).toContain(message);
    expect(await requestLog(s)).toEqual([]);
  });

  test("a key the API refuses: the diagnostic and the stop line, exit 1, nothing paused", async () => {
    const { sb: s, cwd } = await failingWorld();
    const run = await runWatch(s, cwd, [], {
      flags: { json: true },
      env: { CAMPAIGNCTL_API_KEY: "pc_live_not_a_key_000000" },
    });
    expect(run.code).toBe(1);
    expect(run.lines.map((l: Line) => l.type)).toEqual(["diagnostic", "stop"]);
    expect(run.lines[0].diagnostic.severity).toBe("error");
    expect(run.lines[1]).toMatchObject({ reason: "error", polls: 0, errors: 1 });
    expect(await effects(s, "pause")).toEqual([]);
  });

  test("campaign files that do not load", async () => {
    const { sb: s } = await failingWorld();
    await clearRequests(s);
    const cwd = workDir({ "broken.yaml": { version: 1, projects: { x: { id: 7 } } } });
    const run = await runWatch(s, cwd, [], { flags: { json: true } });
    expect(run.code).toBe(1);
    expect(run.lines[0].error).toBe(true);
    expect(await requestLog(s)).toEqual([]);
  });
});
