import { rmSync } from "node:fs";
/** Shared helpers of the apply tests: a sandbox world, a session on its virtual clock, plan and apply. */

import type { Io } from "../../cli/io.js";
import { runPlanPipeline } from "../../cli/plan-pipeline.js";
import { openSession, type Session } from "../../cli/session.js";
import type { ApiEvent, ApiEventListener, Sleep } from "../../src/api/index.js";
import type { ApplyEvent } from "../../src/apply/events.js";
import { executePlan } from "../../src/apply/execute.js";
import type { ExecuteOptions } from "../../src/apply/port.js";
import type { ApplyResult } from "../../src/apply/types.js";
import type { Plan } from "../../src/plan/types.js";
import { type SandboxHandle, type SandboxOptions, startSandbox } from "../../src/sandbox/index.js";
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

export async function plan(bed: TestBed, s: Session): Promise<{ plan: Plan; organizationId: string }> {
  const out = await runPlanPipeline(
    { paths: [bed.world.campaignFile], targets: [], excludes: [], refresh: true },
    s,
    bed.io,
    s.now(),
  );
  if (!out.ok) throw new Error(out.diagnostics.map((d) => `${d.code}: ${d.message}`).join("\n"));
  return { plan: out.plan, organizationId: out.organizationId };
}

export interface Applied {
  readonly result: ApplyResult;
  readonly events: ApplyEvent[];
  readonly apiEvents: ApiEvent[];
}

/** Plans nothing: executes `p` with a fresh session on the virtual clock. */
export async function apply(bed: TestBed, p: Plan, options: Partial<ExecuteOptions> = {}): Promise<Applied> {
  const events: ApplyEvent[] = [];
  const apiEvents: ApiEvent[] = [];
  const s = await session(bed, (e) => apiEvents.push(e));
  const { clock, sleep } = virtual(bed.sb);
  try {
    const result = await executePlan(p, s.client, {
      parallelism: 4,
      clock,
      sleep,
      waitForApproval: null,
      signal: new AbortController().signal,
      onEvent: (e) => events.push(e),
      toolVersion: "test",
      ...options,
    });
    return { result, events, apiEvents };
  } finally {
    await s.close();
  }
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
