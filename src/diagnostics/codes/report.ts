/** Diagnostic codes of the `report` area (reading a saved plan document back, checking an apply report). Each entry: a stable code and what it means. */
export const REPORT_CODES = {
  "report.plan-not-json": "a saved plan file is not valid JSON",
  "report.plan-version":
    "a saved plan's `format_version` is missing or is not the one this campaignctl reads",
  "report.plan-invalid": "a saved plan does not match schemas/plan.schema.json",
  "report.plan-inconsistent":
    "a saved plan breaks an invariant the schema cannot express (duplicate or dangling action ids)",
  "report.plan-files-differ":
    "`preview --html --plan`: a campaign file is not the one the saved plan was made from (its sha256 differs), so the gallery shows its messages beside the figures of another version",
  "report.apply-invalid": "an apply report does not match schemas/apply-result.schema.json",
  "report.apply-inconsistent":
    "an apply report breaks an invariant the schema cannot express (summary counts, action ids)",
} as const;

export type ReportCode = keyof typeof REPORT_CODES;
