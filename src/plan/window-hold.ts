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
import { respread } from "./assemble.js";
import { holdForPolicy } from "./policy-hold.js";
import { summarize } from "./summary.js";
import type { Plan, ProjectPlan } from "./types.js";

/** `plan` with the window rules judged over each send (see the file comment). */
export function withWindowRules(
  plan: Plan,
  forecast: Forecast,
  policy: Policy,
  specs: readonly ProjectSpec[],
  factsOf: (spec: ProjectSpec, project: ProjectPlan) => SendFacts,
  now: Date,
): Plan {
  if (policy.rules.send_window === undefined && policy.rules.jurisdictions === undefined) return plan;
  const bySpec = new Map(specs.map((s) => [s.address, s]));
  const courses = new Map(
    forecast.projects.map((f) => [
      f.address,
      { startMs: f.startMs, endMs: f.finishMs ?? f.pause?.atMs ?? f.startMs },
    ]),
  );
  let held = false;
  const projects = plan.projects.map((project) => {
    const spec = bySpec.get(project.address);
    if (spec === undefined) return project;
    const facts = { ...factsOf(spec, project), span: courses.get(project.address) ?? null };
    const violations = relateToOrigin(spec, windowViolations(policy, spec, facts, now));
    if (violations.length > 0) held = true;
    return holdForPolicy(project, violations);
  });
  if (!held) return plan;
  const spread = respread(projects);
  return { ...plan, projects: spread, summary: summarize(spread, plan.diagnostics) };
}
