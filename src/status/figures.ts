/**
 * One project's figures: its counters from the statistics row (or, for a project no row lists,
 * what its detail says and nothing more), the estimate from its detail, and the rates a reviewer
 * thinks in. Pure.
 *
 * Rates (each null when its denominator is 0 or unknown):
 * - delivery rate = delivered / sent
 * - failure rate = failed / sent
 * - opt-out rate = opted out / delivered (only a delivered message can be answered with STOP)
 * - cost per delivered message = actual cost / delivered
 *
 * Sends are the project's messages to its recipients. A statistics row may count more (the sandbox
 * counts the answers sent in the project's conversations in `messages_sent`, and the contract does
 * not say whether the API does): a project that has not started sending ({@link NOT_STARTED}) has
 * sent, delivered and failed nothing of its own, whatever its row counts. Once it has started, the
 * row's counts are the only ones there are.
 */
import type { Project, ProjectStatsRow } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { LiveRead } from "../plan/live.js";
import { type Fraction, fraction } from "../text/fraction.js";
import { E4_PER_CENT, parseCostE4 } from "./money.js";

/**
 * Where a project's figures come from: `statistics` a stats row (every counter known);
 * `detail` no row listed it, so it was read by id (status, recipients and estimate known, every
 * counter null); `unreadable` neither (everything but the id unknown).
 */
export type FigureSource = "statistics" | "detail" | "unreadable";

/**
 * The live statuses of a project that has not started sending to its recipients (the contract's
 * lifecycle: draft, then a test, then ready, then scheduled until audience compilation finishes and
 * sending starts). Messages a row counts for such a project are not its sends: answers to inbound
 * texts in its conversations.
 */
export const NOT_STARTED: readonly string[] = ["draft", "awaiting_test", "ready", "scheduled"];

/** The counters a statistics row carries. `null` = unknown (never 0 standing in for unknown). */
export interface Counters {
  readonly sent: number | null;
  readonly delivered: number | null;
  readonly failed: number | null;
  readonly optedOut: number | null;
  readonly replies: number | null;
  /** `total_url_clicks`. */
  readonly clicks: number | null;
  /** `unique_url_clicks`. */
  readonly uniqueClicks: number | null;
  /** `actual_cost` in ten-thousandths of a dollar. */
  readonly actualCostE4: number | null;
}

/** The rates of one project or one total, from its own counts. */
export interface Rates {
  readonly delivery: Fraction | null;
  readonly failure: Fraction | null;
  readonly optOut: Fraction | null;
  /** Numerator in e4 (ten-thousandths of a dollar), denominator delivered messages. */
  readonly costPerDeliveredE4: Fraction | null;
}

/**
 * A project's figures. Invariants: with `source: "statistics"` every counter is a number; with
 * `detail` or `unreadable` every counter is null; `estimatedCostE4` is a whole number of cents
 * times 100, or null when the detail was not read (or could not be).
 */
export interface ProjectFigures extends Counters {
  readonly id: string;
  /** The project's address in the campaign files; null for a project selected by `--all`/`--organization` only. */
  readonly address: string | null;
  readonly name: string | null;
  readonly organizationId: string | null;
  readonly organizationName: string | null;
  /** The live status; null when unreadable. */
  readonly status: string | null;
  readonly source: FigureSource;
  readonly recipients: number | null;
  readonly estimatedCostE4: number | null;
  readonly rates: Rates;
}

/** What was read about one project. */
export interface ProjectReads {
  readonly id: string;
  readonly address: string | null;
  /** Its statistics row, when a window listed it. */
  readonly row: ProjectStatsRow | undefined;
  /** Its detail, when it was read by id (or from the cache); undefined when not read. */
  readonly detail: LiveRead<Project> | undefined;
  /** Organization names by id (`GET /organizations`), for a project known only by its detail. */
  readonly organizationNames: ReadonlyMap<string, string>;
}

/** The rates of a set of counts (a project's or a total's). */
export function ratesOf(c: Counters): Rates {
  return {
    delivery: fraction(c.delivered, c.sent),
    failure: fraction(c.failed, c.sent),
    optOut: fraction(c.optedOut, c.delivered),
    costPerDeliveredE4: fraction(c.actualCostE4, c.delivered),
  };
}

const UNKNOWN_COUNTERS: Counters = {
  sent: null,
  delivered: null,
  failed: null,
  optedOut: null,
  replies: null,
  clicks: null,
  uniqueClicks: null,
  actualCostE4: null,
};

/** A project's figures, and a warning when its row's cost could not be read. */
export function projectFigures(reads: ProjectReads): {
  readonly figures: ProjectFigures;
  readonly diagnostics: readonly Diagnostic[];
} {
  const { row, id, address } = reads;
  const detail = reads.detail?.kind === "found" ? reads.detail.value : undefined;
  const estimatedCostE4 = detail === undefined ? null : detail.estimated_cost_cents * E4_PER_CENT;
  if (row !== undefined) {
    const cost = parseCostE4(row.actual_cost);
    const started = !NOT_STARTED.includes(row.status);
    const counters: Counters = {
      sent: started ? row.messages_sent : 0,
      delivered: started ? row.messages_delivered : 0,
      failed: started ? row.messages_failed : 0,
      optedOut: row.messages_opted_out,
      replies: row.replies_received,
      clicks: row.total_url_clicks,
      uniqueClicks: row.unique_url_clicks,
      actualCostE4: cost ?? null,
    };
    const diagnostics: Diagnostic[] =
      cost === undefined
        ? [
            {
              severity: "warning",
              code: "status.cost-unreadable",
              message: `project ${id}: actual_cost ${JSON.stringify(row.actual_cost)} is not a decimal with at most 4 decimals; its cost counts as unknown`,
              hint: "report it to the API's vendor; the other figures are shown",
            },
          ]
        : [];
    return {
      figures: {
        id,
        address,
        name: row.name,
        organizationId: row.organization_id,
        organizationName: row.organization_name || (reads.organizationNames.get(row.organization_id) ?? null),
        status: row.status,
        source: "statistics",
        recipients: row.total_recipients,
        estimatedCostE4,
        ...counters,
        rates: ratesOf(counters),
      },
      diagnostics,
    };
  }
  const rates = ratesOf(UNKNOWN_COUNTERS);
  if (detail !== undefined)
    return {
      figures: {
        id,
        address,
        name: detail.name,
        organizationId: detail.organization_id,
        organizationName: reads.organizationNames.get(detail.organization_id) ?? null,
        status: detail.status,
        source: "detail",
        recipients: detail.total_recipients,
        estimatedCostE4,
        ...UNKNOWN_COUNTERS,
        rates,
      },
      diagnostics: [],
    };
  return {
    figures: {
      id,
      address,
      name: null,
      organizationId: null,
      organizationName: null,
      status: null,
      source: "unreadable",
      recipients: null,
      estimatedCostE4: null,
      ...UNKNOWN_COUNTERS,
      rates,
    },
    diagnostics: [],
  };
}
