/**
 * A finding at a template's value for several instances is the plan's, not one project's (issue
 * 33). The judgement finds it on each instance (a policy rule on a variant, a forecast finding at
 * the template's schedule): it is listed once among the plan's diagnostics, with every instance it
 * is for in `related` (src/campaign/template-findings.ts), and counted once in the summary. Each
 * project keeps what the finding does to it (its actions stay blocked, with the codes) and every
 * other finding: those at its own values, and one at a template's value that no other instance
 * shares (a reference its organization alone lacks). Applied to every judgement, `plan`'s and
 * apply's alike, so a saved plan and the plan made again group alike. Pure.
 */
import { instanceGroups } from "../campaign/template-findings.js";
import { compareDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import { summarize } from "./summary.js";
import type { Plan } from "./types.js";

/** `plan` with its projects' findings shared by several instances moved to the plan's, grouped. */
export function liftInstanceFindings(plan: Plan): Plan {
  const shared = instanceGroups(plan.projects.flatMap((p) => p.diagnostics)).filter(
    (g) => g.finding !== g.members[0],
  );
  if (shared.length === 0) return plan;
  const lifted = new Set<Diagnostic>(shared.flatMap((g) => g.members));
  const projects = plan.projects.map((project) =>
    project.diagnostics.some((d) => lifted.has(d))
      ? { ...project, diagnostics: project.diagnostics.filter((d) => !lifted.has(d)) }
      : project,
  );
  const diagnostics = [...plan.diagnostics, ...shared.map((g) => g.finding).sort(compareDiagnostics)];
  return { ...plan, projects, diagnostics, summary: summarize(projects, diagnostics) };
}
