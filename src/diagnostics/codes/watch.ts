/** Diagnostic codes of `campaignctl watch`. Each entry: a stable code and what it means. */
export const WATCH_CODES = {
  "watch.pause-pending":
    "a guard tripped and its pause is still pending as the run ends (every poll retried it with the same key; the project may still be sending)",
  "watch.reads-deferred":
    "projects of the files that no statistics row lists are read by id over the next polls, within the polls' request budget",
  "watch.ended-before-pause":
    "a guard tripped, but the project stopped sending otherwise (completed, or another status that does not send) before its pause landed: it was not paused, the net did not hold (exit 1)",
  "watch.poll-failed":
    "a poll could not read the statistics (after the client's retries); watch polls again at the next interval",
  "watch.project-unreadable":
    "a project that was sending is in no statistics row and its read by id answers 404 or 403 (deleted, or out of the key's sight); it is no longer watched",
  "watch.project-read-failed":
    "a sending project that no statistics row lists could not be read by id on a poll (after the client's retries): its last figures are kept and it is read again on the next poll",
  "watch.project-never-read":
    "no read of a project of the files succeeded in the whole run (its organization's key could not be used, or every read of it failed): its guard never judged it and it may be sending (exit 1)",
  "watch.nothing-sending":
    "no project of the campaign files is sending (scheduled or active) when watch starts",
  "watch.sample-unreachable":
    "a sending project has fewer recipients than its guard's min_sample: the guard can never judge it",
  "watch.no-guard": "a sending project has no guard: watch shows its progress and never pauses it",
  "watch.budget-crossed":
    "what a budget's period has actually spent (the statistics' actual cost) is over the policy's cap: said once per budget and period",
} as const;

export type WatchCode = keyof typeof WATCH_CODES;
