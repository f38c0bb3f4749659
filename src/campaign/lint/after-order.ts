/**
 * Rule across projects: a project ordered `after` another must not be scheduled to send before it.
 * `after` orders the requests apply makes, not the send times the API keeps: a follow-up scheduled
 * at 09:00 after a reminder scheduled at 10:00 still goes out first. Only projects whose desired
 * state is `scheduled` send at their `at`; `at: now` sends when apply runs (`context.now`; without
 * a clock, `now` is not compared).
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { CrossProject } from "../cross-project.js";
import type { LintContext } from "./rule.js";
import { scheduleTimes } from "./schedule-times.js";

/** When the project would send, in epoch ms, or undefined when it is not scheduled or unreadable. */
function sendsAt(project: CrossProject, now: Date | null): number | undefined {
  if (project.state !== "scheduled" || project.schedule === undefined) return undefined;
  if (project.schedule.at === "now") return now?.getTime();
  return scheduleTimes(project.schedule)?.at.toMillis();
}

/** The findings of the rule on `project` (`byAddress`: every project loaded, by address). */
export function afterOrderRule(
  project: CrossProject,
  byAddress: ReadonlyMap<string, CrossProject>,
  context: LintContext,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (project.after.length === 0) return out;
  const mine = sendsAt(project, context.now);
  if (mine === undefined) return out;
  project.after.forEach((address, index) => {
    const target = byAddress.get(address);
    const theirs = target === undefined ? undefined : sendsAt(target, context.now);
    if (target === undefined || theirs === undefined || mine >= theirs) return;
    out.push({
      severity: "error",
      code: "lint.after-sends-first",
      message: `${project.address}: ordered after \`${address}\`, but scheduled at ${project.schedule?.at}, before ${address} sends (${target.schedule?.at})`,
      range: project.locate(["after", index]),
      hint: `\`after\` orders apply's requests, not send times: schedule ${project.address} after ${address}, or remove the entry`,
      related: [
        {
          message: `\`${address}\` sends at ${target.schedule?.at}`,
          range: target.locate(["schedule", "at"]),
        },
      ],
    });
  });
  return out;
}
