/**
 * The README's "After the send (5 minutes)", step for step: the same command lines (`STORY`, the
 * one list of them; a test below checks the README's section holds each one, so the two cannot
 * drift apart), run through the CLI's own flag parsing and commands, against a standalone sandbox
 * started in process from the story's flags, with real HTTP on loopback for the API, the
 * `/_sandbox` routes and the webhook deliveries.
 *
 * How the steps that cannot run literally in a test map:
 * - Terminals. The sandbox and the listener are started in process and keep serving while the other
 *   steps run, as the README's terminals 1 and 2 do; Ctrl-C is `close()` / `stop()` at the end.
 * - Ports. The README's ports (4010 for the sandbox, 8787 for the listener) become free ports:
 *   URLs in the command lines are rewritten to the bound ones. The endpoint is registered once the
 *   listener listens (its port is known only then); the README registers it first, which changes
 *   nothing: no event exists before `apply`, and the secret does not depend on the order.
 * - Time. Nothing sleeps for real. The sandbox starts at the fixture's instant, frozen as the
 *   README's `--time-scale 0` says. When the README's clock step sets `time_scale` 3600 (an hour of
 *   virtual time per real second), the test keeps the clock frozen and applies the scale itself:
 *   every wait of `watch` (its 5 s between polls, a retry's wait) moves this machine's clock (a
 *   clock started at {@link TEST_NOW}) by the wait and the virtual clock by 3600 times the wait,
 *   which is what the running clock does between two polls. The sandbox stamps `X-Timestamp` from
 *   this machine's clock (`--webhook-clock wall`) and the listener judges it against the same one.
 * - `> events.jsonl` is the listener's stdout, captured; `jq ... | sort | uniq -c` is
 *   {@link listenerCounts}; `echo $?` is the watch's exit code.
 */
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type SandboxFlags, sandboxOptions } from "../../cli/commands/sandbox.js";
import { type WatchFlags, watchCommand } from "../../cli/commands/watch.js";
import {
  type RunningListener,
  startWebhooksListener,
  type WebhooksListenFlags,
} from "../../cli/commands/webhooks-listen.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import { buildProgram } from "../../cli/program.js";
import { openSandbox, type SandboxHandle } from "../../src/sandbox/index.js";
import { clockFrom, TEST_NOW } from "../helpers/clock.js";
import { type CapturedIo, captureIo, runCli } from "../helpers/run-cli.js";
import { admin, GOTV_FOLLOWUP, GOTV_REMINDER } from "../sandbox/helpers.js";

/** The story's command lines, in the README's order: the one list the test runs and the README holds. */
const STORY = {
  sandbox: "campaignctl sandbox --start fixture --time-scale 0 --auto-approve-tests --webhook-clock wall",
  register: `curl -s -X POST http://127.0.0.1:4010/_sandbox/webhook-endpoints -d '{"url": "http://127.0.0.1:8787/hooks"}'`,
  listen:
    "CAMPAIGNCTL_WEBHOOK_SECRET=whsec_7e05d8e1bc1ea5938dad492988ddabc3 campaignctl webhooks listen --json > events.jsonl",
  connect:
    "export CAMPAIGNCTL_BASE_URL=http://127.0.0.1:4010/v1 CAMPAIGNCTL_API_KEY=pc_live_sbx_rv_rw_7Hq2mX9vT4",
  apply: "campaignctl apply examples/ --auto-approve",
  simulation: `curl -s -X PATCH http://127.0.0.1:4010/_sandbox/simulation -d '{"messages_per_batch": 1, "batch_interval_ms": 1800000, "project_failure_rates": {"9a000000-0000-4000-8000-000000000002": 0.5}}'`,
  clock: `curl -s -X POST http://127.0.0.1:4010/_sandbox/clock/set -d '{"at": "2026-12-07T15:55:00Z", "time_scale": 3600}'`,
  watch: "campaignctl watch examples/ --until-done --interval 5s",
  exitCode: "echo $?",
  status: "campaignctl status examples/",
  count: `jq -r 'select(.type == "accepted" and .payload.project_id != null) | "\\(.payload.project_id) \\(.event_type)"' events.jsonl | sort | uniq -c`,
} as const;

const README = new URL("../../README.md", import.meta.url);
const HEADING = "## After the send (5 minutes)";
const SANDBOX_ROOT = "http://127.0.0.1:4010";
const LISTENER_ROOT = "http://127.0.0.1:8787";

// ---- the command lines, read as a shell reads them (only what the story uses) ----

/** Words of a command line: whitespace splits, single quotes group; `|` and `>` end the command. */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|(\S+)/g)) {
    const word = m[1] ?? m[2] ?? "";
    if (m[1] === undefined && (word === "|" || word === ">")) break;
    out.push(word);
  }
  return out;
}

/** `NAME=value` words before the command: its environment. */
function envPrefix(line: string): { env: Record<string, string>; rest: string[] } {
  const all = words(line);
  const env: Record<string, string> = {};
  while (all[0] !== undefined && /^[A-Z_]+=/.test(all[0])) {
    const [name, ...value] = (all.shift() as string).split("=");
    env[name as string] = value.join("=");
  }
  return { env, rest: all };
}

/** The argv of a `campaignctl ...` line. */
function argvOf(line: string): string[] {
  const { rest } = envPrefix(line);
  expect(rest[0]).toBe("campaignctl");
  return rest.slice(1);
}

interface Curl {
  readonly method: string;
  readonly url: string;
  readonly body: Record<string, unknown>;
}

/** `curl -s -X METHOD URL -d 'JSON'`. */
function curlOf(line: string): Curl {
  const w = words(line);
  expect(w.slice(0, 3)).toEqual(["curl", "-s", "-X"]);
  expect(w[4]).toBeDefined();
  expect(w[5]).toBe("-d");
  return { method: w[3] as string, url: w[4] as string, body: JSON.parse(w[6] as string) };
}

/**
 * The flags commander parses from `argv` for the command at `path` (e.g. `["webhooks", "listen"]`):
 * the program the CLI runs, with that command's action replaced by a recorder.
 */
async function parsedFlags<F>(
  argv: readonly string[],
  path: readonly string[],
): Promise<{ args: string[]; flags: F }> {
  const io = captureIo();
  const program = await buildProgram(io, () => {});
  let command: Command = program;
  for (const name of path) {
    const next = command.commands.find((c) => c.name() === name);
    if (next === undefined) throw new Error(`no command ${path.join(" ")}`);
    command = next;
  }
  let parsed: { args: string[]; flags: F } | undefined;
  command.action((...received: unknown[]) => {
    // commander passes the positional arguments, then the options, then the command.
    const positional = received.slice(0, -2).flat() as string[];
    parsed = { args: positional, flags: received[received.length - 2] as F };
  });
  await program.parseAsync([...argv], { from: "user" });
  if (parsed === undefined) throw new Error(`${argv.join(" ")} did not run ${path.join(" ")}`);
  return parsed;
}

// ---- this machine's clock and the story's time scale ----

let slept = 0;
const machineClock = clockFrom(TEST_NOW);
/** This machine's clock: a clock started at TEST_NOW, moved on by every wait of the story. */
const wall = (): number => machineClock() + slept;
/**
 * The clock watch measures its elapsed time with: TEST_NOW plus the waits alone, so the lines the
 * README shows (`+20s ...`, `... in 35s`) do not depend on how fast the machine runs the test.
 */
const watchClock = (): number => TEST_NOW.getTime() + slept;
/** Virtual seconds per real second once the clock step ran (0 before: frozen). */
let timeScale = 0;

let sb: SandboxHandle;
let dir = "";
let listenerIo: CapturedIo;
let listener: RunningListener;
/** The environment of terminal 3 after `export`. */
let env: Record<string, string> = {};
const results: Record<string, { code: number; stdout: string; stderr: string }> = {};

/** A wait of `ms` real milliseconds while the sandbox runs at {@link timeScale}. */
async function wait(ms: number): Promise<void> {
  slept += ms;
  await sb.clock.advance(ms * timeScale);
}

/** Runs a curl line of the story against the sandbox and the listener actually bound. */
async function curl(
  line: string,
  edit: (body: Record<string, unknown>) => Record<string, unknown> = (b) => b,
) {
  const c = curlOf(line);
  expect(c.url.startsWith(`${SANDBOX_ROOT}/_sandbox/`)).toBe(true);
  const path = c.url.slice(`${SANDBOX_ROOT}/_sandbox`.length);
  const body = JSON.parse(JSON.stringify(edit(c.body)).replaceAll(LISTENER_ROOT, listener.url));
  const reply = await admin(sb, c.method, path, body);
  expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
  return reply.body.data;
}

/** The README's story: from its heading to the next section. */
function readmeSection(): string {
  const readme = readFileSync(README, "utf8");
  const start = readme.indexOf(`\n${HEADING}\n`);
  expect(start).toBeGreaterThan(0);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The contents of the fenced blocks of `markdown` whose info string is `info` ("" for none). */
function fencedBlocks(markdown: string, info: string): string[] {
  const blocks: string[] = [];
  let open: { info: string; lines: string[] } | undefined;
  for (const line of markdown.split("\n")) {
    if (open === undefined) {
      if (line.startsWith("```")) open = { info: line.slice(3).trim(), lines: [] };
    } else if (line === "```") {
      if (open.info === info) blocks.push(open.lines.join("\n"));
      open = undefined;
    } else open.lines.push(line);
  }
  return blocks;
}

/** What `jq ... | sort | uniq -c` prints from the listener's lines: count by "project_id kind". */
function listenerCounts(stdout: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of stdout.split("\n").filter((l) => l !== "")) {
    const parsed = JSON.parse(line) as {
      type: string;
      event_type?: string;
      payload?: { project_id?: string };
    };
    if (parsed.type !== "accepted" || parsed.payload?.project_id == null) continue;
    const key = `${parsed.payload.project_id} ${parsed.event_type}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cc-story-"));
  // The README runs in a clone: `examples/` under the working directory.
  cpSync(new URL("../../examples", import.meta.url), join(dir, "examples"), { recursive: true });

  // Terminal 1: the sandbox of the story's flags (a free port instead of 4010).
  const sandboxLine = await parsedFlags<SandboxFlags>(argvOf(STORY.sandbox), ["sandbox"]);
  const options = sandboxOptions({ ...sandboxLine.flags, port: 0 }, captureIo({ cwd: dir, clock: wall }));
  expect(options).toMatchObject({
    start: "fixture",
    timeScale: 0,
    autoApproveTests: true,
    webhookClock: "wall",
  });
  const opened = await openSandbox(options);
  if (!opened.ok) throw new Error(JSON.stringify(opened.problems));
  sb = opened.handle;

  // Terminal 2: the listener of the story's flags and secret (a free port instead of 8787).
  const { env: secretEnv } = envPrefix(STORY.listen);
  const listenLine = await parsedFlags<WebhooksListenFlags>(argvOf(STORY.listen), ["webhooks", "listen"]);
  listenerIo = captureIo({ env: { NO_COLOR: "1", ...secretEnv }, cwd: dir, clock: wall });
  const started = await startWebhooksListener({ ...listenLine.flags, port: 0 }, listenerIo);
  if (!started.ok) throw new Error(listenerIo.err());
  listener = started.listener;
  const endpoint = await curl(STORY.register);
  expect(endpoint.secret).toBe(secretEnv.CAMPAIGNCTL_WEBHOOK_SECRET);

  // Terminal 3.
  const exported = words(STORY.connect);
  expect(exported[0]).toBe("export");
  env = Object.fromEntries(exported.slice(1).map((w) => w.split("=") as [string, string]));
  env.CAMPAIGNCTL_BASE_URL = (env.CAMPAIGNCTL_BASE_URL as string).replace(SANDBOX_ROOT, sb.rootUrl);
  results.apply = await runCli(argvOf(STORY.apply), { env, cwd: dir, clock: wall });
  await curl(STORY.simulation);
  await curl(STORY.clock, ({ time_scale, ...rest }) => {
    timeScale = time_scale as number;
    return rest;
  });
  const watchLine = await parsedFlags<WatchFlags>(argvOf(STORY.watch), ["watch"]);
  const watchIo = captureIo({ env: { NO_COLOR: "1", ...env }, cwd: dir, clock: watchClock });
  const outcome = await watchCommand(watchLine.args, watchLine.flags, watchIo, {
    session: { clock: { now: wall }, sleep: wait },
    sleep: wait,
    onInterrupt: () => () => {},
  });
  results.watch = { code: exitCodeOf(outcome), stdout: watchIo.out(), stderr: watchIo.err() };
  results.status = await runCli(argvOf(STORY.status), { env, cwd: dir, clock: wall });
  results.statusJson = await runCli([...argvOf(STORY.status), "--json"], { env, cwd: dir, clock: wall });
  await admin(sb, "POST", "/webhooks/flush");
  await listener.drained();
}, 60_000);

afterAll(async () => {
  expect(sb?.bugs ?? []).toEqual([]);
  await listener?.stop();
  await sb?.close();
});

describe("the README's story: after the send", () => {
  test("the README's section holds every command line the test runs", () => {
    const blocks = fencedBlocks(readmeSection(), "sh");
    const lines = blocks.flatMap((b) => b.split("\n")).map((l) => l.replace(/\s+#.*$/, "").trim());
    for (const command of Object.values(STORY)) expect(lines, command).toContain(command);
    // And nothing else is typed: every line of the section's shell blocks is a step of the test.
    expect(lines.filter((l) => l !== "").sort()).toEqual(Object.values(STORY).slice().sort());
  });

  test("apply sends the tests and the schedules", () => {
    expect(results.apply?.code, results.apply?.stderr).toBe(0);
    expect(results.apply?.stdout).toContain("gotv-reminder.schedule: done, project now scheduled");
    expect(results.apply?.stdout).toContain("gotv-followup.schedule: done, project now scheduled");
  });

  test("watch shows the send, pauses gotv-followup once for its guard and exits 2", async () => {
    const watch = results.watch as { code: number; stdout: string; stderr: string };
    expect(watch.code, watch.stderr).toBe(2);
    expect(watch.stdout).toMatch(/gotv-reminder: completed, 38 of 38 sent/);
    expect(watch.stdout).toMatch(
      /gotv-followup: GUARD TRIPPED: failure rate [\d.]+% > 10% \(\d+ of \d+ sent\); paused/,
    );
    expect(watch.stdout).toContain("1 guard tripped, 1 project paused");
    const pauses = (await admin(sb, "GET", `/effects?kind=pause&project_id=${GOTV_FOLLOWUP}`)).body.data
      .effects;
    expect(pauses).toHaveLength(1);
    const followup = (await admin(sb, "GET", `/projects/${GOTV_FOLLOWUP}`)).body.data;
    expect(followup.status).toBe("paused");
    expect(followup.pause_reason).toMatch(/^guard: failure rate [\d.]+% > 10% \(\d+ of \d+ sent\)$/);
    // The README shows this very run: its sample lines of watch, and the pause reason.
    const sample = fencedBlocks(readmeSection(), "")[0] ?? "";
    expect(sample).toContain("GUARD TRIPPED");
    for (const line of sample.split("\n").filter((l) => l !== "")) expect(watch.stdout).toContain(line);
    expect(readmeSection()).toContain(`(\`${followup.pause_reason}\`)`);
    const reminder = (await admin(sb, "GET", `/projects/${GOTV_REMINDER}`)).body.data;
    expect(reminder.status).toBe("completed");
    expect(
      (await admin(sb, "GET", `/effects?kind=pause&project_id=${GOTV_REMINDER}`)).body.data.effects,
    ).toEqual([]);
  });

  test("status shows the sandbox's counters exactly", async () => {
    expect(results.status?.code, results.status?.stderr).toBe(0);
    expect(results.status?.stdout).toMatch(/gotv-reminder +completed +38 +38 /);
    expect(results.statusJson?.code).toBe(0);
    const document = JSON.parse(results.statusJson?.stdout ?? "");
    for (const id of [GOTV_REMINDER, GOTV_FOLLOWUP]) {
      const row = document.projects.find((p: { id: string }) => p.id === id);
      const live = (await admin(sb, "GET", `/projects/${id}`)).body.data;
      expect(row).toMatchObject({
        status: live.status,
        sent: live.counters.messages_sent,
        delivered: live.counters.messages_delivered,
        failed: live.counters.messages_failed,
        opted_out: live.counters.messages_opted_out,
        replies: live.counters.replies_received,
      });
    }
  });

  test("the listener verified every delivery, and its counts per project equal status's", async () => {
    const deliveries = (await admin(sb, "GET", "/webhooks/deliveries?endpoint_id=wh_1")).body.data as {
      state: string;
      attempts: { status_code: number }[];
    }[];
    expect(deliveries.length).toBeGreaterThan(0);
    for (const d of deliveries)
      expect([d.state, d.attempts.map((a) => a.status_code)]).toEqual(["delivered", [200]]);
    expect(listener.counts).toMatchObject({
      accepted: deliveries.length,
      rejected: 0,
      duplicates: 0,
      replays: 0,
    });

    const counts = listenerCounts(listenerIo.out());
    const document = JSON.parse(results.statusJson?.stdout ?? "");
    for (const id of [GOTV_REMINDER, GOTV_FOLLOWUP]) {
      const row = document.projects.find((p: { id: string }) => p.id === id);
      expect({
        sent: counts.get(`${id} message.sent`) ?? 0,
        delivered: counts.get(`${id} message.delivered`) ?? 0,
        failed: counts.get(`${id} message.failed`) ?? 0,
      }).toEqual({ sent: row.sent, delivered: row.delivered, failed: row.failed });
    }
    // The rest of the events are the replies to those two projects: their REPLIES (the runoff
    // notice's replies came before the listener, in the fixture).
    const projectEvents = [...counts.values()].reduce((a, b) => a + b, 0);
    const replies = document.projects
      .filter((p: { id: string }) => p.id === GOTV_REMINDER || p.id === GOTV_FOLLOWUP)
      .reduce((a: number, p: { replies: number }) => a + p.replies, 0);
    expect(listener.counts.accepted - projectEvents).toBe(replies);
  });

  test("the deliveries carry this machine's time, days before the sandbox's virtual time", () => {
    const accepted = listenerIo
      .out()
      .split("\n")
      .filter((l) => l.includes('"type":"accepted"'))
      .map((l) => JSON.parse(l) as { timestamp: string });
    expect(accepted.length).toBeGreaterThan(0);
    for (const a of accepted) expect(Math.abs(Date.parse(a.timestamp) - wall())).toBeLessThan(5 * 60_000);
    expect(sb.clock.nowMs() - wall()).toBeGreaterThan(100 * 86_400_000);
  });
});
