/**
 * The built CLI (`replies run --once --no-webhooks`, a cron job's run) killed with SIGKILL right after
 * the sandbox committed one of its replies (the run may or may not have read the answer or written
 * it to its record), then run again, a minute of the API's clock later, until a run ends cleanly:
 * every matching inbound has exactly one answer in its thread, no opt-out has one, and no two
 * passes fall within a minute. The sandbox runs in this process on a frozen virtual clock; kills
 * are placed by the replies in the sandbox's world, not by a timer. The runs nothing kills (after the kills,
 * and the second worker the lock refuses) run in-process (`run` of cli/main.ts, the same flags and
 * key, the sandbox's clock as the machine's): the process is the point only where it dies or holds
 * the lock. A run after the kills counts as the clean end only when it made a pass (its `stopped`
 * line's totals): a run that starts within a minute of the last pass ends at once with
 * `replies.pass-not-due`, exit 0, having looked at nothing.
 */
import { spawn } from "node:child_process";
import { setTimeout as pause } from "node:timers/promises";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { BUILT_CLI, runCli } from "../helpers/run-cli.js";
import { admin, EXAMPLE_FIXTURE, PARENT_KEY } from "../sandbox/helpers.js";
import { ANSWERS, answersAfter, campaignDir, TEXTS, textIn } from "./world.js";

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: false, seed: 11 });
});
afterAll(async () => {
  await sb.close();
});

type Logged = { method: string; route: string | null; status: number; at: string; path: string };
const log = async (): Promise<Logged[]> => (await admin(sb, "GET", "/requests")).body.data.requests;
/**
 * The replies the sandbox has committed so far: the outbound messages in its world (read in this
 * process, where the sandbox runs: a look every 5 ms while the child starts and replies, without
 * fetching and parsing the whole request log each time).
 */
const replies = (): number =>
  Object.values(sb.store.world.conversations).reduce(
    (n, c) => n + c.messages.filter((m) => m.direction === "outbound").length,
    0,
  );

/** `replies run --once --no-webhooks --json` in-process, to its end. */
function onceInProcess(cwd: string): ReturnType<typeof runCli> {
  return runCli(["replies", "run", "--once", "--no-webhooks", "--json", "--base-url", sb.baseUrl], {
    cwd,
    env: { CAMPAIGNCTL_API_KEY: PARENT_KEY },
    clock: () => sb.clock.nowMs(),
  });
}

interface Ended {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stderr: string;
  /** The passes its `stopped` line counts (null: it printed none, as a killed run). */
  readonly passes: number | null;
}

/** The passes the last `stopped` line of a `--json` run counts. */
function passesOf(stdout: string): number | null {
  const stopped = stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { type: string; totals?: { passes: number } })
    .filter((l) => l.type === "stopped")
    .at(-1);
  return stopped?.totals?.passes ?? null;
}

/**
 * One run: with `killAfter`, the built CLI, killed with SIGKILL once the sandbox has committed
 * `killAfter` more replies; without (null), in-process to its end.
 */
async function runOnce(cwd: string, killAfter: number | null): Promise<Ended> {
  if (killAfter === null) {
    const run = await onceInProcess(cwd);
    return { code: run.code, signal: null, stderr: run.stderr, passes: passesOf(run.stdout) };
  }
  const before = replies();
  const child = spawn(
    process.execPath,
    [BUILT_CLI, "replies", "run", "--once", "--no-webhooks", "--json", "--base-url", sb.baseUrl],
    {
      cwd,
      env: { ...process.env, CAMPAIGNCTL_API_KEY: PARENT_KEY, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += String(d);
  });
  let stdout = "";
  child.stdout.on("data", (d) => {
    stdout += String(d);
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  let done = false;
  void exited.then(() => {
    done = true;
  });
  while (!done) {
    if (replies() - before >= killAfter) {
      child.kill("SIGKILL");
      break;
    }
    await pause(5);
  }
  const end = await exited;
  return { ...end, stderr, passes: passesOf(stdout) };
}

test("SIGKILL after a committed reply, run again: each matching inbound answered exactly once", async () => {
  const cwd = campaignDir();
  const sent: { messageId: string; conversationId: string; rule: string | null }[] = [];
  for (let n = 0; n < 24; n++) {
    const t = TEXTS[n % TEXTS.length];
    if (t === undefined) throw new Error("no text");
    sent.push({ ...(await textIn(sb, t.project, n, t.text)), rule: t.rule });
    await sb.clock.advance(1_000);
  }
  // Half the replies commit and then fail (500): the run re-reads the thread.
  await admin(sb, "POST", "/faults", {
    spec: "POST /conversations/{conversation_id}/messages: commit-then-fail(500) p=0.3",
  });
  const kills = [1, 2, 3, 2];
  const outcomes: Ended[] = [];
  for (let i = 0; i < 12; i++) {
    const r = await runOnce(cwd, kills[i] ?? null);
    outcomes.push(r);
    await sb.clock.advance(61_000);
    if (i >= kills.length && r.code === 0 && (r.passes ?? 0) > 0) break;
    if (i >= kills.length) expect(r.stderr).not.toContain("internal error");
  }
  expect(outcomes.slice(0, kills.length).map((o) => o.signal)).toEqual(kills.map(() => "SIGKILL"));
  expect(outcomes.at(-1)?.code).toBe(0);
  expect(outcomes.at(-1)?.passes, "the clean end made a pass").toBeGreaterThan(0);
  for (const s of sent) {
    const answers = answersAfter(sb, s.conversationId, s.messageId);
    if (s.rule === null) expect(answers).toEqual([]);
    else expect(answers).toEqual([ANSWERS[s.rule as keyof typeof ANSWERS]]);
  }
  const passes = (await log())
    .filter((r) => r.method === "GET" && r.route === "/conversations")
    .map((r) => Date.parse(r.at));
  for (let i = 1; i < passes.length; i++)
    expect((passes[i] ?? 0) - (passes[i - 1] ?? 0)).toBeGreaterThanOrEqual(60_000);
}, 120_000);

test("a second worker on the same state directory is refused while the first runs", async () => {
  const cwd = campaignDir();
  const env = { ...process.env, CAMPAIGNCTL_API_KEY: PARENT_KEY, NO_COLOR: "1" };
  const first = spawn(
    process.execPath,
    [BUILT_CLI, "replies", "run", "--no-webhooks", "--json", "--base-url", sb.baseUrl],
    { cwd, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  first.stdout.on("data", (d) => {
    out += String(d);
  });
  const exited = new Promise<number | null>((resolve) => first.on("exit", (code) => resolve(code)));
  while (!out.includes('"type":"started"')) await pause(10);
  const second = await onceInProcess(cwd);
  expect(second.code).toBe(1);
  expect(JSON.parse(second.stdout).diagnostics.map((d: { code: string }) => d.code)).toEqual([
    "replies.state-locked",
  ]);
  first.kill("SIGTERM");
  expect(await exited).toBe(0);
  expect(out.trim().split("\n").at(-1)).toContain('"type":"stopped"');
}, 60_000);
