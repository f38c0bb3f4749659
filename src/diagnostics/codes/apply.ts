/** Diagnostic codes of the `apply` area. Each entry: a stable code and what it means. */
export const APPLY_CODES = {
  "apply.plan-stale":
    "a saved plan's project changed since the plan was made (live status or updated_at differ); the whole plan is refused",
  "apply.project-unreadable":
    "a saved plan's project could not be re-read before applying, so staleness cannot be ruled out; the plan is refused",
  "apply.files-changed":
    "a file the saved plan was made from (a campaign file, a policy file, an email list's CSV) changed since (sha256 differs), or a policy file applies now that the saved plan was not made with (one added since) or one it was made with no longer applies; the plan is refused",
  "apply.policy-changed":
    "`apply PLANFILE` would judge the saved plan by another policy than it was made with: a loosening (`--loosen-policy`) given now and not when it was made, or the reverse; the plan is refused",
  "apply.file-missing":
    "a file the saved plan was made from (a campaign file, a policy file, an email list's CSV) is missing or unreadable; the plan is refused",
  "apply.plan-unreadable": "the saved plan file cannot be read",
  "apply.base-url-mismatch": "the saved plan was made against another API base URL than this apply talks to",
  "apply.plan-differs":
    "re-deriving a saved plan from its files and fresh live state gave a different plan (an action, request, body, key or project differs); the whole plan is refused",
  "apply.plan-no-files":
    "a saved plan names no campaign files, or names projects from files it does not list, so it cannot be re-derived; the plan is refused",
  "apply.not-plan-or-campaign":
    "apply was given a file that is neither a saved plan nor a campaign file (a Markdown report, a JUnit XML, a text file); nothing is read or sent",
  "apply.plan-mixed-with-files":
    "a saved plan was passed together with campaign files; apply takes one saved plan alone, or campaign files",
  "apply.key-scope":
    "the API key of this apply cannot see the organization the saved plan was made for; the plan is refused before any other request",
  "apply.needs-approval":
    "apply would act but cannot ask for confirmation (no terminal on stdin) and `--auto-approve` was not given",
  "apply.cancelled": "the question was not answered `yes`; nothing was done",
  "apply.action-failed": "an action failed: the API refused it, or its outcome could not be established",
  "apply.outcome-unknown":
    "a request may or may not have taken effect and re-reading the project did not settle it; rerun apply (the same key replays)",
  "apply.concurrent-change":
    "the project changed under apply (someone else edited or moved it); nothing more was sent to it; plan again",
  "apply.interrupted":
    "the run was interrupted (Ctrl-C) while an action waited to send again; nothing it sent took effect",
  "apply.internal-error":
    "an action ended on an internal error of campaignctl (a bug: please report it); the message says what failed",
  "apply.journal-unwritable": "the run's journal file could not be written",
  "apply.cross-organization-key":
    "the API key belongs to another organization than what it would write in (a project's test or schedule, a reply in a project's conversation, an email list's upsert); the API deduplicates idempotency keys per organization and consent does not transfer between senders, so the write is refused before any request (error), unless --allow-cross-organization-key lets it through (warning); a pause needs no flag",
  "apply.approvals-missing":
    "under the policy's require_approvals, the saved plan's schedules lack approvals: too few people other than its author approved it (pull request reviews of the commit it was made from, or signed approval files), or none can count; the message names who approved, each approval that does not count and why, and how many are missing; nothing is sent (counted again just before a round of the run sends such a schedule: those schedules are not sent)",
  "apply.approvals-unavailable":
    "the approvals a saved plan needs cannot be read: no GITHUB_TOKEN or pull request, the GitHub API refused or is unreachable, the pull request has too many reviews (3000 or more) to read them all, the policy names no readable allowed_signers file, or ssh-keygen cannot be run; nothing is sent (read again during the run: the schedules they cover are not sent)",
  "apply.approvals-need-saved-plan":
    "under the policy's require_approvals, apply of campaign files holds the schedules the rule covers (no saved plan was approved); save the plan, have it approved, and apply it",
} as const;

export type ApplyCode = keyof typeof APPLY_CODES;
