/**
 * A plan is data (after Terraform's internal/plans): for each project, what the files want, what the
 * live API has, what differs, and the actions `apply` would take. Rendering lives in `src/report`;
 * nothing here does IO. The JSON form is versioned by `PLAN_FORMAT_VERSION` and described by
 * `schemas/plan.schema.json`. Field names are the JSON names (snake_case): the in-memory plan and
 * the saved document are the same data.
 */

import type { DesiredState } from "../campaign/model.js";
import type { ProjectStatus } from "../contract/limits.js";
import type { DiagnosticCode } from "../diagnostics/codes.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ForecastJson } from "../forecast/json.js";
import type { Loosening, PolicyRules } from "../policy/model.js";
import type { ItemCounts, PlanEmail, ReplyRuleSetItem } from "./items.js";

/**
 * Bump on any incompatible change of the plan document; `apply` refuses other versions. 3: every
 * item in one plan (issue 33): `email` and `replies` are the judge's, the summary counts them, and
 * `files` lists every input by kind (campaign, policy and CSV files alike).
 */
export const PLAN_FORMAT_VERSION = 3;

export type ActionKind = "test" | "schedule" | "pause";

/**
 * - `planned`: apply will send it (once its dependencies are done).
 * - `blocked`: it cannot be done until a person fixes something (`block` says what and how).
 * - `deferred`: it waits for something outside our control (`waits_for`), e.g. a test approval in the
 *   dashboard; a later apply (or `--wait-for-approval`) does it.
 */
export type ActionStatus = "planned" | "blocked" | "deferred";

/** The exact request an action sends. Invariant: `path` is relative to the base URL (`/projects/{id}/test`). */
export interface PlannedRequest {
  readonly method: "POST";
  readonly path: string;
  readonly body: unknown;
  /**
   * Deterministic key (design.md "Idempotency keys"), derived from the live `updated_at` the action
   * is conditional on. Null for a deferred action: its key is derived when it becomes sendable,
   * from the live state at that moment.
   */
  readonly idempotency_key: string | null;
}

/** Why an action cannot go ahead, and what a person can do about it. */
export interface Block {
  readonly reason: string;
  readonly fix: string;
  /** The diagnostics behind the block (drift, failed precondition), by code. */
  readonly codes: readonly DiagnosticCode[];
}

/**
 * One thing apply does to one project. Invariants: `id` is `"<address>.<kind>"`, unique in the plan;
 * every id in `depends_on` is an action of the same plan; `reason` is for display only and never
 * drives behaviour; `block` is present iff `status` is `blocked`, `waits_for` iff `deferred`.
 */
export interface Action {
  readonly id: string;
  readonly address: string;
  readonly project_id: string;
  readonly kind: ActionKind;
  readonly status: ActionStatus;
  readonly request: PlannedRequest;
  readonly depends_on: readonly string[];
  /** The live status this action starts from and the one it should leave the project in. */
  readonly before: ProjectStatus;
  readonly after: ProjectStatus;
  readonly reason: string;
  readonly block?: Block;
  readonly waits_for?: string;
}

/** Kinds of drift: one per described field group the API cannot edit (design.md principle 2). */
export type DriftField =
  | "name"
  | "message"
  | "contact_lists"
  | "suppression_lists"
  | "media"
  | "phone_numbers"
  | "brand"
  | "campaign"
  | "toll_free_verification"
  | "channel"
  | "link_tracking"
  | "opt_out_footer"
  | "type";

/**
 * A described field whose live value differs from the file. `before` is the live value, `after`
 * the value the file describes (both after reference resolution, as ids, with names for display).
 */
export interface Drift {
  readonly field: DriftField;
  readonly before: unknown;
  readonly after: unknown;
  /** Display strings of the two sides (names rather than ids where known). */
  readonly before_text: string;
  readonly after_text: string;
  readonly fix: string;
}

/** Live facts a project plan was computed from; `apply PLANFILE` re-reads and compares them. */
export interface LiveBasis {
  readonly status: ProjectStatus;
  readonly updated_at: string;
}

/** What the send will reach and cost, for the reviewer. */
export interface SendEstimate {
  readonly recipients: number;
  /** Null for MMS (media attached): segments do not apply. */
  readonly segments: number | null;
  readonly encoding: "GSM-7" | "UCS-2" | "MMS";
  readonly estimated_cost_cents: number;
}

/**
 * A record the plan names for the reviewer: its id and its name. `name` is null when the live
 * catalogs do not hold the id (the key cannot see it); reports then show the id.
 */
export interface NamedRecord {
  readonly id: string;
  readonly name: string | null;
}

/**
 * Who a project's send reaches: the live project's organization, contact lists and suppression
 * lists, by name and id. Taken from the live project (what the API sends to); when the file
 * describes other lists, that is drift and blocks the send. For display only: never drives
 * behaviour.
 */
export interface PlanAudience {
  readonly organization: NamedRecord;
  readonly contact_lists: readonly NamedRecord[];
  readonly suppression_lists: readonly NamedRecord[];
  /** Where the lists' recipients live, as the policy's `places` declares; absent when it declares none. */
  readonly places?: PlanPlaces;
}

/**
 * Where a send's recipients live (the policy's `places`, docs/places.md). Invariants:
 * `contact_lists` follows the audience's contact lists, one entry each; an entry not `declared` has
 * no states and no zones (its recipients are taken to be in the schedule's zone); `zones` is every
 * zone the send window is judged in (empty when the project has no schedule zone).
 */
export interface PlanPlaces {
  readonly contact_lists: readonly {
    readonly id: string;
    readonly declared: boolean;
    readonly states: readonly string[];
    readonly zones: readonly string[];
  }[];
  readonly zones: readonly string[];
}

/**
 * When a project sends, in the recipients' zone. Invariants: `source` is `file` when the file asks
 * for the project scheduled and has a `schedule:` (the time apply would schedule), else `live` (the
 * live project's schedule: it is or was scheduled); `local` and `utc` are the same instant, both
 * null for `at: now` (sent as soon as apply schedules it) or a live time that cannot be read;
 * `local` is null too when `timezone` is null or unknown.
 */
export interface PlanSchedule {
  readonly source: "file" | "live";
  /** As the file writes it (an ISO 8601 date-time with offset, or `now`) or the live project holds it. */
  readonly at: string;
  /** The schedule's IANA timezone (the recipients' zone); null when the live project names none. */
  readonly timezone: string | null;
  /** Wall-clock time in `timezone`, ISO 8601 with that zone's offset at the instant. */
  readonly local: string | null;
  /** The instant in UTC, ISO 8601 ending in `Z`. */
  readonly utc: string | null;
}

/**
 * The project's guard as the files declare it (its own `guard:`, else the defaults'): the
 * thresholds `campaignctl watch` pauses the send at. Invariants: rates are fractions in [0, 1], null
 * when the file does not set that rate; `min_sample` (messages sent before a rate is judged) is an
 * integer >= 1, the default filled in. For display: the plan never acts on it.
 */
export interface PlanGuard {
  /** Failed over sent. */
  readonly max_failure_rate: number | null;
  /** Opted out over delivered. */
  readonly max_opt_out_rate: number | null;
  readonly min_sample: number;
}

/**
 * Everything the plan says about one project. Invariant: when `live` is null the project could not
 * be read (see `diagnostics`), `actions` is empty and `audience` is null.
 */
export interface ProjectPlan {
  readonly address: string;
  readonly file: string;
  readonly project_id: string;
  readonly name: string | null;
  readonly desired: DesiredState;
  readonly live: LiveBasis | null;
  readonly drift: readonly Drift[];
  readonly actions: readonly Action[];
  readonly estimate: SendEstimate | null;
  /** Who the send reaches, by name; null when the project could not be read. */
  readonly audience: PlanAudience | null;
  /** When it sends; null when neither the file nor the live project has a schedule. */
  readonly schedule: PlanSchedule | null;
  /**
   * Whether the project sends to its lists once the plan is applied, so counts in `totals`: the
   * file asks for it scheduled and it has not completed, or it is scheduled or active live and the
   * file does not pause it. A test goes to test contacts only and does not count.
   */
  readonly sends: boolean;
  /** The guard `watch` judges while the project sends; null when the files declare none. */
  readonly guard: PlanGuard | null;
  /** Problems of this project: failed preconditions, unresolved references, drift, notes. */
  readonly diagnostics: readonly Diagnostic[];
  /** E.g. "survey questions are not compared". */
  readonly notes: readonly string[];
}

/** Requests the plan made, by endpoint (route template such as `GET /projects/{id}`). */
export interface RequestCount {
  readonly total: number;
  readonly by_endpoint: Readonly<Record<string, number>>;
  /** What the naive refresh (one GET per project and per reference) would have made. */
  readonly naive: number;
}

/** The counts of some projects alone (an organization's section of a plan): actions and findings. */
export type ProjectsSummary = Pick<
  PlanSummary,
  "projects" | "planned" | "deferred" | "blocked" | "drifted" | "errors" | "warnings"
>;

/**
 * The counts of a plan: of every item and every finding it holds (summary.ts). Invariants:
 * `planned`, `deferred` and `blocked` count the projects' actions by status; the item counts count
 * the items of `email` and `replies` by verdict; `errors` and `warnings` count every diagnostic of
 * the plan (its own, each project's, and the email part's), so that what a view prints and what the
 * summary line and the exit code say can never disagree.
 */
export interface PlanSummary {
  readonly projects: number;
  readonly planned: number;
  readonly deferred: number;
  readonly blocked: number;
  readonly drifted: number;
  readonly email_lists: ItemCounts;
  readonly email_campaigns: ItemCounts;
  readonly reply_rule_sets: ItemCounts;
  readonly errors: number;
  readonly warnings: number;
}

/**
 * What some sends add up to. Invariants: `projects` counts the sending projects (`sends`), of which
 * `not_estimated` have no estimate (they could not be read) and add nothing to the sums;
 * `sms_segments` sums recipients x segments over SMS estimates, `mms_messages` the recipients of
 * MMS estimates (one message each); `recipients` and `estimated_cost_cents` sum every estimate.
 */
export interface SendTotals {
  readonly projects: number;
  readonly not_estimated: number;
  readonly recipients: number;
  readonly sms_segments: number;
  readonly mms_messages: number;
  readonly estimated_cost_cents: number;
}

/** The totals of one organization; `organization` is null for sending projects that could not be read. */
export interface OrganizationTotals extends SendTotals {
  readonly organization: NamedRecord | null;
}

/**
 * The totals of the plan's sends, overall and per organization. Invariant: `by_organization` has
 * one entry per organization of a read project (in the order the projects first name it, zeros
 * when none of its projects sends), then one with a null organization when an unread project
 * sends; its entries add up to `overall`.
 */
export interface PlanTotals {
  readonly overall: SendTotals;
  readonly by_organization: readonly OrganizationTotals[];
}

/**
 * The policy a plan was judged by. Invariant: `files` are the policy files that make it up,
 * farthest first (`--policy` last), as the user would spell them; `rules` are the rules in force
 * after combining them; `loosened` lists every rule made looser than a farther file set it (a
 * nearer file's `loosens:` or `--loosen-policy`), never hidden.
 */
export interface PlanPolicy {
  readonly files: readonly string[];
  readonly rules: PolicyRules;
  readonly loosened: readonly Loosening[];
}

/** What a plan input is: a campaign file, a policy file, or an email list's CSV. */
export type PlanFileKind = "campaign" | "policy" | "csv";

/** One input of a plan. Invariant: `sha256` is the lower-case hex digest of the bytes read. */
export interface PlanFile {
  readonly path: string;
  readonly sha256: string;
  readonly kind: PlanFileKind;
}

/** The plan document. Invariant: `projects` is in the campaign's order; ids of actions are unique. */
export interface Plan {
  readonly format_version: typeof PLAN_FORMAT_VERSION;
  readonly tool_version: string;
  /** When the live state was read (the clock passed in). */
  readonly created_at: string;
  /**
   * The API base URL the plan was computed against (never a key); for the embedded sandbox, whose
   * port varies, its stable identity (`embedded-sandbox:default`, or `embedded-sandbox:<name>-<hash>`
   * per `--fixture` file).
   */
  readonly base_url: string;
  /**
   * The organization of the key the plan was made with (its root organization); `apply PLANFILE`
   * refuses, before any other request, a key that cannot see it. Absent only in hand-built plans.
   */
  readonly organization_id?: string;
  /**
   * The git commit the plan was made from, when the run knows it (in GitHub Actions: the pull
   * request's head commit, which its reviews approve; cli/adapters/github-event.ts): what binds a
   * pull request's approving reviews to this plan under the policy's `require_approvals`. Lower-case
   * hex. Absent elsewhere; never compared by apply.
   */
  readonly commit?: string;
  /**
   * Every file the plan was made from, with the sha256 of its bytes, so a saved plan notices any
   * input edited since (one check, src/apply/stale.ts): the campaign files, then the policy files
   * in force, then the CSV of each email list read. Invariant: paths unique; campaign files first.
   */
  readonly files: readonly PlanFile[];
  /** `--target`/`--exclude` as given. */
  readonly targets: readonly string[];
  readonly excludes: readonly string[];
  /** The policy in force (null when none): what a compliance reviewer needs to see was applied. */
  readonly policy: PlanPolicy | null;
  readonly projects: readonly ProjectPlan[];
  /**
   * With `plan --forecast` (or a policy's `forecast_errors`): when each scheduled project sends,
   * under the capacity in force, with the brand's other live sends (`schemas/forecast.schema.json`,
   * src/forecast/json.ts); absent otherwise. Made by the judge (judge.ts); a saved plan's is
   * checked against the schema when read. For review only: apply never compares or acts on it.
   */
  readonly forecast?: ForecastJson;
  /** The policy's budgets as judged, one entry each; absent without budgets. */
  readonly budgets?: readonly BudgetFigures[];
  /**
   * The plan per organization (issue 26), present when its projects belong to two or more
   * organizations: each organization's projects, counts and state (src/plan/organizations.ts).
   * Derived from `projects`; never compared or acted on by apply.
   */
  readonly organizations?: readonly OrganizationPlan[];
  /**
   * The email lists and email campaigns the run covers, judged (src/plan/email-items.ts); absent
   * when it covers none. Its lists with verdict `planned` are what apply syncs.
   */
  readonly email?: PlanEmail;
  /** The reply rule sets of the covered projects (src/plan/reply-items.ts); absent when none has rules. */
  readonly replies?: readonly ReplyRuleSetItem[];
  /** Problems not tied to one project (API unreachable, ambiguous organization). */
  readonly diagnostics: readonly Diagnostic[];
  readonly requests: RequestCount;
  readonly summary: PlanSummary;
  /** What the sends add up to: recipients, messages and estimated cost. */
  readonly totals: PlanTotals;
}

/**
 * What one organization's part of the plan comes to, worst first: `failed` a project of it could
 * not be read (its key refused, the project unreadable); `blocked` a project of it is drifted,
 * blocked or has an error (the others' go ahead all the same); `ready` it has actions to send;
 * `no-changes` nothing to do (deferred actions wait for approval).
 */
export type OrganizationPlanState = "failed" | "blocked" | "ready" | "no-changes";

/**
 * One organization's section. Invariants: `projects` are addresses in the plan's order, each in
 * exactly one section; `summary` counts those projects' actions and diagnostics only.
 */
export interface OrganizationPlan {
  /**
   * Null when the organization of the projects could not be told (unread, no `organization:`); the
   * file's `organization` as both id and name when no key could list it.
   */
  readonly organization: NamedRecord | null;
  readonly state: OrganizationPlanState;
  readonly projects: readonly string[];
  readonly summary: ProjectsSummary;
}

/**
 * The figures of one of the policy's budgets as the plan judged them (src/plan/budget-hold.ts),
 * in cents. Carried by a saved plan for review; apply judges the budgets again from fresh reads.
 */
export interface BudgetFigures {
  readonly budget: string;
  readonly period_start: string;
  readonly cap_cents: number;
  /** Null when the period's spending could not be read. */
  readonly spent_cents: number | null;
  readonly scheduled_cents: number;
  readonly planned_cents: number;
  readonly held: readonly string[];
}
