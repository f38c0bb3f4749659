/**
 * The in-memory form of loaded campaign files: what every later stage (lint, preview, plan) reads.
 * Produced only by the loader, after schema validation, so every value here has the type the schema
 * promises. Every project remembers where each of its values was written, for diagnostics.
 */

import type { ScheduleTimezone } from "../contract/limits.js";
import type { SourceRange } from "../diagnostics/diagnostic.js";
import type { EmailCampaignSpec, EmailListSpec } from "./email-model.js";

/** A campaign file as read from disk. Invariant: `sha256` is the hex digest of the file's bytes. */
export interface CampaignFile {
  readonly path: string;
  readonly text: string;
  readonly sha256: string;
}

/**
 * A project's guard: thresholds `campaignctl watch` judges on the project's live statistics while it
 * sends. Invariants: rates are fractions in [0, 1]; at least one rate is set (the schema's
 * `minProperties` and the validate check); `minSample` is at least 1 (default {@link DEFAULT_GUARD_MIN_SAMPLE}).
 */
export interface GuardSpec {
  /** Failed over sent. */
  readonly maxFailureRate?: number;
  /** Opted out over delivered. */
  readonly maxOptOutRate?: number;
  /** Messages sent before any rate is judged. */
  readonly minSample: number;
}

/**
 * Whether a guard can ever pause a send: it sets a rate below 1. A rate is over its maximum when
 * strictly greater, and no rate is over 1 (100 %), so a guard whose every rate is 1 never trips.
 */
export function guardCanPause(guard: GuardSpec): boolean {
  return [guard.maxFailureRate, guard.maxOptOutRate].some((rate) => rate !== undefined && rate < 1);
}

/**
 * Whether a guard can judge a send to `recipients`: no rate is judged before `minSample` messages
 * are sent, and a send sends at most one to each recipient.
 */
export function sampleReachable(guard: GuardSpec, recipients: number): boolean {
  return recipients >= guard.minSample;
}

/** Messages sent before a guard judges a rate, when the file does not say. */
export const DEFAULT_GUARD_MIN_SAMPLE = 100;

/** Desired lifecycle of a project (design.md "Campaign files"). */
export type DesiredState = "draft" | "tested" | "scheduled" | "paused";
export type ProjectType = "broadcast" | "survey";
export type ChannelSpec = "10dlc" | "toll-free";

export interface TestContactSpec {
  readonly phone: string;
  readonly mergeValues?: Readonly<Record<string, string>>;
}

export interface ScheduleSpec {
  /** `"now"` or an ISO 8601 date-time with an explicit offset (checked by the schema). */
  readonly at: string;
  readonly timezone: ScheduleTimezone;
  readonly dailyCapBypass: boolean;
}

/**
 * A file's declared sending capacity (`capacity:`), for the forecast. Invariants: every `dailyCap`
 * is an integer of at least 1, or `null` for a brand no carrier caps; every throughput is above 0
 * (message segments per minute of one project). Brands are keyed as written (a name or an id);
 * absent values take the forecast's documented defaults (src/forecast/capacity.ts).
 */
export interface CapacitySpec {
  /** Daily cap per brand, in messages per Pacific day. */
  readonly brands: Readonly<Record<string, { readonly dailyCap: number | null }>>;
  readonly throughput: Readonly<Partial<Record<ChannelSpec, number>>>;
  /** Where the value at `path` (inside `capacity:`, e.g. `["brands", "X", "daily_cap"]`) is written. */
  readonly locate: (path: SpecPath) => SourceRange;
}

/**
 * One reply rule (`replies.rules[i]`): an inbound that contains one of `keywords` (whole words,
 * case- and accent-insensitive, any language listed) or matches `pattern` gets `answer`. Invariants
 * (checked by validate, src/campaign/reply-checks.ts): exactly one of `keywords` and `pattern`;
 * `name` unique in the project; `maxPerConversation` at least 1 (default 1).
 */
export interface ReplyRuleSpec {
  /** Stable name: part of each answer's Idempotency-Key, shown in plans and records. */
  readonly name: string;
  /** Keywords by language (`en`, `es`, ...); a plain list in the file is language `any`. */
  readonly keywords?: Readonly<Record<string, readonly string[]>>;
  readonly pattern?: string;
  readonly answer: string;
  /** Answers of this rule one conversation may get, ever. */
  readonly maxPerConversation: number;
}

/** Answers of one rule per conversation when the file does not say. */
export const DEFAULT_REPLY_MAX_PER_CONVERSATION = 1;
/** Answers (of all rules) one conversation may get in 24 hours when the file does not say. */
export const DEFAULT_REPLY_MAX_PER_DAY = 3;

/** A project's `replies:`: ordered rules (the first that matches answers) and the daily limit. */
export interface RepliesSpec {
  readonly rules: readonly ReplyRuleSpec[];
  readonly maxPerConversationPerDay: number;
}

export interface LinkTrackingSpec {
  readonly destinationUrl: string;
  /** Tracking domain, by name or id. */
  readonly domain?: string;
  readonly paramField?: string;
  readonly fallbackUrl?: string;
}

/**
 * A path to a value as written in a campaign file, from the project's own map: e.g.
 * `["schedule", "at"]` or `["test", "contacts", 0, "phone"]`. Keys are the file's keys (snake_case).
 */
export type SpecPath = readonly (string | number)[];

/**
 * One project as described by the files, after `defaults` were merged in. References (brand,
 * campaign, lists, media, numbers, domain) are as written: a name or an id; the planner resolves them.
 * Invariant: `address` is unique across everything loaded.
 */
export interface ProjectSpec {
  readonly address: string;
  /** The file the project's key is written in. */
  readonly file: string;
  readonly id: string;
  readonly name?: string;
  readonly type: ProjectType;
  readonly channel?: ChannelSpec;
  readonly organization?: string;
  readonly brand?: string;
  /** The 10DLC campaign registration (the file's key `campaign`). */
  readonly tenDlcCampaign?: string;
  readonly tollFreeVerification?: string;
  readonly phoneNumbers?: readonly string[];
  /** Message text with merge tags; for a survey, the intro question. */
  readonly message?: string;
  readonly media?: readonly string[];
  readonly contactLists?: readonly string[];
  readonly suppressionLists?: readonly string[];
  readonly linkTracking?: LinkTrackingSpec;
  readonly optOutFooter?: boolean;
  /** Defaults to `draft` when the file does not say. */
  readonly state: DesiredState;
  readonly test?: { readonly contacts: readonly TestContactSpec[] };
  readonly schedule?: ScheduleSpec;
  /** `deadline:` (or the defaults'): an ISO 8601 instant with an offset, checked by the schema. */
  readonly deadline?: string;
  /** The file's `capacity:`, shared by every project of the file; absent when it declares none. */
  readonly capacity?: CapacitySpec;
  readonly pause?: { readonly reason?: string };
  /** `guard:` (or the defaults'): what `watch` judges while the project sends. */
  readonly guard?: GuardSpec;
  /** `replies:` (or the defaults'): keyword answers `campaignctl replies` sends. */
  readonly replies?: RepliesSpec;
  readonly after: readonly string[];
  /** Free-form metadata for people and policies; never sent, never compared with the live project. */
  readonly labels?: Readonly<Record<string, string>>;
  /** The file's `merge_defaults` (organization defaults for merge tags). */
  readonly mergeDefaults: Readonly<Record<string, string>>;
  /** Custom contact fields the file declares, beyond the platform's standard ones. */
  readonly fields: readonly string[];
  /** Where the project's key is written. */
  readonly range: SourceRange;
  /**
   * Where the value at `path` was written (inside `defaults` when it was inherited). Falls back to
   * the closest written ancestor, and finally to the project's key; never throws.
   */
  readonly locate: (path: SpecPath) => SourceRange;
  /**
   * Where characters `start` to `end` (UTF-16 indices into `message`) were written. Exact for plain,
   * single-quoted and block scalars; for a double-quoted scalar with escapes it may widen to the
   * whole scalar. Never throws.
   */
  readonly locateInMessage: (start: number, end: number) => SourceRange;
  /**
   * Where characters `start` to `end` of the string value at `path` were written (a reply rule's
   * answer or pattern), as `locateInMessage` maps the message; absent in hand-built specs, where
   * callers fall back to `locate(path)`. Never throws.
   */
  readonly locateInValue?: (path: SpecPath, start: number, end: number) => SourceRange;
  /** Set when the project was expanded from a template instance (src/campaign/template-expand.ts). */
  readonly origin?: ProjectOrigin;
}

/**
 * Where an expanded project comes from. Invariants: `instance` equals the project's `address`;
 * `language` is one of the template's message keys; the ranges are the keys as written.
 */
export interface ProjectOrigin {
  /** The template's name. */
  readonly template: string;
  /** The instance's key (== the project's address). */
  readonly instance: string;
  /** The message variant the instance sends (`en`, `es`, ...). */
  readonly language: string;
  /** Where the template's key is written. */
  readonly templateRange: SourceRange;
  /** Where the instance's key is written. */
  readonly instanceRange: SourceRange;
}

/** One language variant of a template's message. */
export interface MessageVariant {
  /** The variant's key (`en`, `es`, ...). */
  readonly language: string;
  readonly text: string;
  /** Where the variant's text is written. */
  readonly range: SourceRange;
  /** Where characters `start` to `end` of `text` are written (as ProjectSpec's). */
  readonly locateInMessage: (start: number, end: number) => SourceRange;
}

/**
 * A template as loaded, for the checks between its variants (src/campaign/template-variants.ts).
 * Invariant: `variants` are in key order; `instances` are the schema-valid ones, in key order.
 */
export interface TemplateSpec {
  readonly name: string;
  readonly file: string;
  /** Where the template's key is written. */
  readonly range: SourceRange;
  readonly variants: readonly MessageVariant[];
  readonly instances: readonly {
    readonly address: string;
    readonly organization: string;
    readonly language: string;
    readonly range: SourceRange;
    /** The instance's `opt_out_footer` as it sends (its own, else the template's, else the defaults'). */
    readonly optOutFooter: boolean;
  }[];
  /** The template's own `opt_out_footer` (a variant needs no opt-out wording when it is on). */
  readonly optOutFooter: boolean;
}

/** What an experiment compares between its arms (the file's `metric:`; docs/experiments.md). */
export type ExperimentMetric = "reply_rate" | "click_rate" | "opt_out_rate" | "delivery_rate";

/** Every metric, in the order the docs list them. */
export const EXPERIMENT_METRICS: readonly ExperimentMetric[] = [
  "reply_rate",
  "click_rate",
  "opt_out_rate",
  "delivery_rate",
];

/**
 * An experiment (`experiments.<name>`), decoded by the loader with where each value is written.
 * Plain data (it crosses worker threads). Invariants: `arms` are at least two distinct project
 * addresses, `holdout` (absent: none) is none of them, `minSample` >= 1; the brake's rates are in
 * [0, 1] and at least one is set. Whether the addresses name projects is checked across files.
 */
export interface ExperimentSpec {
  readonly name: string;
  readonly file: string;
  readonly arms: readonly string[];
  readonly metric: ExperimentMetric;
  /** Trials per arm (deliveries; sends for the delivery rate) before any verdict. */
  readonly minSample: number;
  /** The rates at which `watch` pauses an arm: each arm's guard, tightened to them. */
  readonly brake?: { readonly maxOptOutRate?: number; readonly maxFailureRate?: number };
  /** The project that sends the winner's wording to the rest of the list. */
  readonly holdout?: string;
  /** Where the experiment's key, each arm and the holdout are written. */
  readonly range: SourceRange;
  readonly armRanges: readonly SourceRange[];
  readonly holdoutRange?: SourceRange;
}

/** Everything loaded from the given paths. Invariant: `projects` are in file order, then key order. */
export interface Campaign {
  readonly files: readonly CampaignFile[];
  readonly projects: readonly ProjectSpec[];
  /** The files' templates (their instances are in `projects`, expanded). */
  readonly templates?: readonly TemplateSpec[];
  /**
   * The files' email lists (`email_lists:`), decoded by the loader with positions; absent: none.
   * `--target`/`--exclude` may name their addresses, which select no project (src/plan/select.ts).
   * Invariant: no two name one live list (the loader keeps the first, `email.list-repeated`).
   */
  readonly emailLists?: readonly EmailListSpec[];
  /** The files' email campaigns (`email_campaigns:`), decoded by the loader; absent: none. */
  readonly emailCampaigns?: readonly EmailCampaignSpec[];
  /**
   * The files' experiments (`experiments:`), decoded by the loader; absent: none. Invariant: names
   * unique, every arm and holdout names a project of `projects` (the others are left out with
   * their diagnostics).
   */
  readonly experiments?: readonly ExperimentSpec[];
}
