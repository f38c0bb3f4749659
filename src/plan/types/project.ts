/**
 * The project part of a plan (see ../types.ts): what the plan says about one project (its actions,
 * drift, live basis, estimate, audience, schedule and guard), and the named records it shows.
 * Types only; re-exported by ../types.ts, where every importer takes them from.
 */

import type { DesiredState } from "../../campaign/model.js";
import type { ProjectStatus } from "../../contract/limits.js";
import type { DiagnosticCode } from "../../diagnostics/codes.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";

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
