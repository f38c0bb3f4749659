/**
 * Email as the campaign files describe it (`email_lists:`, `email_campaigns:`): part of the one
 * campaign model (`Campaign.emailLists`, `Campaign.emailCampaigns`), decoded by the loader from the
 * schema-checked file with where each value is written (src/campaign/email-spec.ts). Plain data, so
 * it crosses to a worker thread. References are as written (ids, or list addresses of the files).
 */
import type { SourceRange } from "../diagnostics/diagnostic.js";

/** The CSV headers of the standard columns. Invariant: three distinct non-empty headers. */
export interface ColumnMapping {
  readonly email: string;
  readonly consent_source: string;
  readonly consent_at: string;
}

export const DEFAULT_COLUMNS: ColumnMapping = {
  email: "email",
  consent_source: "consent_source",
  consent_at: "consent_at",
};

/**
 * One `email_lists:` entry. Invariants: `address` is unique among the email lists loaded, and no two
 * lists name one `id` (the loader reports `email.list-repeated` and keeps the first); `csv` is the
 * path as written (relative to the campaign file), `csvPath` the path to read, relative to the
 * working directory as the campaign file's own path is.
 */
export interface EmailListSpec {
  readonly address: string;
  readonly file: string;
  readonly id: string;
  readonly name?: string;
  readonly csv: string;
  readonly csvPath: string;
  readonly columns: ColumnMapping;
  /** The merge field columns; undefined: every non-standard column. */
  readonly fields?: readonly string[];
  /** The file's `organization:`, as written. */
  readonly organization?: string;
  /** Where the list's key is written. */
  readonly range: SourceRange;
  /** Where `csv:` is written (for problems of the file as a whole). */
  readonly csvRange: SourceRange;
  /** Where `id:` is written (a list the API does not know: 404 at its first batch). */
  readonly idRange: SourceRange;
}

/** An email campaign's guard (watch alerts; the API cannot pause). Rates are fractions in [0, 1]. */
export interface EmailGuardSpec {
  readonly maxBounceRate?: number;
  readonly maxComplaintRate?: number;
  readonly maxUnsubscribeRate?: number;
  /** Delivered (bounce: sent) messages before a rate is judged; default 100. */
  readonly minSample: number;
}

/** One `email_campaigns:` entry. Invariant: `id` or `name` is set. */
export interface EmailCampaignSpec {
  readonly address: string;
  readonly file: string;
  readonly id?: string;
  readonly name?: string;
  /** List addresses of `email_lists:` or live list ids. */
  readonly lists?: readonly string[];
  readonly suppressionLists?: readonly string[];
  readonly sender?: string;
  readonly sendingDomain?: string;
  readonly timezone?: string;
  readonly requireApproval?: boolean;
  readonly schedule?: { readonly at: string };
  readonly guard?: EmailGuardSpec;
  /** The file's `organization:`, as written. */
  readonly organization?: string;
  /** Where the entry's key is written. */
  readonly range: SourceRange;
  /** Where the value of each key the entry writes is (file keys: `sending_domain`, `guard`, ...). */
  readonly keyRanges: Readonly<Record<string, SourceRange>>;
}

/** Where the value of `key` of an email campaign is written; the entry's key when it is not written. */
export function emailCampaignRange(spec: EmailCampaignSpec, key: string): SourceRange {
  return Object.hasOwn(spec.keyRanges, key) ? (spec.keyRanges[key] ?? spec.range) : spec.range;
}

/** Everything the files say about email. Invariant: file order, then key order. */
export interface EmailSpecs {
  readonly lists: readonly EmailListSpec[];
  readonly campaigns: readonly EmailCampaignSpec[];
}

export const NO_EMAIL: EmailSpecs = { lists: [], campaigns: [] };
