/**
 * The forecast's input from the campaign files and what the plan learned live: one ForecastProject
 * per project that is or will be scheduled, and the capacity in force (the policy's, which the files
 * may only tighten). Pure.
 */
import type { ProjectSpec } from "../campaign/model.js";
import type { PolicyCapacity } from "../policy/model.js";
import { combineCapacity } from "./capacity.js";
import type { ForecastProject } from "./types.js";

/** What the plan knows of a project that the files do not say. */
export interface LiveFacts {
  /** `total_recipients` (or the audience the plan counted). */
  readonly recipients: number;
  /** Segments of one message (the estimate's); 1 for an MMS. */
  readonly segmentsPerMessage: number;
  readonly estimatedCostCents?: number;
  /** The resolved brand id and name (when the plan resolved them). */
  readonly brandId?: string;
  readonly brandName?: string;
  /** The organization to count the cost under; default the file's `organization`. */
  readonly organization?: string;
  /** A live project already sending: messages sent so far, and of them in the clock's Pacific day. */
  readonly sent?: number;
  readonly sentToday?: number;
  /** The live `scheduled_at` when it differs from the file (a live project sending). */
  readonly scheduledAtMs?: number;
}

/**
 * The project as the forecast reads it, or undefined when it is not meant to send (no schedule, or a
 * desired state other than `scheduled`). `at: now` starts at `nowMs`.
 */
export function forecastProjectOf(
  spec: ProjectSpec,
  facts: LiveFacts,
  nowMs: number,
): ForecastProject | undefined {
  const schedule = spec.schedule;
  if (schedule === undefined || spec.state !== "scheduled") return undefined;
  const at = schedule.at === "now" ? nowMs : Date.parse(schedule.at);
  const deadline = spec.deadline === undefined ? undefined : Date.parse(spec.deadline);
  const brandNames = [facts.brandId, facts.brandName, spec.brand].filter((b): b is string => b !== undefined);
  return {
    address: spec.address,
    organization: facts.organization ?? spec.organization ?? "",
    brand: facts.brandId ?? spec.brand,
    brandNames,
    channel: spec.channel,
    recipients: facts.recipients,
    segmentsPerMessage: facts.segmentsPerMessage,
    startMs: facts.scheduledAtMs ?? at,
    timezone: schedule.timezone,
    dailyCapBypass: schedule.dailyCapBypass,
    ...(deadline !== undefined && { deadlineMs: deadline }),
    ...(facts.estimatedCostCents !== undefined && { estimatedCostCents: facts.estimatedCostCents }),
    ...(facts.sent !== undefined && { sent: facts.sent, sentToday: facts.sentToday ?? 0 }),
    ranges: {
      key: spec.range,
      at: spec.locate(["schedule", "at"]),
      ...(spec.deadline !== undefined && { deadline: spec.locate(["deadline"]) }),
    },
  };
}

/**
 * The capacity in force for `projects`: the policy's, tightened by their files' `capacity:`
 * (defaults filled in), with conflicts and refused loosenings; and the fastest throughput a send may
 * go at (see combineCapacity).
 */
export function capacityOfProjects(
  projects: readonly ProjectSpec[],
  policy?: PolicyCapacity,
): ReturnType<typeof combineCapacity> {
  return combineCapacity(
    projects.map((p) => p.capacity),
    policy,
  );
}
