/** Diagnostic codes of content and schedule lint rules. */
export const LINT_CODES = {
  "lint.opt-out-missing": "without the opt-out footer, the message does not carry opt-out language (STOP)",
  "lint.schedule-in-past":
    "by the clock `validate` judged against (the system clock, or --now), the schedule's `at` is past; plan judges it by the API's clock",
  "lint.quiet-hours":
    "the local send time is outside 08:00-21:00 in the schedule's timezone (TCPA quiet hours; half-open: 21:00 itself is quiet)",
  "lint.daily-cap-bypass":
    "`daily_cap_bypass` is on: messages over the brand's daily cap may fail and are still billed",
  "lint.url-shortener": "the message links through a public URL shortener, which carriers filter",
  "lint.link-tracking-not-https": "the link tracking destination or fallback URL is not an https URL",
  "lint.link-tracking-unknown-param-field":
    "the link tracking `param_field` is neither a standard field nor declared under `fields`",
  "lint.link-tracking-fallback-required":
    "the link tracking destination is a whole-URL merge tag and has no `fallback_url`",
  "lint.segment-growth":
    "one non-GSM character in a contact's value would switch the message to UCS-2 and add segments",
  "lint.schedule-offset-mismatch":
    "the schedule's `at` offset is not its timezone's offset on that date (e.g. -05:00 for America/Chicago in December)",
  "lint.after-sends-first": "a project ordered `after` another is scheduled to send before it",
  "lint.invisible-character":
    "the message, or a merge_defaults value it sends, holds an invisible character (zero-width space, soft hyphen...): it hides text and makes the message UCS-2",
  "lint.bidi-control":
    "the message, or a merge_defaults value it sends, holds a bidirectional control character (U+202E...): it reorders or hides text and makes the message UCS-2",
  "lint.non-gsm-character":
    "the message holds a character GSM-7 cannot carry (emoji, curly quote, dash, accented letter): it goes out in UCS-2; the finding gives the segments per recipient both ways and the GSM-7 spelling",
  "lint.guard-zero-rate":
    "a guard's rate is 0: `watch` pauses the send at its first failed message (or opt-out) once `min_sample` messages are sent",
  "lint.guard-rate-never-trips":
    "a guard's rate is 1 (100 %): a rate is never over it, so `watch` never pauses the send (or alerts on the email campaign) on it (`0.01` is 1 %)",
} as const;

export type LintCode = keyof typeof LINT_CODES;
