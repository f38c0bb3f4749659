/**
 * The world of the watch tests: the example fixture (its clock starts at the fixed instant
 * 2026-12-01T15:00:00Z) plus copies of GOTV Reminder (38 recipients on Ward 3 Likely Voters) that
 * the fixture schedules shortly after the start, so they really send on the virtual clock; one
 * copy already paused (by a guard of an earlier run) and one completed, neither of which is watched.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import type { Fixture, FixtureProject } from "../../src/sandbox/fixture/types.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { admin, exampleFixture, GOTV_REMINDER } from "../sandbox/helpers.js";

/** The example fixture's clock start: the instant every watch test lives at. */
export const START = new Date("2026-12-01T15:00:00Z");
/** When the copies start sending: 10 virtual seconds after the start. */
export const SEND_AT = new Date(START.getTime() + 10_000);

const DAY = 86_400_000;
const at = (ms: number): string => new Date(ms).toISOString();

export interface WatchWorld {
  readonly fixture: Fixture;
  /** The copies that send, in order: `sender-1`, `sender-2`, ... */
  readonly senders: readonly string[];
  /** A copy paused before the run, with a guard's pause reason. */
  readonly pausedBefore: string;
  /** A copy that completed before the run. */
  readonly completed: string;
}

export const senderId = (n: number): string => `9d000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

export function watchWorld(senders: number): WatchWorld {
  const fixture = exampleFixture();
  const template = (fixture.projects ?? []).find((p) => p.project_id === GOTV_REMINDER) as FixtureProject;
  const base = {
    ...template,
    created_at: at(START.getTime() - 3 * DAY),
    updated_at: at(START.getTime() - 2 * DAY),
  };
  const records: FixtureProject[] = [];
  const ids: string[] = [];
  for (let n = 1; n <= senders; n++) {
    const id = senderId(n);
    ids.push(id);
    records.push({
      ...base,
      project_id: id,
      name: `GOTV copy ${n}`,
      status: "scheduled",
      scheduled_at: at(SEND_AT.getTime()),
      scheduled_timezone: "America/Los_Angeles",
      daily_cap_bypass: false,
    });
  }
  const pausedBefore = senderId(900);
  const completed = senderId(901);
  records.push({
    ...base,
    project_id: pausedBefore,
    name: "GOTV paused earlier",
    status: "paused",
    pause_reason: "guard: failure rate 40.0% > 20% (4 of 10 sent)",
    total_recipients: 38,
    stats: {
      messages_sent: 10,
      messages_delivered: 6,
      messages_failed: 4,
      messages_opted_out: 0,
      replies_received: 0,
      total_url_clicks: 0,
      unique_url_clicks: 0,
      actual_cost: "0.1000",
    },
  } as FixtureProject);
  records.push({
    ...base,
    project_id: completed,
    name: "GOTV completed earlier",
    status: "completed",
    total_recipients: 38,
    completed_at: at(START.getTime() - DAY),
    updated_at: at(START.getTime() - DAY),
    stats: {
      messages_sent: 38,
      messages_delivered: 38,
      messages_failed: 0,
      messages_opted_out: 0,
      replies_received: 0,
      total_url_clicks: 0,
      unique_url_clicks: 0,
      actual_cost: "0.3800",
    },
  });
  fixture.projects = [...(fixture.projects ?? []), ...records];
  return { fixture, senders: ids, pausedBefore, completed };
}

/** A temporary working directory holding `files` (name -> campaign file content as an object). */
export function workDir(files: Readonly<Record<string, unknown>> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "cc-watch-"));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), stringify(content));
  return dir;
}

/**
 * A campaign file describing `projects` (address -> id, and an optional guard of its own) by id,
 * with `defaults.guard` when given.
 */
export function campaignFile(
  projects: Readonly<Record<string, string | { readonly id: string; readonly guard: unknown }>>,
  defaultGuard?: unknown,
): unknown {
  return {
    version: 1,
    organization: "Riverside Democrats",
    ...(defaultGuard === undefined ? {} : { defaults: { guard: defaultGuard } }),
    projects: Object.fromEntries(
      Object.entries(projects).map(([address, p]) => [address, typeof p === "string" ? { id: p } : p]),
    ),
  };
}

/** The guard of the failing world's campaign: trips at 20 % failures from the 10th message. */
export const GUARD = { max_failure_rate: 0.2, min_sample: 10 };

/** The sandbox's simulation, with `failing` failing 60 % of its messages and nothing else failing. */
export async function simulateFailing(sb: SandboxHandle, failing: string): Promise<void> {
  await admin(sb, "PATCH", "/simulation", {
    messages_per_batch: 1,
    failure_rate: 0,
    reply_rate: 0,
    project_failure_rates: { [failing]: 0.6 },
  });
}

/**
 * A sandbox (with `faults`, if any) where the second of three copies fails 60 % of its messages,
 * and a campaign of the three under {@link GUARD}. The caller closes the sandbox.
 */
export async function failingWorld(
  faults?: string,
): Promise<{ sb: SandboxHandle; world: WatchWorld; cwd: string; failing: string }> {
  const world = watchWorld(3);
  const failing = world.senders[1] as string;
  const sb = await startSandbox({
    fixture: world.fixture,
    timeScale: 0,
    rateLimits: true,
    ...(faults === undefined ? {} : { faults }),
  });
  await simulateFailing(sb, failing);
  const [a, b, c] = world.senders as [string, string, string];
  const cwd = workDir({ "campaign.yaml": campaignFile({ alpha: a, bravo: b, charlie: c }, GUARD) });
  return { sb, world, cwd, failing };
}
