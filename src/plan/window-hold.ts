/**
 * The policy's `send_window` and `jurisdictions` over each whole send, as the forecast sees it
 * (from its start to its last message: throughput and the brand's daily cap included), when the
 * judge forecasts: each project the plan covers is judged from the forecast's start to its finish
 * or cap pause (its start alone when the forecast does not cover it), and a violation holds its
 * test and schedule like any policy violation (policy-hold.ts), spreading along `after`. Pure.
 */
import type { ProjectSpec } from "../campaign/model.js";
import { relateToOrigin } from "../campaign/template-origin.js";
import type { Forecast } from "../forecast/types.js";
import type { Policy } from "../policy/model.js";
import { windowViolations } from "../policy/rules.js";
import type { SendFacts } from "../policy/window-rules.js";
import { holdForPolicy } from "./policy-hold.js";
import type { ProjectPlan } from "./types.js";

/** The course of each send the forecast covers, by address: from its start to its finish or cap pause. */
export function coursesOf(forecast: Forecast): ReadonlyMap<string, SendSpan> {
  return new Map(
    forecast.projects.map((f) => [
      f.address,
      { startMs: f.startMs, endMs: f.finishMs ?? f.pause?.atMs ?? f.startMs },
    ]),
  );
}

/** A send's course as the window rules judge it (milliseconds since the epoch). */
export interface SendSpan {
  readonly startMs: number;
  readonly endMs: number;
}

/**
 * `project` with the window rules judged over its send (`span`: its course, null when the forecast
 * does not cover it): a violation holds its test and schedule (not spread here).
 */
export function windowHolds(
  project: ProjectPlan,
  spec: ProjectSpec,
  facts: SendFacts,
  span: SendSpan | null,
  policy: Policy,
  now: Date,
): ProjectPlan {
  if (policy.rules.send_window === undefined && policy.rules.jurisdictions === undefined) return project;
  return holdForPolicy(
    project,
    relateToOrigin(spec, windowViolations(policy, spec, { ...facts, span }, now)),
  );
}
