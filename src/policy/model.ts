/**
 * A policy file in memory: an organization's rules for its campaign files (issue: policy as code).
 * Produced only by `parsePolicy`, after schema validation, so every rule has the type the schema
 * promises. Every rule remembers where it was written, for the `related` part of a violation.
 */
import type { ChannelSpec } from "../campaign/model.js";
import type { SourceRange } from "../diagnostics/diagnostic.js";
import type { OptOutWording } from "../message/opt-out-wording.js";
import type { ApprovalsRule } from "./approvals-rule.js";
import type { Budget } from "./budget-rule.js";
import type { HelpRule } from "./help-rule.js";
import type { SuppressionRule } from "./suppression-rule.js";

export type DailyCapBypassRule = "forbid" | "allow" | "require_label";

/** The label a project must carry to set `daily_cap_bypass` under `require_label`. */
export const DAILY_CAP_BYPASS_LABEL = "daily-cap-bypass-approved";

import type { ListPlaces, PolicyMessages } from "../jurisdictions/index.js";
import type { SendWindow } from "../text/send-window.js";

export type { SendWindow } from "../text/send-window.js";

/**
 * The policy's `jurisdictions` rule: the shipped rule packs it puts in force (by name, `@VERSION`
 * pinned; checked against the shipped packs when the file is read) and the kind of its messages.
 * Invariant: `packs` is non-empty and names shipped packs.
 */
export interface JurisdictionsRule {
  readonly packs: readonly string[];
  readonly messages: PolicyMessages;
}

/** The rules, as the schema allows them; an absent rule is not enforced. */
export interface PolicyRules {
  readonly daily_cap_bypass?: DailyCapBypassRule;
  readonly min_test_contacts?: number;
  readonly max_estimated_cost_usd?: number;
  readonly send_window?: SendWindow;
  /** State rules from shipped packs, part of the one send window (docs/places.md). */
  readonly jurisdictions?: JurisdictionsRule;
  /** Every contact list a scheduled project sends to is declared under `places`. */
  readonly require_places?: boolean;
  readonly require_opt_out_language?: boolean;
  readonly forbid_at_now?: boolean;
  /** Every `scheduled` project must declare a `guard:` with at least one rate. */
  readonly require_guards?: boolean;
  /** Every row of an email list's CSV must carry `consent_source` and `consent_at` (src/email). */
  readonly require_email_consent?: boolean;
  /** The forecast's findings that are errors (each blocks the project's test and schedule). Non-empty. */
  readonly forecast_errors?: readonly ForecastFindingName[];
  /** Opt-out wording accepted per language beyond the built-in (src/message/opt-out-wording.ts). */
  readonly opt_out_wording?: OptOutWording;
  /** Reply rules: more revocation words, and answers projects with reply rules must have. */
  readonly replies?: PolicyReplies;
  /** Approvals a saved plan's schedules need before `apply PLANFILE` sends anything (src/approvals). */
  readonly require_approvals?: ApprovalsRule;
  /** Suppression lists every test and send must carry (src/policy/suppression-rule.ts). */
  readonly require_suppression_lists?: SuppressionRule;
  /** Every project with reply rules (or that sends) answers HELP and INFO (src/policy/help-rule.ts). */
  readonly require_help?: HelpRule;
  /** Spending caps per organization (or all) per day, week or month, judged by plan and apply (src/plan/budget-hold.ts). */
  readonly budgets?: readonly Budget[];
}

/** The policy's `replies` rule. Invariant: at least one of the two is set (the schema's minProperties). */
export interface PolicyReplies {
  /** Revocation words by language, added to the built-in ones (src/message/reply-words.ts). */
  readonly opt_out_words?: Readonly<Record<string, readonly string[]>>;
  /** Inbounds every project with `replies:` must answer, and words the answer must contain. */
  readonly require?: readonly { readonly text: string; readonly answer_contains?: string }[];
}

/** A forecast finding a policy may make an error: the code `forecast.<name>`. */
export type ForecastFindingName = "cap-pause" | "past-deadline" | "quiet-hours" | "over-cap";

export type PolicyRuleName = keyof PolicyRules;

/** Every rule name, in the order reports list them. */
export const POLICY_RULE_NAMES: readonly PolicyRuleName[] = [
  "daily_cap_bypass",
  "min_test_contacts",
  "max_estimated_cost_usd",
  "send_window",
  "jurisdictions",
  "require_places",
  "require_opt_out_language",
  "forbid_at_now",
  "require_guards",
  "require_email_consent",
  "forecast_errors",
  "opt_out_wording",
  "replies",
  "require_approvals",
  "require_suppression_lists",
  "require_help",
  "budgets",
];

/** The value a rule has, or had before it was loosened; null when the loosening turned it off. */
export type PolicyRuleValue = PolicyRules[PolicyRuleName] | null;

/**
 * A rule made looser than a farther policy file set it, on purpose: by a nearer file that names the
 * rule under `loosens`, or by `--loosen-policy RULE`. Invariant: `from` is the value in force before
 * (never null); `to` is null when the rule was turned off. Shown in every plan and validate output.
 */
export interface Loosening {
  readonly rule: PolicyRuleName;
  readonly from: NonNullable<PolicyRuleValue>;
  readonly to: PolicyRuleValue;
  /** The policy file that loosened it, or `--loosen-policy`. */
  readonly by: string;
}

/** A declared capacity value and where it is written (for `related`). */
export interface CapacityEntry<T> {
  readonly value: T;
  /** The file that declares it (a policy file, or a campaign file). */
  readonly file: string;
  readonly range: SourceRange;
}

/**
 * The capacity a policy declares (its `capacity:` key): the organization's truth about what the
 * carriers let it send, which campaign files may only tighten. Invariants: caps are whole numbers
 * of at least 1 or null (`none`: no carrier cap); throughputs are above 0. Empty maps: none declared.
 */
export interface PolicyCapacity {
  /** Daily cap by brand name or id, in messages per Pacific day. */
  readonly brands: Readonly<Record<string, CapacityEntry<number | null>>>;
  /** Message segments per minute of one project, by channel. */
  readonly throughput: Readonly<Partial<Record<ChannelSpec, CapacityEntry<number>>>>;
}

/** No capacity declared. */
export const NO_POLICY_CAPACITY: PolicyCapacity = { brands: {}, throughput: {} };

/**
 * A policy: one file as parsed, or the policy in force for a run, combined from every policy file
 * above the campaign files (farthest first) and `--policy` (see combine.ts). Invariants: `ranges`
 * has an entry for every rule present in `rules`, where the value in force is written (in whichever
 * file set it); `files` lists the files that make it up, farthest first, `file` being the last.
 */
export interface Policy {
  readonly file: string;
  readonly files: readonly string[];
  readonly rules: PolicyRules;
  readonly ranges: Readonly<Partial<Record<PolicyRuleName, SourceRange>>>;
  /** Rules this file may make looser than a farther file set them (its `loosens:` key). */
  readonly loosens: readonly PolicyRuleName[];
  /** Rules no nearer file and no flag may loosen (its `locked:` key; combined: every file's). */
  readonly locked: readonly PolicyRuleName[];
  /** Loosenings in force (combined policies only; empty for one file). */
  readonly loosened: readonly Loosening[];
  /** The capacity declared (combined: the strictest of every file's; see src/policy/capacity.ts). */
  readonly capacity: PolicyCapacity;
  /**
   * Where each contact list's recipients live (its `places:`; combined: every file's, farthest
   * first, so a nearer file can add places to a list but never remove any). Absent or empty: none
   * declared.
   */
  readonly places?: readonly ListPlaces[];
}
