/**
 * A plan is data (after Terraform's internal/plans): for each project, what the files want, what the
 * live API has, what differs, and the actions `apply` would take. Rendering lives in `src/report`;
 * nothing here does IO. The JSON form is versioned by `PLAN_FORMAT_VERSION` and described by
 * `schemas/plan.schema.json`. Field names are the JSON names (snake_case): the in-memory plan and
 * the saved document are the same data.
 *
 * The document and its inputs are here; the parts of it live in ./types/ by kind (a project's plan,
 * the summary's counts, the totals, the organizations' sections, the budgets) and are re-exported
 * from here, so every importer takes a plan's types from this one module.
 */

import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ForecastJson } from "../forecast/json.js";
import type { Loosening, PolicyRules } from "../policy/model.js";
import type { PlanEmail, ReplyRuleSetItem } from "./items.js";
import type { BudgetFigures } from "./types/budget.js";
import type { OrganizationPlan } from "./types/organization.js";
import type { ProjectPlan } from "./types/project.js";
import type { PlanSummary, RequestCount } from "./types/summary.js";
import type { PlanTotals } from "./types/totals.js";

export type { BudgetFigures } from "./types/budget.js";
export type { OrganizationPlan, OrganizationPlanState } from "./types/organization.js";
export type {
  Action,
  ActionKind,
  ActionStatus,
  Block,
  Drift,
  DriftField,
  LiveBasis,
  NamedRecord,
  PlanAudience,
  PlanGuard,
  PlannedRequest,
  PlanPlaces,
  PlanSchedule,
  ProjectPlan,
  SendEstimate,
} from "./types/project.js";
export type { PlanSummary, ProjectsSummary, RequestCount } from "./types/summary.js";
export type { OrganizationTotals, PlanTotals, SendTotals } from "./types/totals.js";

/**
 * Bump on any incompatible change of the plan document; `apply` refuses other versions. 3: every
 * item in one plan (issue 33): `email` and `replies` are the judge's, the summary counts them, and
 * `files` lists every input by kind (campaign, policy and CSV files alike).
 */
export const PLAN_FORMAT_VERSION = 3;

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
