/** Diagnostic codes of the `plan` area. Each entry: a stable code and what it means. */
export const PLAN_CODES = {
  "plan.project-not-found": "the project id reads 404: no such project, or not visible to the key",
  "plan.project-forbidden": "the project id reads 403: the project is outside the key's organization tree",
  "plan.project-unreadable": "the project could not be read (API error), so nothing is planned for it",
  "plan.reference-missing": "a name or id in the file matches no record the key can see",
  "plan.reference-ambiguous": "a name in the file matches two or more records; write the id instead",
  "plan.reference-unreadable": "a referenced record (media, toll-free verification) could not be read",
  "plan.tracking-domain-unchecked":
    "a tracking domain given by name cannot be checked: the API has no tracking-domain read",
  "plan.organization-mismatch": "the live project belongs to another organization than the file names",
  "plan.drift":
    "a described field differs from the live project; the API cannot edit projects, so sending is blocked",
  "plan.media-not-ready": "attached media is not `ready`",
  "plan.ten-dlc-campaign-not-provisioned":
    "the project's 10DLC campaign is not `MNO_PROVISIONED` (or not visible)",
  "plan.toll-free-not-verified": "the project's toll-free verification is not `Verified` (or not readable)",
  "plan.phone-number-not-active": "a sending phone number is not `active` (or not visible to the key)",
  "plan.phone-number-not-registered":
    "a sending phone number is not registered to the project's 10DLC campaign or toll-free verification",
  "plan.contact-list-not-visible":
    "a contact or suppression list of the live project is not visible to the key",
  "plan.no-recipients": "the project has no recipients (`total_recipients` is 0), so it cannot be scheduled",
  "plan.test-missing": "the project must leave draft through a test send, but the file has no `test:` block",
  "plan.schedule-in-past": "the schedule's `at` is in the past; the API would send at once",
  "plan.clock-skew":
    "the API's clock (its `Date` header) and this machine's differ by more than 60 s; the plan uses the API's",
  "plan.schedule-mismatch":
    "a scheduled project's time, timezone or daily cap bypass differs; the API cannot reschedule",
  "plan.restart-not-supported": "a paused project is desired `scheduled`; restarting is a dashboard step",
  "plan.guard-paused":
    "a project desired `scheduled` was paused by its guard (`campaignctl watch`, pause reason `guard: ...`); fix the cause, then restart it in the dashboard, or set `state: paused`",
  "plan.unknown-address": "a `--target` or `--exclude` address names no project or email list",
  "plan.excluded-dependency": "`--exclude` removes a project that a planned project is ordered `after`",
  "plan.ambiguous-selector":
    "a `--target` or `--exclude` name means two things covering different projects (an address and a template, a template and an organization)",
  "plan.reference-other-organization":
    "a name or id in the file is a record of another organization than the project's own; consent does not transfer",
} as const;

export type PlanCode = keyof typeof PLAN_CODES;
