/** Shared helpers of the apply tests: a sandbox world, a session on its virtual clock, plan and apply. */
import { rmSync } from "node:fs";
import { afterEach } from "vitest";
import { type ApplyFlags, applyCommand } from "../../cli/commands/apply.js";
import { runPlanPipeline } from "../../cli/gather/plan-pipeline.js";
import { openSession, type Session } from "../../cli/gather/session.js";
import type { Io } from "../../cli/output/io.js";
import { exitCodeOf } from "../../cli/output/outcome.js";
import type { ApiEvent, ApiEventListener, Sleep } from "../../src/api/index.js";
import type { ApplyEvent } from "../../src/apply/events.js";
import type { ReconcileOptions } from "../../src/apply/port.js";
import { type ReconcileInput, reconcile } from "../../src/apply/reconcile.js";
import type { Judge } from "../../src/apply/sendable.js";
import type { ApplyResult } from "../../src/apply/types.js";
import type { Plan } from "../../src/plan/types.js";
import { renderApplyJson } from "../../src/report/apply-json.js";
import { validateApplyResult } from "../../src/report/apply-schema.js";
import { type SandboxHandle, type SandboxOptions, startSandbox } from "../../src/sandbox/index.js";
import { checkLine } from "../helpers/documents.js";
import { admin, PARENT_KEY } from "../sandbox/helpers.js";
import { buildWorld, type Role, type World } from "./world.js";

export interface TestBed {
  readonly world: World;
  readonly sb: SandboxHandle;
  readonly io: Io;
  close(): Promise<void>;
}

export async function testBed(
  counts: Partial<Record<Role, number>>,
  options: SandboxOptions = {},
): Promise<TestBed> {
  const world = buildWorld(counts);
  const sb = await startSandbox({ fixture: world.fixture, rateLimits: true, ...options });
  const io: Io = {
    stdout: () => {},
    stderr: () => {},
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    env: { CAMPAIGNCTL_API_KEY: PARENT_KEY, NO_COLOR: "1" },
    cwd: world.dir,
    clock: () => sb.clock.nowMs(),
  };
  return {
    world,
    sb,
    io,
    close: async () => {
      await sb.close();
      rmSync(world.dir, { recursive: true, force: true });
    },
  };
}

/**
 * Beds for the tests of one file, each closed after its test: call once at the top of the file,
 * then `const bed = await openBed(...)` in a test.
 */
export function bedsClosedAfterEach(): typeof testBed {
  let open: TestBed[] = [];
  afterEach(async () => {
    for (const b of open) await b.close();
    open = [];
  });
  return async (...args) => {
    const b = await testBed(...args);
    open.push(b);
    return b;
  };
}

/** Virtual time: the sandbox's clock, advanced by every wait. */
export function virtual(sb: SandboxHandle): { clock: { now(): number }; sleep: Sleep } {
  return { clock: { now: () => sb.clock.nowMs() }, sleep: (ms) => sb.clock.advance(ms) };
}

/** A fresh session (own client, own limiter) on the sandbox's virtual clock. */
export async function session(bed: TestBed, onEvent?: ApiEventListener): Promise<Session> {
  const { clock, sleep } = virtual(bed.sb);
  const opened = await openSession({ baseUrl: bed.sb.baseUrl }, bed.io, { clock, sleep, onEvent });
  if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join("; "));
  return opened.session;
}

export interface Planned {
  readonly plan: Plan;
  readonly organizationId: string;
  readonly live: ReconcileInput["live"];
  readonly judge: Judge;
}

export async function plan(bed: TestBed, s: Session, refresh = true): Promise<Planned> {
  const out = await runPlanPipeline(
    { paths: [bed.world.campaignFile], targets: [], excludes: [], refresh },
    s,
    bed.io,
  );
  if (!out.ok) throw new Error(out.diagnostics.map((d) => `${d.code}: ${d.message}`).join("\n"));
  return { plan: out.plan, organizationId: out.organizationId, live: out.live, judge: out.judge };
}

/** Plans the bed's campaign file with a session of its own, closed afterwards. */
export async function planFresh(bed: TestBed, refresh = true): Promise<Planned> {
  const s = await session(bed);
  try {
    return await plan(bed, s, refresh);
  } finally {
    await s.close();
  }
}

/** Plans with a fresh session, then runs the reconciliation loop with another (as `apply` does). */
export async function applyLoop(
  bed: TestBed,
  options: Partial<ReconcileOptions> & { readonly planned?: Planned; readonly reviewed?: Plan } = {},
): Promise<Applied & { readonly planned: Planned }> {
  const events: ApplyEvent[] = [];
  const apiEvents: ApiEvent[] = [];
  const s = await session(bed, (e) => apiEvents.push(e));
  const { clock, sleep } = virtual(bed.sb);
  try {
    const planned = options.planned ?? (await plan(bed, s));
    const result = await reconcile(
      {
        plan: planned.plan,
        live: planned.live,
        judge: planned.judge,
        ...(options.reviewed === undefined ? {} : { reviewed: options.reviewed }),
      },
      s.client,
      {
        parallelism: 4,
        clock,
        sleep,
        waitForApproval: null,
        signal: new AbortController().signal,
        onEvent: (e) => events.push(e),
        toolVersion: "test",
        ...options,
      },
    );
    checkApplyDocuments(result, events);
    return { result, events, apiEvents, planned };
  } finally {
    await s.close();
  }
}

/** Test messages the sandbox sent (its own log). */
export async function testMessages(sb: SandboxHandle): Promise<{ project_id: string }[]> {
  return (await admin(sb, "GET", "/test-messages")).body.data;
}

export interface Applied {
  readonly result: ApplyResult;
  readonly events: ApplyEvent[];
  readonly apiEvents: ApiEvent[];
}

export interface Effect {
  readonly seq: number;
  readonly kind: string;
  readonly project_id: string;
  readonly changed: boolean;
  readonly idempotency_key: string | null;
}

export async function effects(sb: SandboxHandle): Promise<Effect[]> {
  return (await admin(sb, "GET", "/effects")).body.data.effects as Effect[];
}

export async function requestLog(
  sb: SandboxHandle,
): Promise<{ method: string; route: string | null; status: number; replayed: boolean; path: string }[]> {
  return (await admin(sb, "GET", "/requests")).body.data.requests;
}

/** Effects per project and kind (only those that changed something). */
export function effectCounts(list: readonly Effect[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of list)
    if (e.changed)
      counts.set(`${e.project_id}:${e.kind}`, (counts.get(`${e.project_id}:${e.kind}`) ?? 0) + 1);
  return counts;
}

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The flags commander gives `apply` when none is passed. */
const APPLY_FLAGS: ApplyFlags = { parallelism: 4, target: [], exclude: [], color: false };

export interface CliOptions {
  /** Environment variables added to the bed's. */
  readonly env?: Readonly<Record<string, string>>;
  /** Whether stdin is a terminal (default: not). */
  readonly tty?: boolean;
  /** The answer to apply's question (default: an empty line). */
  readonly answer?: string;
  /** Asks apply's question instead of `answer` (a test may change the world while the user reads). */
  readonly ask?: (question: string) => Promise<string>;
  /** Ctrl-C as the first POST starts. */
  readonly interruptOnFirstPost?: boolean;
  /** Runs as each POST starts (1-based count, its path): where a test changes a file while apply sends. */
  readonly onPost?: (count: number, path: string) => void;
  /** The sleep of the session's client and of the loop (default: the bed's virtual clock). */
  readonly sleep?: Sleep;
  /**
   * Runs before each of the loop's own waits (approval polls, backoffs): where a test makes the
   * world move while apply waits (a person approves, edits in the dashboard).
   */
  readonly beforeSleep?: (ms: number) => Promise<void>;
}

/**
 * `campaignctl apply` in-process against the bed's sandbox, on its virtual clock, with the flags
 * commander would give (`flags` on top; the sandbox's base URL unless `flags` names one).
 */
export async function runApply(
  bed: TestBed,
  paths: string[],
  flags: Partial<ApplyFlags> = {},
  options: CliOptions = {},
): Promise<CliRun> {
  let interrupt: (() => void) | undefined;
  let posts = 0;
  let stdout = "";
  let stderr = "";
  const io: Io = {
    ...bed.io,
    env: { ...bed.io.env, ...options.env },
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    stdinIsTTY: options.tty ?? false,
  };
  const v = virtual(bed.sb);
  const sleep = options.sleep ?? v.sleep;
  const { beforeSleep } = options;
  const outcome = await applyCommand(paths, { ...APPLY_FLAGS, baseUrl: bed.sb.baseUrl, ...flags }, io, {
    session: {
      clock: v.clock,
      sleep,
      onEvent: (e) => {
        if (e.type === "request-start" && e.method === "POST") options.onPost?.(++posts, e.path);
        if (options.interruptOnFirstPost && e.type === "request-start" && e.method === "POST" && interrupt) {
          const fire = interrupt;
          interrupt = undefined;
          fire();
        }
      },
    },
    clock: v.clock,
    sleep:
      beforeSleep === undefined
        ? sleep
        : async (ms) => {
            await beforeSleep(ms);
            await sleep(ms);
          },
    onInterrupt: (handler) => {
      interrupt = handler;
      return () => {
        interrupt = undefined;
      };
    },
    ask: options.ask ?? (async () => options.answer ?? ""),
  });
  return { code: exitCodeOf(outcome), stdout, stderr };
}

/** `runApply` with `--auto-approve`, as CI runs it; `beforeSleep` as in {@link CliOptions}. */
export function cliApply(
  bed: TestBed,
  paths: string[],
  flags: Partial<ApplyFlags>,
  beforeSleep?: (ms: number) => Promise<void>,
): Promise<CliRun> {
  return runApply(
    bed,
    paths,
    { autoApprove: true, ...flags },
    beforeSleep === undefined ? {} : { beforeSleep },
  );
}

/**
 * Every apply result and journal event a loop test produces is checked against its schema, as the
 * CLI would write them (`apply --json`, `.campaignctl/journal/*.jsonl`): a new mismatch fails the
 * test that produced it.
 */
export function checkApplyDocuments(result: ApplyResult, events: readonly ApplyEvent[]): void {
  const written = validateApplyResult(JSON.parse(renderApplyJson(result)));
  if (!written.ok) throw new Error(`apply result breaks its schema: ${JSON.stringify(written.diagnostics)}`);
  // As the journal writes them, one line each; a line checked before (the same event of another
  // seed or test) is not checked again.
  for (const event of events) checkLine("a journal event", "journal-event", JSON.stringify(event));
}
