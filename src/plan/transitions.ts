/**
 * The transition table of design.md ("Plan"): from the live status and the desired state, the
 * actions of one project, before drift, preconditions and ordering are applied. Pure.
 *
 * | live \ desired  | tested  | scheduled                                   | paused        |
 * |-----------------|---------|---------------------------------------------|---------------|
 * | draft           | test    | test, then schedule (deferred: approval)    | nothing       |
 * | awaiting_test   | nothing | schedule (deferred: approval)               | nothing       |
 * | ready           | nothing | schedule                                    | nothing       |
 * | scheduled/active| nothing | nothing if time, zone, bypass match; else blocked | pause   |
 * | paused          | nothing | blocked (restart is a dashboard step)       | nothing       |
 * | completed       | nothing | nothing                                     | nothing       |
 *
 * Desired `draft`: no actions. A draft project desired `tested`/`scheduled` without a `test:` block
 * is blocked; a schedule `at` in the past (other than `now`) is blocked. A paused project desired
 * `scheduled` is blocked either way; when its live `pause_reason` carries the guard mark
 * (`guard: ...`, src/contract/guard-reason.ts) the block says that `campaignctl watch` paused it
 * and quotes the reason (`plan.guard-paused`), else that restarting is a dashboard step
 * (`plan.restart-not-supported`). Where each action leaves the
 * project (`after`) is the lifecycle's (`lifecycle.ts`).
 */
import type { ProjectSpec, ScheduleSpec } from "../campaign/model.js";
import { isGuardPauseReason } from "../contract/guard-reason.js";
import type { ProjectStatus } from "../contract/limits.js";
import type { Project } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { LIFECYCLE, type PausableStatus } from "./lifecycle.js";
import { AT_NOW, instantOf, pauseBody, scheduleBody, testBody } from "./requests.js";
import { scheduleMatches } from "./schedule-match.js";
import type { ActionKind, ActionStatus, Block } from "./types.js";

/** An action as the table chooses it, before ids, keys and cross-project ordering. */
export interface ActionDraft {
  readonly kind: ActionKind;
  readonly status: ActionStatus;
  readonly before: ProjectStatus;
  readonly after: ProjectStatus;
  readonly body: unknown;
  readonly reason: string;
  readonly block?: Block;
  readonly waitsFor?: string;
  /** Kinds of this project's own actions it depends on. */
  readonly dependsOn: readonly ActionKind[];
}

export interface TransitionResult {
  readonly drafts: readonly ActionDraft[];
  readonly diagnostics: readonly Diagnostic[];
  readonly notes: readonly string[];
}

/** What a deferred schedule waits for. */
export const TEST_APPROVAL = "approval of the test send in the dashboard (the project becomes ready)";

const NOTHING: TransitionResult = { drafts: [], diagnostics: [], notes: [] };

export function chooseActions(spec: ProjectSpec, project: Project, now: Date): TransitionResult {
  const live = project.status;
  switch (spec.state) {
    case "draft":
      return NOTHING;
    case "tested":
      switch (live) {
        case "draft":
          return collect([testFromDraft(spec)]);
        case "awaiting_test":
        case "ready":
        case "scheduled":
        case "active":
        case "paused":
        case "completed":
          return NOTHING;
      }
      break;
    case "scheduled":
      switch (live) {
        case "draft":
          return collect([testFromDraft(spec), schedule(spec, now, "deferred", ["test"])]);
        case "awaiting_test":
          return collect([schedule(spec, now, "deferred", [])]);
        case "ready":
          return collect([schedule(spec, now, "planned", [])]);
        case "scheduled":
        case "active":
          return alreadyScheduled(spec, project, now);
        case "paused":
          return collect([
            isGuardPauseReason(project.pause_reason)
              ? guardPaused(spec, now, project.pause_reason)
              : restartBlocked(spec, now),
          ]);
        case "completed":
          return NOTHING;
      }
      break;
    case "paused":
      switch (live) {
        case "draft":
        case "awaiting_test":
        case "ready":
        case "paused":
        case "completed":
          return NOTHING;
        case "scheduled":
        case "active":
          return collect([pause(spec, live)]);
      }
      break;
  }
  throw new Error(`chooseActions: unhandled ${live} -> ${spec.state}`);
}

interface Choice {
  readonly draft: ActionDraft;
  readonly diagnostics?: readonly Diagnostic[];
}

function collect(choices: readonly Choice[]): TransitionResult {
  return {
    drafts: choices.map((c) => c.draft),
    diagnostics: choices.flatMap((c) => c.diagnostics ?? []),
    notes: [],
  };
}

function blocked(draft: Omit<ActionDraft, "status" | "block">, diagnostic: Diagnostic, fix: string): Choice {
  return {
    draft: {
      ...draft,
      status: "blocked",
      block: { reason: diagnostic.message, fix, codes: [diagnostic.code] },
    },
    diagnostics: [diagnostic],
  };
}

function testFromDraft(spec: ProjectSpec): Choice {
  const base = { kind: "test", before: "draft", after: LIFECYCLE.test.to, dependsOn: [] } as const;
  if (spec.test === undefined) {
    const fix = "add a `test:` block with the contacts that receive the test";
    return blocked(
      {
        ...base,
        body: { test_contacts: [] },
        reason: "the project is in draft and can leave it only by a test send",
      },
      {
        severity: "error",
        code: "plan.test-missing",
        message: `${spec.address}: the project cannot leave draft without a test send, and the file has no \`test:\` block`,
        range: spec.locate(["state"]),
        hint: fix,
      },
      fix,
    );
  }
  const count = spec.test.contacts.length;
  return {
    draft: {
      ...base,
      status: "planned",
      body: testBody(spec.test),
      reason: `send the test to ${count} contact${count === 1 ? "" : "s"}; the project then awaits approval`,
    },
  };
}

function schedule(
  spec: ProjectSpec,
  now: Date,
  status: "planned" | "deferred",
  dependsOn: readonly ActionKind[],
): Choice {
  const given = spec.schedule;
  const base = { kind: "schedule", before: "ready", after: LIFECYCLE.schedule.to, dependsOn } as const;
  if (given === undefined) {
    const fix =
      spec.origin === undefined
        ? "add a `schedule:` block (at, timezone)"
        : "add a `schedule:` block (local) to the instance or the template, with a `timezone`";
    return {
      draft: {
        ...base,
        body: {},
        status: "blocked",
        reason: "desired scheduled without a schedule",
        block: { reason: "the file has no `schedule:` block", fix, codes: ["campaign.schedule-missing"] },
      },
    };
  }
  const body = scheduleBody(given, now);
  const past = pastSchedule(spec, given, now);
  if (past !== undefined)
    return blocked({ ...base, body, reason: "the schedule is in the past" }, past, past.hint ?? "");
  const when = describeAt(given, body.scheduled_at, status);
  return status === "planned"
    ? { draft: { ...base, body, status, reason: `schedule ${when}` } }
    : {
        draft: {
          ...base,
          body,
          status,
          waitsFor: TEST_APPROVAL,
          reason: `once the test is approved, schedule ${when}`,
        },
      };
}

function describeAt(given: ScheduleSpec, scheduledAt: string, status: "planned" | "deferred"): string {
  const bypass = given.dailyCapBypass ? ", bypassing the daily cap" : "";
  if (given.at !== AT_NOW) return `for ${given.at} in ${given.timezone}${bypass}`;
  const resolved =
    status === "planned"
      ? `resolved to ${scheduledAt} when the plan was made; apply sends that time, already past, so the API starts at once`
      : `shown as ${scheduledAt}, the plan's time; apply takes the time again when the schedule becomes sendable`;
  return `to send at once (at: now, ${resolved}) in ${given.timezone}${bypass}`;
}

function pastSchedule(spec: ProjectSpec, given: ScheduleSpec, now: Date): Diagnostic | undefined {
  if (given.at === AT_NOW) return undefined;
  const at = instantOf(given.at);
  if (at === undefined || at >= now.getTime()) return undefined;
  return {
    severity: "error",
    code: "plan.schedule-in-past",
    message: `${spec.address}: schedule at ${given.at} is in the past, so the API would send at once`,
    range: spec.locate(["schedule", "at"]),
    hint: "set a future time, or write `at: now` to send as soon as it is scheduled",
  };
}

function alreadyScheduled(spec: ProjectSpec, project: Project, now: Date): TransitionResult {
  const given = spec.schedule;
  if (given === undefined) return NOTHING;
  const match = scheduleMatches(given, project);
  const notes = match.bypassUnknown
    ? ["the live daily_cap_bypass is not shown by the API, so it was not compared"]
    : [];
  if (match.differences.length === 0) return { ...NOTHING, notes };
  const live = project.status;
  const differs = match.differences.join("; ");
  const fix =
    "the API cannot reschedule: to keep the live schedule, change the file's `schedule:` to match it; " +
    "to change it, reschedule the project in the dashboard and then update the file; " +
    "to stop it meanwhile, set `state: paused`";
  const choice = blocked(
    {
      kind: "schedule",
      before: live,
      after: LIFECYCLE.schedule.to,
      dependsOn: [],
      body: scheduleBody(given, now),
      reason: `the project is already ${live} with another schedule`,
    },
    {
      severity: "error",
      code: "plan.schedule-mismatch",
      message: `${spec.address}: the project is already ${live}, but ${differs}`,
      range: spec.locate(["schedule"]),
      hint: fix,
    },
    fix,
  );
  return { ...collect([choice]), notes };
}

function restartBlocked(spec: ProjectSpec, now: Date): Choice {
  const fix = "start the project again in the dashboard, or set `state: paused` to keep it paused";
  return pausedScheduleBlocked(
    spec,
    now,
    "restarting a paused project is a dashboard step in this API version",
    {
      severity: "error",
      code: "plan.restart-not-supported",
      message: `${spec.address}: the project is paused and the file wants it scheduled; the API cannot restart a paused project`,
      range: spec.locate(["state"]),
      hint: fix,
    },
  );
}

/**
 * A project `campaignctl watch` paused because its guard tripped, while the file still wants it
 * scheduled: blocked like any paused project, but the plan says why it is paused (the reason as the
 * API stores it) and what to do, and points at the guard when the files declare one.
 */
function guardPaused(spec: ProjectSpec, now: Date, reason: string): Choice {
  const fix =
    "find and fix the cause (a carrier filtering the message, a broken link, a wrong list); " +
    "then restart the project in the dashboard and plan again; " +
    "or, to accept the pause, set `state: paused` in the file";
  return pausedScheduleBlocked(
    spec,
    now,
    "a guard paused the project; restarting a paused project is a dashboard step in this API version",
    {
      severity: "error",
      code: "plan.guard-paused",
      message: `${spec.address}: a guard paused the project (campaignctl watch, pause reason ${JSON.stringify(reason)}), and the file still wants it scheduled; the API cannot restart a paused project`,
      range: spec.locate(["state"]),
      hint: fix,
      ...(spec.guard === undefined
        ? {}
        : { related: [{ message: "the guard that paused it", range: spec.locate(["guard"]) }] }),
    },
  );
}

/** The schedule of a paused project the file wants scheduled: blocked with `diagnostic` (its hint is the fix). */
function pausedScheduleBlocked(spec: ProjectSpec, now: Date, reason: string, diagnostic: Diagnostic): Choice {
  return blocked(
    {
      kind: "schedule",
      before: "paused",
      after: LIFECYCLE.schedule.to,
      dependsOn: [],
      body: spec.schedule === undefined ? {} : scheduleBody(spec.schedule, now),
      reason,
    },
    diagnostic,
    diagnostic.hint ?? "",
  );
}

function pause(spec: ProjectSpec, live: PausableStatus): Choice {
  const body = pauseBody(spec.pause);
  return {
    draft: {
      kind: "pause",
      before: live,
      after: LIFECYCLE.pause.to,
      dependsOn: [],
      status: "planned",
      body,
      reason: `pause the ${live} project${body.reason === undefined ? "" : ` (reason "${body.reason}")`}`,
    },
  };
}
