/** Diagnostic codes of the forecast (`plan --forecast`, docs/forecast.md). Each entry: a stable code and what it means. */
export const FORECAST_CODES = {
  "forecast.past-deadline": "the projected finish of the send is after the project's `deadline`",
  "forecast.quiet-hours":
    "the projected send runs outside 08:00-21:00 in the schedule's timezone (TCPA quiet hours; half-open: 21:00 itself is quiet)",
  "forecast.cap-pause":
    "the send is projected to pause at its brand's daily cap (before its deadline, when it has one) with recipients left; restarting is a dashboard step",
  "forecast.over-cap":
    "with `daily_cap_bypass`, messages are projected past the brand's daily cap: they may fail and are still billed",
  "forecast.deadline-before-schedule": "the project's `deadline` is at or before its schedule's `at`",
  "forecast.capacity-conflict":
    "two campaign files declare different capacity for the same brand or channel; the forecast uses the smaller",
  "forecast.capacity-unknown":
    "under the policy's `forecast_errors`, a project sends on a brand whose daily cap the policy does not declare (a campaign file's does not count): a cap that is not known cannot be judged",
  "forecast.sent-unknown":
    "the brand's live sends could not all be listed or read: the forecast counts what it could (an error holding each covered send under the policy's forecast_errors)",
} as const;

export type ForecastCode = keyof typeof FORECAST_CODES;
