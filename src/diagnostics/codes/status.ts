/** Diagnostic codes of `campaignctl status`. Each entry: a stable code and what it means. */
export const STATUS_CODES = {
  "status.range-too-old":
    "--since is older than the 90 days the statistics endpoint covers (GET /projects/stats refuses older dates)",
  "status.range-in-future": "--since is after today on the API's clock",
  "status.unknown-organization": "--organization names no organization the key can see, or more than one",
  "status.no-statistics":
    "a selected project is in no statistics row of the range: it was read by id, and its counters are unknown",
  "status.project-not-found":
    "a project of the campaign files is in no statistics row and reads 404: no such project, or not visible to the key",
  "status.project-forbidden":
    "a project of the campaign files is in no statistics row and reads 403: it is outside the key's organization tree",
  "status.project-unreadable":
    "a project could not be read by id (API error); a warning when its statistics row is known and only its estimate is missing",
  "status.cost-unreadable":
    "a statistics row's actual_cost is not a decimal with at most 4 decimals: that project's cost counts as unknown",
} as const;

export type StatusCode = keyof typeof STATUS_CODES;
