/**
 * Words for the per-organization sections of plans and apply results (issue 26): one line per
 * organization saying what its part comes to. Pure; shared by the terminal and Markdown views.
 */
import type { OrganizationApply } from "../apply/types.js";
import { organizationLabel } from "../plan/organizations.js";
import type { OrganizationPlan } from "../plan/types.js";

const PLAN_STATE_WORDS: Readonly<Record<OrganizationPlan["state"], string>> = {
  failed: "FAILED (a project could not be read; nothing is sent for it)",
  blocked: "BLOCKED (a project is drifted, blocked or in error; fix it and plan again)",
  ready: "ready",
  "no-changes": "no changes",
};

/** `Adams County Democrats: ready; 2 projects, 2 to do, 0 blocked, 0 drifted, 0 errors`. */
export function describeOrganizationPlan(section: OrganizationPlan): string {
  const s = section.summary;
  const counts = [
    `${s.projects} project${s.projects === 1 ? "" : "s"}`,
    `${s.planned} to do`,
    ...(s.deferred > 0 ? [`${s.deferred} deferred`] : []),
    `${s.blocked} blocked`,
    `${s.drifted} drifted`,
    `${s.errors} error${s.errors === 1 ? "" : "s"}`,
  ];
  return `${organizationLabel(section.organization)}: ${PLAN_STATE_WORDS[section.state]}; ${counts.join(", ")}`;
}

const APPLY_STATE_WORDS: Readonly<Record<OrganizationApply["state"], string>> = {
  done: "done",
  pending: "pending (deferred actions wait for approval)",
  blocked: "BLOCKED (nothing of the blocked projects was sent)",
  failed: "FAILED",
  interrupted: "interrupted",
};

/** `Baker County Democrats: BLOCKED; 2 projects, 1 done, 1 blocked, 0 failed`. */
export function describeOrganizationApply(section: OrganizationApply): string {
  const c = section.counts;
  const counts = [
    `${section.projects.length} project${section.projects.length === 1 ? "" : "s"}`,
    `${c.done} done`,
    ...(c.deferred > 0 ? [`${c.deferred} deferred`] : []),
    `${c.blocked} blocked`,
    `${c.failed} failed`,
  ];
  return `${organizationLabel(section.organization)}: ${APPLY_STATE_WORDS[section.state]}; ${counts.join(", ")}`;
}
