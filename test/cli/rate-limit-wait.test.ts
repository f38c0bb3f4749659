/**
 * A rate-limit wait through the command: `plan` in-process against an in-process sandbox over real HTTP on
 * loopback, the client's clock the sandbox's virtual clock and its sleep injected (no real sleep).
 * - The reproduction: 12 plans of `examples/` in a row against one frozen-clock sandbox with rate
 *   limits off. The sandbox counted every request and sent `X-RateLimit-Remaining` down to 0; the
 *   client then waited for a reset the frozen clock never brought (the 12th plan hung). Now nothing
 *   is counted with limits off, and no plan waits at all.
 * - Limits on: a plan that must wait says so on stderr, once, and its `--json` stdout stays a valid
 *   document; a wait no reset will end ends the plan with `api.rate-limit-stuck`.
 */
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { planCommand } from "../../cli/commands/plan.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import { createProgress } from "../../cli/progress/progress.js";
import { createRateLimitNotice, stderrNotice } from "../../cli/progress/rate-limit-notice.js";
import type { ApiEvent } from "../../src/api/index.js";
import type { ApplyEvent } from "../../src/apply/index.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { TEST_NOW } from "../helpers/clock.js";
import { checkCliDocuments } from "../helpers/documents.js";
import { captureIo } from "../helpers/run-cli.js";
import { admin, api, PARENT_KEY, sandbox } from "../sandbox/helpers.js";

const EXAMPLES = fileURLToPath(new URL("../../examples", import.meta.url));

let sb: SandboxHandle;
afterEach(async () => {
  await sb?.close();
});

interface PlanRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
  readonly sleeps: readonly number[];
  readonly events: readonly ApiEvent[];
}

/**
 * `plan DIR --json` against `sb` in `cwd`, the client on the sandbox's clock. `moves`: whether its
 * sleep advances the virtual clock, or returns leaving it frozen (a reset that never comes).
 */
async function plan(cwd: string, moves: boolean): Promise<PlanRun> {
  const sleeps: number[] = [];
  const events: ApiEvent[] = [];
  const io = captureIo({
    cwd,
    env: { NO_COLOR: "1", CAMPAIGNCTL_API_KEY: PARENT_KEY },
    clock: () => sb.clock.nowMs(),
  });
  const outcome = await planCommand(
    ["."],
    { baseUrl: sb.baseUrl, target: [], exclude: [], json: true, color: false },
    io,
    {
      clock: { now: () => sb.clock.nowMs() },
      sleep: async (ms) => {
        sleeps.push(ms);
        if (moves) await sb.clock.advance(ms);
      },
      onEvent: (event) => events.push(event),
    },
  );
  // Every --json document on stdout is valid against its schema, the failures' too.
  checkCliDocuments(["plan", ".", "--json"], io.out(), cwd);
  return { code: exitCodeOf(outcome), out: io.out(), err: io.err(), sleeps, events };
}

/** A copy of examples/ (plan writes its cache and snapshot beside the files). */
function examples(): string {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-rate-limit-"));
  cpSync(EXAMPLES, dir, { recursive: true });
  return dir;
}

async function requestCount(): Promise<number> {
  return ((await admin(sb, "GET", "/requests")).body as { data: { total: number } }).data.total;
}

const NOTICE = /^campaignctl: waiting \S+ for the API's rate limit \(until \d\d:\d\d:\d\d UTC\): /m;

describe("a frozen-clock sandbox with rate limits off", () => {
  test("12 plans of examples/ in a row: none waits (the 12th hung while the sandbox counted with limits off)", {
    timeout: 120_000,
  }, async () => {
    sb = await sandbox({ rateLimits: false, timeScale: 0 });
    const dir = examples();
    for (let i = 1; i <= 12; i++) {
      const run = await plan(dir, false);
      expect({ plan: i, code: run.code, err: run.err.match(/api\.[a-z-]+/g) }).toEqual({
        plan: i,
        code: 0,
        err: null,
      });
      expect(run.sleeps).toEqual([]);
      expect(run.err).not.toMatch(NOTICE);
    }
    // Far past the key's 100 a minute on one frozen instant: counted, they would have run out.
    expect(await requestCount()).toBeGreaterThan(100);
  });
});

describe("a sandbox with rate limits on", () => {
  test("a plan that waits says so once on stderr, and its --json stdout stays a valid document", async () => {
    // The first two requests answer 429 with Retry-After 10: two waits of 10 s.
    sb = await sandbox({ rateLimits: true, timeScale: 0, faults: "*: burst-429(2, retry-after=10) n=1" });
    const run = await plan(examples(), true);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out)).toHaveProperty("projects");
    expect(run.events.filter((e) => e.type === "wait-start")).toHaveLength(2);
    expect(run.sleeps).toEqual([10_000, 10_000]);
    const notices = run.err.split("\n").filter((line) => NOTICE.test(line));
    expect(notices).toEqual([
      expect.stringMatching(
        /^campaignctl: waiting 10s for the API's rate limit \(until \d\d:\d\d:\d\d UTC\): the API answered 429 Too Many Requests\. To avoid it: give each pipeline its own key, or run when the key is idle\. Later waits of this run are not announced\.$/,
      ),
    ]);
    // The time it names is the end of the wait on the client's clock (here the sandbox's).
    const until = new Date(sb.clock.nowMs() - 10_000).toISOString().slice(11, 19);
    expect(notices[0]).toContain(`(until ${until} UTC)`);
  });

  test("a frozen clock and a key used up by another user: the plan ends with api.rate-limit-stuck", async () => {
    sb = await sandbox({ rateLimits: true, timeScale: 0 });
    for (let i = 0; i < 100; i++) expect((await api(sb, "GET", "/organizations")).status).toBe(200);
    const run = await plan(examples(), false);
    expect(run.code).toBe(1);
    // Two waits of the 429's 60 s, the clock never moving, then the end: said once, not per request.
    expect(run.sleeps).toEqual([60_000, 60_000]);
    expect(run.err.split("\n").filter((line) => NOTICE.test(line))).toHaveLength(1);
    const doc = JSON.parse(run.out) as { diagnostics: { code: string; message: string }[] };
    const stuck = doc.diagnostics.filter((d) => d.code === "api.rate-limit-stuck");
    expect(stuck).toHaveLength(1);
    expect(stuck[0]?.message).toContain("the reset never comes");
  });
});

describe("where the notice is written", () => {
  const wait = (ms: number): ApiEvent => ({
    type: "wait-start",
    reason: "rate-limit",
    cause: "window",
    ms,
    untilMs: TEST_NOW.getTime() + ms,
    callId: 1,
    method: "GET",
    route: "GET /projects/{id}",
    path: "/projects/p",
    atMs: TEST_NOW.getTime(),
  });

  test("on a terminal, once, clearing a progress line first; later waits are not said", () => {
    const io = captureIo({ env: {}, cwd: "/", tty: true });
    const notice = createRateLimitNotice(stderrNotice(io));
    notice(wait(60_000));
    notice(wait(30_000));
    expect(io.err()).toBe(
      "\r\x1b[2Kcampaignctl: waiting 1m for the API's rate limit (until 19:01:00 UTC): this run's requests used up the key's limit for the minute. To avoid it: a run of many projects paces itself at the key's limit (its X-RateLimit-Limit a minute: 100 for a read-write key, 60 write-only, 30 delete-only); a run soon after reuses the read cache and reads less. Later waits of this run are not announced.\n",
    );
  });

  test("apply's live view writes it above its frame, then draws the frame again below it", () => {
    const io = captureIo({ env: {}, cwd: "/", tty: true });
    const progress = createProgress(io, () => TEST_NOW.getTime(), false, {
      columns: () => 200,
      ticker: () => () => {},
    });
    const start: ApplyEvent = {
      type: "run-start",
      at: TEST_NOW.toISOString(),
      actions: 1,
      sendable: 1,
      parallelism: 4,
      wait_for_approval_ms: null,
    };
    progress.onEvent(start);
    const before = io.err().length;
    const rows = io.err().split("\n").length - 1;
    progress.note("campaignctl: waiting 1m for the API's rate limit");
    const written = io.err().slice(before);
    // Up over the whole last frame, clear to the end, the notice, then the frame again.
    expect(
      written.startsWith(
        `\x1b[${rows}A\r\x1b[Jcampaignctl: waiting 1m for the API's rate limit\nApplying: 0/1`,
      ),
    ).toBe(true);
    progress.finish();
    // The next frame moves up over the frame only: the notice stays on the screen.
    expect(
      io
        .err()
        .slice(before + written.length)
        .startsWith(`\x1b[${rows}A\r\x1b[J`),
    ).toBe(true);
  });
});
