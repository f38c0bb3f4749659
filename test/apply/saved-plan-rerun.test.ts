/**
 * Re-running an applied plan is green (issue 17 item 5), end to end through the CLI (run in-process
 * with a captured terminal, a machine clock at the fixture's instant) against a sandbox started in
 * this process at the example fixture's fixed instant (frozen virtual clock): `plan --out
 * plan.json`, `apply plan.json`, then `apply
 * plan.json` again. When every reviewed action is in effect the second run reports each as already
 * applied (`replayed`, nothing sent: the sandbox's effects log is unchanged) and exits 0; a plan
 * whose files changed, whose projects moved on in the dashboard, or that is only partly applied is
 * still refused, and sends nothing. Every `--json` document is checked against its schema.
 *
 * The plan and the first apply run once (per value of `autoApproveTests`); each test starts from a
 * copy of that state: the working directory and the sandbox's state file, reloaded by a fresh
 * sandbox on the same port (the plan names its base URL).
 */
import { appendFileSync, cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import type { ApplyResult } from "../../src/apply/types.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { clockFrom } from "../helpers/clock.js";
import { runCli } from "../helpers/run-cli.js";
import { schemaErrors } from "../helpers/schemas.js";
import {
  admin,
  EARLY_VOTE,
  GOTV_FOLLOWUP,
  GOTV_REMINDER,
  PARENT_KEY,
  VOLUNTEERS,
} from "../sandbox/helpers.js";
import { effects, requestLog } from "./helpers.js";

/** The example fixture's `clock.start`: the sandbox starts there, whatever the date today. */
const FIXTURE_START = new Date("2026-12-01T15:00:00Z");

/** The reviewed actions of the examples, all of which the first apply carries out. */
const ACTIONS = [
  "early-vote-push.pause",
  "gotv-reminder.test",
  "gotv-reminder.schedule",
  "gotv-followup.test",
  "gotv-followup.schedule",
  "volunteer-recruitment.test",
];

let dir: string | undefined;
let sb: SandboxHandle | undefined;
afterEach(async () => {
  await sb?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  sb = undefined;
  dir = undefined;
});

interface Setup {
  readonly dir: string;
  readonly sb: SandboxHandle;
  readonly env: Record<string, string>;
}

/**
 * The state after `plan --out plan.json` and the first `apply plan.json` (exit 0), made once per
 * value of `approveTests` and copied for each test: the working directory (examples/, plan.json,
 * what apply wrote) and the sandbox's state file (its world, effects log and virtual clock).
 */
interface Applied {
  readonly base: string;
  readonly first: ApplyResult;
  /** The sandbox's port: the saved plan names its base URL, so each copy listens there again. */
  readonly port: number;
}
const applied = new Map<boolean, Promise<Applied>>();
// Each copy's sandbox listens on the port of the one before it (closed after its test): this
// file's fetches must not reuse a kept-alive connection to the closed one. (Files share a worker
// process: the dispatcher is put back afterwards.)
const sharedDispatcher = getGlobalDispatcher();
const noKeepAlive = new Agent({ pipelining: 0 });
beforeAll(() => setGlobalDispatcher(noKeepAlive));
afterAll(async () => {
  setGlobalDispatcher(sharedDispatcher);
  await noKeepAlive.close();
  for (const made of applied.values()) rmSync((await made).base, { recursive: true, force: true });
});

async function startAt(base: string, approveTests: boolean, port = 0): Promise<SandboxHandle> {
  return startSandbox({
    port,
    start: FIXTURE_START,
    autoApproveTests: approveTests,
    rateLimits: true,
    statePath: join(base, "sandbox-state.json"),
  });
}

function appliedOnce(approveTests: boolean): Promise<Applied> {
  let made = applied.get(approveTests);
  if (made === undefined) {
    made = (async () => {
      const base = mkdtempSync(join(tmpdir(), "campaignctl-rerun-base-"));
      const work = join(base, "work");
      cpSync(join(process.cwd(), "examples"), join(work, "examples"), { recursive: true });
      // Texting actions only: the example's email list is planned again on every run (the API has no
      // read of email lists), which test/quick-start.test.ts and test/email/ cover.
      rmSync(join(work, "examples/email.yaml"));
      const first = await startAt(base, approveTests);
      try {
        const s = { dir: work, sb: first, env: envFor(first) };
        const planned = await runCli(["plan", "examples", "--out", "plan.json"], {
          cwd: work,
          env: s.env,
          clock: clockFrom(FIXTURE_START),
        });
        expect(planned.code, planned.stdout + planned.stderr).toBe(0);
        const run = await apply(s);
        expect(run.code, run.stderr).toBe(0);
        return { base, first: run.result, port: Number(new URL(first.baseUrl).port) };
      } finally {
        await first.close();
      }
    })();
    applied.set(approveTests, made);
  }
  return made;
}

function envFor(handle: SandboxHandle): Record<string, string> {
  return { CAMPAIGNCTL_API_KEY: PARENT_KEY, CAMPAIGNCTL_BASE_URL: handle.baseUrl };
}

/**
 * A copy of the state after the first apply (`approveTests`: as `--sandbox` does), with a sandbox
 * restarted from it; returns the first apply's result too.
 */
async function setUp(approveTests = true): Promise<Setup & { readonly first: ApplyResult }> {
  const made = await appliedOnce(approveTests);
  dir = mkdtempSync(join(tmpdir(), "campaignctl-rerun-"));
  cpSync(made.base, dir, { recursive: true });
  sb = await startAt(dir, approveTests, made.port);
  return { dir: join(dir, "work"), sb, env: envFor(sb), first: made.first };
}

async function apply(s: Setup, json = true): Promise<{ code: number; result: ApplyResult; stderr: string }> {
  const run = await runCli(["apply", "plan.json", "--auto-approve", ...(json ? ["--json"] : [])], {
    cwd: s.dir,
    env: s.env,
    clock: clockFrom(FIXTURE_START),
  });
  const result = (json ? JSON.parse(run.stdout) : {}) as ApplyResult;
  if (json) expect(schemaErrors("apply-result", result)).toEqual([]);
  return { code: run.code, result, stderr: json ? run.stderr : `${run.stdout}\n${run.stderr}` };
}

/** The POSTs to the API (not `/_sandbox`) since the request log was last cleared. */
async function posts(s: Setup): Promise<unknown[]> {
  return (await requestLog(s.sb)).filter((r) => r.method === "POST" && !r.path.includes("/_sandbox/"));
}

describe("apply plan.json after it was applied", () => {
  test("every action is reported already applied, nothing is sent, exit 0", async () => {
    const s = await setUp();
    const first = s.first;
    expect(first.actions.map((a) => [a.id, a.status])).toEqual(ACTIONS.map((id) => [id, "done"]));
    const before = await effects(s.sb);
    expect(before.filter((e) => e.kind !== "approve")).toHaveLength(ACTIONS.length);
    await admin(s.sb, "DELETE", "/requests");

    const again = await apply(s);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain("is already applied");
    const result = again.result;
    expect(result.refused).toEqual([]);
    expect(result.actions.map((a) => a.id)).toEqual(ACTIONS);
    for (const a of result.actions) {
      expect(a.status, a.id).toBe("replayed");
      expect(a.reason, a.id).toMatch(/^already applied: /);
      expect(a.attempts, a.id).toBe(0);
      expect(a.idempotency_key, a.id).toBeNull();
    }
    expect(result.summary).toMatchObject({ done: 0, replayed: ACTIONS.length, failed: 0, deferred: 0 });
    const statusAfter = Object.fromEntries(result.actions.map((a) => [a.id, a.status_after]));
    expect(statusAfter).toEqual({
      "early-vote-push.pause": "paused",
      "gotv-reminder.test": "scheduled",
      "gotv-reminder.schedule": "scheduled",
      "gotv-followup.test": "scheduled",
      "gotv-followup.schedule": "scheduled",
      "volunteer-recruitment.test": "ready",
    });
    // The schedules shown are the ones the first run made.
    const schedules = (r: ApplyResult) =>
      r.actions.filter((a) => a.kind === "schedule").map((a) => a.schedule);
    expect(schedules(result)).toEqual(schedules(first));
    expect(result.requests.by_endpoint).not.toHaveProperty("POST /projects/{id}/test");
    expect(await posts(s)).toEqual([]);
    expect(await effects(s.sb)).toEqual(before);

    // The terminal report says the same, and a third run is just as green.
    const third = await apply(s, false);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).toContain("Apply complete: 0 done, 6 replayed");
    expect(await effects(s.sb)).toEqual(before);
  }, 60_000);

  interface Refusal {
    readonly name: string;
    /** What happens between the two applies. */
    readonly between: (s: Setup) => Promise<void>;
    readonly code: string;
    /** Default: the tests are approved at once (as `--sandbox`), so the first apply does everything. */
    readonly approveTests?: boolean;
  }

  const patch = (id: string, body: unknown) => async (s: Setup) => {
    const res = await admin(s.sb, "PATCH", `/projects/${id}`, body);
    expect(res.status).toBe(200);
  };

  const refusals: readonly Refusal[] = [
    {
      name: "a campaign file edited after the first apply",
      between: async (s) => appendFileSync(join(s.dir, "examples", "volunteers.yaml"), "# edited\n"),
      code: "apply.files-changed",
    },
    {
      name: "the paused project started again in the dashboard",
      between: patch(EARLY_VOTE, { status: "scheduled" }),
      code: "apply.plan-stale",
    },
    {
      name: "a scheduled project paused in the dashboard",
      between: patch(GOTV_REMINDER, { status: "paused", pause_reason: "dashboard" }),
      code: "apply.plan-stale",
    },
    {
      name: "a scheduled project rescheduled in the dashboard",
      between: patch(GOTV_FOLLOWUP, { scheduled_at: "2026-12-09T21:00:00Z" }),
      code: "apply.plan-stale",
    },
    {
      name: "a tested project's message edited in the dashboard",
      between: patch(VOLUNTEERS, { message_text: "Edited in the dashboard. Reply STOP to opt out." }),
      code: "apply.plan-stale",
    },
    {
      name: "a plan applied only in part (the tests await approval, the schedules wait)",
      between: async () => {},
      code: "apply.plan-stale",
      approveTests: false,
    },
  ];

  test.each(refusals)(
    "$name: the second apply refuses ($code) and sends nothing",
    async ({ between, code, approveTests }) => {
      const s = await setUp(approveTests ?? true);
      await between(s);
      const before = await effects(s.sb);
      await admin(s.sb, "DELETE", "/requests");

      const again = await apply(s);
      expect(again.code).toBe(1);
      expect(again.result.refused.map((d) => d.code)).toContain(code);
      expect(again.result.actions.every((a) => a.status === "not-started")).toBe(true);
      expect(again.stderr).not.toContain("is already applied");
      expect(await posts(s)).toEqual([]);
      expect(await effects(s.sb)).toEqual(before);
    },
    60_000,
  );
});
