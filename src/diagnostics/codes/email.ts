/** Diagnostic codes of the `email` area (email lists, their CSV files, email campaigns). Each entry: a stable code and what it means. */
export const EMAIL_CODES = {
  "email.csv-unreadable":
    "an email list's CSV file cannot be read (missing, no permission), is not a regular file (a directory, a named pipe, a device, a socket), or its path leads outside the repository (symlinks followed), or it was written in place while plan read it",
  "email.csv-malformed":
    "an email list's CSV file is not well-formed CSV (unclosed quote, a row with more or fewer columns than the header, a header naming a column it reads twice)",
  "email.csv-encoding":
    "an email list's CSV is not UTF-8 text: a UTF-16 file (with or without a byte-order mark; the file is not read), or a row whose cell holds invalid UTF-8 or a NUL byte (that row is refused, never sent)",
  "email.csv-column-missing":
    "the CSV header lacks a column the list needs (`email`, or a column named in `columns:`), or spells a consent column nearly right (`Consent Source`)",
  "email.invalid-address": "a row's email address is not a valid address (dot-atom local part @ a DNS name)",
  "email.address-too-long": "a row's email address is longer than the API's 320 characters",
  "email.consent-source-too-long": "a row's consent_source is longer than the API's 255 characters",
  "email.invalid-consent-at":
    "a row's consent_at is not an RFC 3339 date-time with seconds and an offset, as the API reads it",
  "email.duplicate-row": "a row repeats an address (case-insensitive) of an earlier row of the same CSV file",
  "email.early-access":
    "the API answered 403 EMAIL_EARLY_ACCESS: email is not yet available to the organization; its email items are skipped (not an error: the same files work once email is available)",
  "email.row-rejected": "the API rejected a row of the CSV (its reason is given); the row is not retried",
  "email.row-unknown":
    "the API answered a batch 200 without a status the contract names for some of its rows (no result for the row, or an unnamed status): each may or may not have been written; they are reported `unknown`, never `rejected`",
  "email.batch-failed":
    "a batch of an email list could not be written (refused, or its outcome unknown after the retries); the list's later batches are not sent",
  "email.list-repeated":
    "two email_lists entries (in one file or two) name the same live list id: the second is not synced (one CSV per list)",
  "email.list-not-found": "an email list named in the files does not exist or is not visible to the key",
  "email.campaign-not-found":
    "an email campaign named in the files (by id or name) is not among GET /email/campaigns",
  "email.campaign-ambiguous":
    "an email campaign's name matches more than one live email campaign: name it by id",
  "email.campaign-drift":
    "a described field of an email campaign (lists, suppression lists, sender, timezone, require_approval, schedule) differs from the live campaign",
  "email.campaign-blocked": "the live email campaign carries a `blocked` reason from the API",
  "email.awaiting-approval": "the email campaign requires approval and is not approved yet",
  "email.domain-not-ready":
    "the campaign's sending domain is not verified: DNS records remain to add (per signal: DKIM, MAIL FROM, DMARC)",
  "email.dashboard-step":
    "a test, schedule or pause of an email campaign is a dashboard step: the API cannot do it, so the plan lists it",
  "email.guard-tripped":
    "an email campaign's rate crossed its guard; the API cannot pause an email campaign: pause it in the dashboard",
} as const;

export type EmailCode = keyof typeof EMAIL_CODES;
