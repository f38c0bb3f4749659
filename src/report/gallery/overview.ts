/**
 * The gallery's overview, what it opens with: what sends when, to how many, for how much, and the
 * guard that pauses it. One row per project of the gallery, in send order, and the totals of the sends. With a plan, every figure
 * is the plan's (lists by name, recipients, messages, estimated cost, status); without one, the
 * rows say what the files say (the schedule, the lists as written) and that the rest is not known
 * until planned. Pure.
 */
import { DateTime } from "luxon";
import type { ProjectSpec } from "../../campaign/model.js";
import { guardOf } from "../../plan/guard.js";
import { totalSends } from "../../plan/totals.js";
import type { ActionStatus, PlanGuard, PlanTotals, ProjectPlan } from "../../plan/types.js";
import { formatCount } from "../plan-describe.js";
import { byRank, describeSend, recordName, recordWithId, sendRank } from "../send-describe.js";
import { type ZonedTime, zonedTime } from "./schedule.js";
import { actionStatusWords, actionWords, statusWords } from "./words.js";

/** When a row sends: a time, `at: now` (when apply schedules it), or a phrase (`no: paused`). */
export type OverviewWhen =
  | { readonly kind: "time"; readonly time: ZonedTime }
  | { readonly kind: "now"; readonly timezone: string | null }
  | { readonly kind: "text"; readonly text: string };

/** The status colour of a row: the most pressing of its actions; `none` for nothing to do or not planned. */
export type OverviewStatusKind = ActionStatus | "none";

/**
 * One project in the overview. Invariants: `project` is the gallery project's HTML id; the lists
 * are the plan's names when `listsFrom` is `plan`, else as the files write them (names or ids),
 * null when neither has any; figures are null when not known (no plan, or the project unread).
 */
export interface OverviewRow {
  readonly project: string;
  readonly title: string;
  readonly address: string;
  readonly when: OverviewWhen;
  /** Whether it sends to its lists once the plan is applied; null without a plan. */
  readonly sends: boolean | null;
  readonly organization: string | null;
  readonly listsFrom: "plan" | "file";
  readonly contactLists: readonly string[] | null;
  readonly suppressionLists: readonly string[] | null;
  readonly recipients: number | null;
  /** `24,690 SMS segments` or `25 MMS messages`. */
  readonly messages: string | null;
  readonly costCents: number | null;
  /** The guard the files declare (`watch` pauses the send at it); null when none. */
  readonly guard: PlanGuard | null;
  readonly status: { readonly kind: OverviewStatusKind; readonly text: string };
  /**
   * What the plan's forecast says goes out, when the plan carries one that covers the project:
   * `sent + left === recipients`; `costCents` is the cost of the `sent` messages. Null otherwise.
   */
  readonly forecast: OverviewForecast | null;
}

/** A project's forecast, as the overview shows it. Invariant: `sent + left` is its recipients. */
export interface OverviewForecast {
  readonly sent: number;
  /** Recipients left when the brand's daily cap pauses it; 0 when it finishes. */
  readonly left: number;
  readonly costCents: number | null;
}

/** Invariant: `totals` are those of the rows' planned projects; null when nothing was planned. */
export interface GalleryOverview {
  readonly rows: readonly OverviewRow[];
  readonly totals: PlanTotals | null;
  /** The forecast's sums over the rows that have one; null when no row has one. */
  readonly forecastTotals: OverviewForecast | null;
}

/** A project of the gallery as the overview needs it. */
export interface OverviewInput {
  readonly id: string;
  readonly spec: ProjectSpec;
  /** Its plan; null when there is none or it does not cover the project. */
  readonly plan: ProjectPlan | null;
  /** The status when there is no plan of the project (`not planned`, `not in the plan`). */
  readonly notPlanned: string;
  /** Its forecast when the plan carries one that covers the project and it sends; else null. */
  readonly forecast: OverviewForecast | null;
}

export function buildOverview(projects: readonly OverviewInput[], planned: boolean): GalleryOverview {
  const withPlan = projects.flatMap((p) => (p.plan === null ? [] : [p.plan]));
  const rows = byRank(projects, rankOf).map(rowOf);
  const forecasts = rows.flatMap((r) => (r.forecast === null || r.sends === false ? [] : [r.forecast]));
  return {
    rows,
    totals: planned ? totalSends(withPlan) : null,
    forecastTotals:
      forecasts.length === 0
        ? null
        : {
            sent: forecasts.reduce((n, f) => n + f.sent, 0),
            left: forecasts.reduce((n, f) => n + f.left, 0),
            costCents: forecasts.some((f) => f.costCents === null)
              ? null
              : forecasts.reduce((n, f) => n + (f.costCents ?? 0), 0),
          },
  };
}

/**
 * Send order: the plan's (see `sendRank`); a project the plan does not cover by the file's
 * schedule, as though it sends when the file asks for it scheduled.
 */
function rankOf(p: OverviewInput): readonly [number, number] {
  if (p.plan !== null) return sendRank(p.plan);
  if (p.spec.state !== "scheduled") return [3, 0];
  const s = p.spec.schedule;
  if (s === undefined) return [2, 0];
  if (s.at === "now") return [0, 0];
  const at = DateTime.fromISO(s.at, { setZone: true });
  return at.isValid ? [1, at.toMillis()] : [2, 0];
}

function whenOf(input: OverviewInput): OverviewWhen {
  const plan = input.plan;
  if (plan !== null) {
    if (!plan.sends) return { kind: "text", text: describeSend(plan) };
    const s = plan.schedule;
    if (s === null) return { kind: "text", text: "not scheduled" };
    if (s.utc === null)
      return s.at === "now" ? { kind: "now", timezone: s.timezone } : { kind: "text", text: s.at };
    const time = zonedTime(s.timezone === null ? s.at : s.utc, s.timezone);
    return time === undefined ? { kind: "text", text: s.at } : { kind: "time", time };
  }
  const spec = input.spec;
  if (spec.state !== "scheduled") return { kind: "text", text: `not scheduled in the file (${spec.state})` };
  const s = spec.schedule;
  if (s === undefined) return { kind: "text", text: "no schedule in the file" };
  if (s.at === "now") return { kind: "now", timezone: s.timezone };
  const time = zonedTime(s.at, s.timezone);
  return time === undefined ? { kind: "text", text: s.at } : { kind: "time", time };
}

function statusOf(input: OverviewInput): OverviewRow["status"] {
  const plan = input.plan;
  if (plan === null) return { kind: "none", text: input.notPlanned };
  if (plan.live === null) return { kind: "blocked", text: "could not be read" };
  if (plan.actions.length === 0)
    return { kind: "none", text: `nothing to do (live ${statusWords(plan.live.status)})` };
  const kinds = new Set(plan.actions.map((a) => a.status));
  const kind: ActionStatus = kinds.has("blocked")
    ? "blocked"
    : kinds.has("deferred")
      ? "deferred"
      : "planned";
  return {
    kind,
    text: plan.actions.map((a) => `${actionWords(a.kind)}: ${actionStatusWords(a.status)}`).join("; "),
  };
}

/** A list by its name; one whose name the key cannot see by its id, saying so (never a bare id). */
function listName(record: Parameters<typeof recordName>[0]): string {
  return record.name === null ? recordWithId(record) : recordName(record);
}

function rowOf(input: OverviewInput): OverviewRow {
  const { spec, plan } = input;
  const audience = plan?.audience ?? null;
  const estimate = plan?.estimate ?? null;
  const fromFile = (refs: readonly string[] | undefined): readonly string[] | null => refs ?? null;
  return {
    project: input.id,
    title: spec.name ?? plan?.name ?? spec.address,
    address: spec.address,
    when: whenOf(input),
    sends: plan?.sends ?? null,
    organization: audience === null ? (spec.organization ?? null) : recordName(audience.organization),
    listsFrom: audience === null ? "file" : "plan",
    contactLists: audience === null ? fromFile(spec.contactLists) : audience.contact_lists.map(listName),
    suppressionLists:
      audience === null ? fromFile(spec.suppressionLists) : audience.suppression_lists.map(listName),
    recipients: estimate?.recipients ?? null,
    messages:
      estimate === null
        ? null
        : estimate.segments === null
          ? `${formatCount(estimate.recipients)} MMS ${estimate.recipients === 1 ? "message" : "messages"}`
          : `${formatCount(estimate.recipients * estimate.segments)} SMS ${estimate.recipients * estimate.segments === 1 ? "segment" : "segments"}`,
    costCents: estimate?.estimated_cost_cents ?? null,
    guard: guardOf(spec.guard),
    status: statusOf(input),
    forecast: plan?.sends === true ? input.forecast : null,
  };
}
