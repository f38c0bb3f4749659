/**
 * Issue 34, acceptance 1: SIGTERM ends `replies run` (the built CLI, in a child process) within a
 * second at any moment: while it settles a backlog of inbounds (seeded moments; among them the 34
 * characters the issue's patterns backtracked on for minutes), while the API holds
 * a thread read or a reply for seconds, while the client waits out a 429's Retry-After, while it
 * idles between passes, and right after it starts. Each stop is clean (exit 0, the `stopped` line)
 * unless it came before the handler was installed (then SIGTERM's default ends it); afterwards
 * `--once` settles the rest, and every matching inbound has exactly one answer. The `--once` runs
 * that no signal interrupts run in-process (`run` of cli/main.ts): the process is the point only
 * where a signal is sent.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import { setTimeout as pause } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { seededRandom } from "../../src/sandbox/ids.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { BUILT_CLI, runCli } from "../helpers/run-cli.js";
import { admin, EXAMPLE_FIXTURE, PARENT_KEY } from "../sandbox/helpers.js";
import { ANSWERS, answersAfter, CAMPAIGN, campaignDir, TEXTS, textIn } from "./world.js";

/**
 * The bound of the acceptance: a second beyond what a Node process that does nothing but answer
 * SIGTERM takes to answer it, signalled at the same instant (the control). On a quiet machine the
 * control answers in a few milliseconds; on one whose cores are shared many times over (the suite
 * beside other runs) both wait as long for the CPU, so the bound measures the worker, not the
 * machine's load. The worker's own exit work (abort the request in flight, sync the record, print
 * `stopped`) is a few milliseconds of CPU that the control does not do: on a machine whose run queue
 * is N times its cores it takes N times as long, so the second stretches by that factor (measured:
 * 1.18 to 1.35 s at load 16 on 2 cores, under 0.3 s quiet). A hung worker (the 226 s of issue 34)
 * fails at any load.
 */
const STOP_WITHIN_MS = 1000 * Math.max(1, (loadavg()[0] ?? 0) / availableParallelism());

/**
 * The control: one Node process for the whole file that writes a line each time it gets SIGTERM
 * (signal, wake-up, a write to a pipe, the parent reading it: what a worker's stop needs of the
 * machine, less the worker's own work) and ends when its stdin closes. One process, not one per
 * stop: each start is 70 ms of CPU, and the stop is the measure, not the start.
 */
interface Control {
  readonly ready: Promise<void>;
  /** Sends SIGTERM; resolves at the `performance.now()` its answer arrived. */
  signal(): Promise<number>;
  close(): Promise<void>;
}

function startControl(): Control {
  const child = spawn(
    process.execPath,
    [
      "-e",
      "process.on('SIGTERM', () => process.stdout.write('t\\n')); process.stdin.resume(); console.log('ready')",
    ],
    { stdio: ["pipe", "pipe", "ignore"] },
  );
  const waiting: ((at: number) => void)[] = [];
  let ready: () => void = () => {};
  const readyPromise = new Promise<void>((resolve) => {
    ready = resolve;
  });
  let buffered = "";
  child.stdout?.on("data", (d) => {
    const at = performance.now();
    buffered += String(d);
    for (let end = buffered.indexOf("\n"); end !== -1; end = buffered.indexOf("\n")) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      if (line === "ready") ready();
      else waiting.shift()?.(at);
    }
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return {
    ready: readyPromise,
    signal: () =>
      new Promise<number>((resolve) => {
        waiting.push(resolve);
        child.kill("SIGTERM");
      }),
    close: async () => {
      child.stdin?.end();
      await exited;
    },
  };
}

let sb: SandboxHandle;
let cwd: string;
let control: Control;
const sent: { messageId: string; conversationId: string; rule: string | null }[] = [];
let contacts = 0;

beforeAll(async () => {
  control = startControl();
  sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: false, seed: 34 });
  // The patterns, which backtracked for minutes on the texts below in a JavaScript RegExp.
  const volunteers = CAMPAIGN.projects.volunteers;
  cwd = campaignDir({
    ...CAMPAIGN,
    projects: {
      ...CAMPAIGN.projects,
      volunteers: {
        ...volunteers,
        replies: {
          rules: [
            ...volunteers.replies.rules,
            { name: "codes", pattern: "^(a|ab|b)*c$", answer: "Thanks for the code." },
            { name: "codes-too", pattern: "(?:a|[ab])+c$", answer: "Thanks for the code." },
          ],
        },
      },
    },
  });
});
afterAll(async () => {
  await admin(sb, "DELETE", "/faults");
  await sb.close();
  await control.close();
});
/** A worker a failed test left running is stopped, so that the next one can take the state. */
const live = new Set<ChildProcess>();
afterEach(async () => {
  for (const child of live) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  live.clear();
});

/** The 34 characters that kept `replies run --once` busy for 226 s before issue 34. */
const ATTACK = `${"a".repeat(33)}!`;

async function textInMany(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    if (i % 5 === 4) {
      sent.push({ ...(await textIn(sb, "volunteers", 1000 + contacts + i, ATTACK)), rule: null });
      continue;
    }
    const t = TEXTS[(contacts + i) % TEXTS.length];
    if (t === undefined) continue;
    sent.push({ ...(await textIn(sb, t.project, 1000 + contacts + i, t.text)), rule: t.rule });
  }
  contacts += count;
}

interface Run {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  lines(): { type: string; outcome?: string; message_id?: string }[];
  stderr(): string;
}

function start(args: readonly string[]): Run {
  const child = spawn(
    process.execPath,
    [BUILT_CLI, "replies", "run", "--json", "--base-url", sb.baseUrl, ...args],
    {
      cwd,
      env: { ...process.env, CAMPAIGNCTL_API_KEY: PARENT_KEY, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  live.add(child);
  let out = "";
  let err = "";
  child.stdout?.on("data", (d) => {
    out += String(d);
  });
  child.stderr?.on("data", (d) => {
    err += String(d);
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    exited,
    lines: () =>
      out
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l)),
    stderr: () => err,
  };
}

/** `replies run --once` in-process, to its end (no signal: no process needed). */
function once(): ReturnType<typeof runCli> {
  return runCli(["replies", "run", "--json", "--base-url", sb.baseUrl, "--once"], {
    cwd,
    env: { CAMPAIGNCTL_API_KEY: PARENT_KEY },
    clock: () => sb.clock.nowMs(),
  });
}

interface Logged {
  readonly method: string;
  readonly route: string;
  readonly status: number;
}

async function requests(): Promise<Logged[]> {
  return (await admin(sb, "GET", "/requests")).body.data.requests as Logged[];
}

async function until(what: string, ready: () => boolean, run: Run, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!ready()) {
    if (run.child.exitCode !== null) throw new Error(`the worker exited before ${what}: ${run.stderr()}`);
    if (Date.now() > deadline) throw new Error(`no ${what} within ${limitMs} ms: ${run.stderr()}`);
    await pause(5);
  }
}

/** Sends SIGTERM to the worker and the control at once; the milliseconds until the worker is gone, and how it ended. */
async function terminate(
  run: Run,
): Promise<{ ms: number; controlMs: number; code: number | null; signal: string | null }> {
  await control.ready;
  const sentAt = performance.now();
  run.child.kill("SIGTERM");
  const answered = control.signal();
  const end = await run.exited;
  const ms = performance.now() - sentAt;
  return { ms, controlMs: (await answered) - sentAt, ...end };
}

function expectWithinBound(stop: { ms: number; controlMs: number }, what: string): void {
  expect(stop.ms, `${what} (the control answered after ${stop.controlMs.toFixed(0)} ms)`).toBeLessThan(
    STOP_WITHIN_MS + stop.controlMs,
  );
}

/** A clean stop: exit 0 and the `stopped` line, within the bound. */
function expectCleanStop(
  stop: { ms: number; controlMs: number; code: number | null },
  run: Run,
  moment: string,
): void {
  expectWithinBound(stop, `${moment}: ${run.stderr()}`);
  expect(stop.code, `${moment}: ${run.stderr()}`).toBe(0);
  expect(run.lines().at(-1)?.type, moment).toBe("stopped");
}

/**
 * Waits until the injected fault has matched a request of `run` (that request is then held for
 * seconds: a look every 20 ms finds it held, at a fraction of the HTTP calls of a look every 5).
 */
async function untilFaultFired(run: Run, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  const fired = async () =>
    ((await admin(sb, "GET", "/faults")).body as { data: { fired: number }[] }).data.reduce(
      (sum, f) => sum + f.fired,
      0,
    );
  while ((await fired()) === 0) {
    if (run.child.exitCode !== null)
      throw new Error(`the worker exited before the held request: ${run.stderr()}`);
    if (Date.now() > deadline) throw new Error(`no held request within ${limitMs} ms: ${run.stderr()}`);
    await pause(20);
  }
}

describe("SIGTERM ends replies run within a second", () => {
  it("while it settles a backlog of inbounds, at seeded moments", async () => {
    // Each worker paces itself at the key's 100 requests a minute: a backlog a pass settles in seconds,
    // most of them waiting for its next request's turn. Two rounds (seed 34: after 4 inbounds and
    // 32 ms, at the first inbound and 14 ms): each a process start (most of the file's CPU), and the
    // two more that ran before cut into the same wait (after 1 and 3 inbounds); the held read and
    // reply below stop it inside a request.
    await textInMany(30);
    const next = seededRandom(34);
    for (let round = 0; round < 2; round++) {
      // Fresh inbounds each round: the pass the stop cuts into always has work left.
      await textInMany(5);
      const run = start(["--no-webhooks"]);
      const settledBefore = Math.floor(next() * 8);
      // Its handler is in place once it says it started (the first instants are the last test's).
      await until("the start", () => run.lines().length > 0, run);
      await until(
        `${settledBefore} inbounds`,
        () => run.lines().filter((l) => l.type === "inbound").length >= settledBefore,
        run,
      );
      await pause(Math.floor(next() * 40));
      const busy = run.lines().some((l) => l.type === "pass");
      const stop = await terminate(run);
      expectCleanStop(stop, run, `round ${round}`);
      // The pass was still under way: the stop cut into it.
      expect(busy, `round ${round}`).toBe(false);
      await sb.clock.advance(61_000);
    }
  });

  it("while the API holds a thread read for 10 seconds", async () => {
    await sb.clock.advance(61_000);
    await textInMany(2);
    await admin(sb, "POST", "/faults", {
      spec: "GET /conversations/{conversation_id}/messages: latency(10s, real)",
    });
    const run = start(["--no-webhooks"]);
    await until("the start", () => run.lines().length > 0, run);
    // Held once the sandbox has matched the read to its fault (not after a guessed delay).
    await untilFaultFired(run);
    const stop = await terminate(run);
    await admin(sb, "DELETE", "/faults");
    expectCleanStop(stop, run, "held thread read");
    // It was held in the first thread read: nothing settled, no pass ended.
    expect(run.lines().filter((l) => l.type === "inbound")).toEqual([]);
    expect(run.lines().at(-1)).toMatchObject({ totals: { passes: 1, answered: 0 } });
  });

  it("while the client waits out a 429 asking for 30 seconds", async () => {
    await sb.clock.advance(61_000);
    await admin(sb, "DELETE", "/requests");
    await admin(sb, "POST", "/faults", { spec: "GET /conversations: burst-429(3, retry-after=30)" });
    const run = start(["--no-webhooks"]);
    await until("the start", () => run.lines().length > 0, run);
    let limited = 0;
    while (limited === 0) {
      limited = (await requests()).filter((r) => r.route === "/conversations" && r.status === 429).length;
      await pause(20);
    }
    await pause(200);
    const stop = await terminate(run);
    await admin(sb, "DELETE", "/faults");
    expectCleanStop(stop, run, "429 wait");
    // It was waiting out the 429 (30 s): it made no second attempt.
    expect((await requests()).filter((r) => r.route === "/conversations")).toHaveLength(1);
  });

  it("while the API holds a reply for 3 seconds, and the reply is still sent once", async () => {
    await sb.clock.advance(61_000);
    const held = await textIn(sb, "gotv", 5000, "Where do I vote??");
    sent.push({ ...held, rule: "where" });
    await admin(sb, "POST", "/faults", {
      spec: "POST /conversations/{conversation_id}/messages: latency(3s, real)",
    });
    const run = start(["--no-webhooks"]);
    await until("the start", () => run.lines().length > 0, run);
    // The reply is under way once the sandbox has matched it to its fault (any machine load).
    await untilFaultFired(run);
    await admin(sb, "DELETE", "/requests");
    const stop = await terminate(run);
    await admin(sb, "DELETE", "/faults");
    expectCleanStop(stop, run, "held reply");
    // It was held in the reply: the reply was under way (logged once the 3 s are over), unsettled.
    expect(
      run
        .lines()
        .filter((l) => l.type === "inbound" && l.outcome === "answered" && l.message_id === held.messageId),
    ).toEqual([]);
    const deadline = Date.now() + 10_000;
    let posts: Logged[] = [];
    while (posts.length === 0 && Date.now() < deadline) {
      await pause(50);
      posts = (await requests()).filter((r) => r.method === "POST");
    }
    expect(posts).toHaveLength(1);
  });

  it("while it idles between passes", async () => {
    // The backlog first (its pass is long), then a worker whose pass has nothing left to do.
    await sb.clock.advance(61_000);
    const drained = await once();
    expect(drained.code, drained.stderr).toBe(0);
    await sb.clock.advance(61_000);
    const run = start(["--no-webhooks"]);
    await until("a pass", () => run.lines().some((l) => l.type === "pass"), run);
    await pause(100);
    expectCleanStop(await terminate(run), run, "idle");
  });

  it("right after it starts (before or after its handler is installed)", async () => {
    // Seed 341: 34 ms (before the handler on any machine: Node alone starts in 60), then 269 ms
    // (about when the handler is installed on a quiet machine; a third round drew 259, the same).
    const next = seededRandom(341);
    for (let round = 0; round < 2; round++) {
      const run = start(["--no-webhooks"]);
      await pause(Math.floor(next() * 300));
      const stop = await terminate(run);
      expectWithinBound(stop, `start ${round}: ${run.stderr()}`);
      // Before the handler: SIGTERM's default; after it: a clean stop.
      if (stop.signal === null) expect(stop.code, run.stderr()).toBe(0);
      else expect(stop.signal).toBe("SIGTERM");
    }
  });

  it("leaves nothing answered twice: --once settles the rest, one answer per matching inbound", async () => {
    await sb.clock.advance(61_000);
    const end = await once();
    expect(end.code, end.stderr).toBe(0);
    for (const s of sent) {
      const answers = answersAfter(sb, s.conversationId, s.messageId);
      if (s.rule === null) expect(answers, s.messageId).toEqual([]);
      else expect(answers, s.messageId).toEqual([ANSWERS[s.rule as keyof typeof ANSWERS]]);
    }
  });
});
