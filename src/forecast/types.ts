/**
 * The forecast's input and output (docs/forecast.md). Times are epoch milliseconds; message counts
 * of the output are whole messages (the timeline itself is continuous: a project sends at a steady
 * rate from its start until it finishes or pauses at its brand's daily cap).
 */

import type { ChannelSpec } from "../campaign/model.js";
import type { ScheduleTimezone } from "../contract/limits.js";
import type { ForecastCode } from "../diagnostics/codes/forecast.js";
import type { Diagnostic, SourceRange } from "../diagnostics/diagnostic.js";
import type { Breach, JurisdictionRule, StartsThatFit, StateCode } from "../jurisdictions/index.js";
import type { SendWindow } from "../text/send-window.js";

/**
 * One project that is or will be scheduled. Invariants: `recipients` and `sent` are whole numbers,
 * `sent <= recipients`, `sentToday <= sent`; `segmentsPerMessage >= 1` (an MMS counts 1).
 */
export interface ForecastProject {
  readonly address: string;
  /** The organization the project's cost counts under (name or id; "" when unknown). */
  readonly organization: string;
  /** The brand whose daily cap the project counts against (resolved id, or as written); undefined: no cap. */
  readonly brand: string | undefined;
  /** Other names of the brand that `capacity.brands` may list it under (its name, its id). */
  readonly brandNames?: readonly string[];
  /** The channel whose throughput it sends at; undefined: 10dlc. */
  readonly channel: ChannelSpec | undefined;
  readonly recipients: number;
  readonly segmentsPerMessage: number;
  /** `scheduled_at` (for `at: now`, the clock). */
  readonly startMs: number;
  /** The schedule's zone: local hours are read in it, and quiet hours too unless `recipientZones` says more. */
  readonly timezone: ScheduleTimezone;
  /**
   * Every zone its recipients live in (its lists' declared places, src/jurisdictions/places.ts):
   * the send window is judged in each. Default: the schedule's zone alone.
   */
  readonly recipientZones?: readonly string[];
  /** The states its recipients live in (declared places): each one's rules in force judge the send. */
  readonly recipientStates?: readonly StateCode[];
  readonly dailyCapBypass: boolean;
  readonly deadlineMs?: number;
  /** The API's `estimated_cost_cents` of the whole project; undefined when unknown. */
  readonly estimatedCostCents?: number;
  /** A live project already sending: messages sent so far (it goes on from the clock). */
  readonly sent?: number;
  /** Of `sent`, how many went out in the clock's Pacific day (they count against today's cap). */
  readonly sentToday?: number;
  /**
   * A live send that no campaign file of the run describes (an earlier run's schedule): it takes
   * its share of its brand's days, and draws no finding of its own and adds nothing to the costs
   * (it is not this run's to judge or to pay for).
   */
  readonly external?: boolean;
  /** Where to point diagnostics. */
  readonly ranges?: {
    readonly key?: SourceRange;
    readonly at?: SourceRange;
    readonly deadline?: SourceRange;
  };
}

/**
 * Declared capacity with the defaults filled in. Invariants: caps are whole numbers of at least 1 or
 * null (no cap); throughputs are above 0, in message segments per minute of one project.
 */
export interface Capacity {
  /** Daily cap by brand (any of its names or ids), in messages per Pacific day. */
  readonly brands: Readonly<Record<string, number | null>>;
  /** The cap of a brand that `brands` does not list. */
  readonly defaultDailyCap: number | null;
  readonly throughput: Readonly<Record<ChannelSpec, number>>;
}

export interface ForecastInput {
  readonly projects: readonly ForecastProject[];
  readonly capacity: Capacity;
  /** The plan's clock (the API's). */
  readonly nowMs: number;
  /**
   * The policy's `send_window`. Quiet hours are outside the one send window
   * (src/jurisdictions/send-rules.ts): the federal hours (08:00-21:00, half-open), this window, and
   * `stateRules` of the states each project's recipients live in, judged in each of their zones.
   */
  readonly sendWindow?: SendWindow;
  /** The state rules the policy's `jurisdictions` puts in force; none by default. */
  readonly stateRules?: readonly JurisdictionRule[];
  /** The policy forbids `daily_cap_bypass`: a finding's fix does not offer it. */
  readonly bypassForbidden?: boolean;
}

/** Where a project stops when its brand's cap stops it. */
export interface CapPause {
  readonly atMs: number;
  /** The Pacific day (`YYYY-MM-DD`) whose cap it reached. */
  readonly pacificDay: string;
  /** The next Pacific midnight: the earliest a restart (a dashboard step) sends again. */
  readonly restartFromMs: number;
  readonly recipientsLeft: number;
}

/**
 * One project's projected course. Invariants: exactly one of `finishMs` and `pause` is set;
 * `sent + (pause?.recipientsLeft ?? 0) === recipients`; `overCap <= sent`.
 */
export interface ProjectForecast {
  readonly address: string;
  readonly organization: string;
  readonly brand: string | undefined;
  readonly dailyCap: number | null;
  readonly bypass: boolean;
  readonly timezone: ScheduleTimezone;
  readonly recipients: number;
  /** Messages per minute it sends at. */
  readonly messagesPerMinute: number;
  /** When it starts (or, live, goes on) sending. */
  readonly startMs: number;
  readonly finishMs: number | null;
  readonly pause: CapPause | null;
  /** Messages projected out before it finishes or pauses (live ones: counting those already sent). */
  readonly sent: number;
  /** With bypass: messages projected past the brand's cap. */
  readonly overCap: number;
  /** Local start and end of its sending in its zone (`yyyy-MM-dd HH:mm`, and the zone's abbreviation). */
  readonly localStart: string;
  readonly localEnd: string;
  /** Every zone the send window was judged in (its recipients' zones). */
  readonly zones: readonly string[];
  /**
   * When it sends outside the one send window: the first such instant, the messages sent then,
   * every stretch of its sending outside the window, in order (what a timeline draws; one instant,
   * from and to equal, for a send of no length), every window it leaves in every zone (the first
   * instant of each, in time order), and the starts of its day that would keep it inside (null:
   * none). Null when it sends inside the window only.
   */
  readonly quietHours: {
    readonly fromMs: number;
    readonly messages: number;
    readonly spans: readonly { readonly fromMs: number; readonly toMs: number }[];
    readonly breaches: readonly Breach[];
    readonly fits: StartsThatFit | null;
  } | null;
  readonly deadlineMs: number | null;
  /** Whether it finishes by its deadline; null without a deadline. */
  readonly meetsDeadline: boolean | null;
  readonly estimatedCostCents: number | null;
  /** The estimate pro rata of the messages projected out (all of it when it finishes). */
  readonly projectedCostCents: number | null;
}

/** One brand's Pacific day: each project's share of the cap, in the order they first sent that day. */
export interface BrandDay {
  readonly brand: string;
  /** `YYYY-MM-DD` in America/Los_Angeles. */
  readonly pacificDay: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly dailyCap: number | null;
  /** Messages of the day, the live ones already sent today included. */
  readonly total: number;
  readonly shares: readonly {
    readonly address: string;
    readonly messages: number;
    readonly overCap: number;
  }[];
}

export interface CostLine {
  readonly organization: string;
  readonly estimatedCostCents: number | null;
  readonly projectedCostCents: number | null;
}

/**
 * One finding about one project: a warning whose code is one of the four a policy may make errors
 * (`forecast_errors`). Invariant: `address` is the project the diagnostic's message names first.
 */
export interface ForecastFinding {
  readonly address: string;
  readonly diagnostic: Diagnostic & { readonly code: ForecastFindingCode };
}

/**
 * The codes of findings about a project's course (not the files' checks). `forecast.capacity-unknown`
 * is raised only under the policy's `forecast_errors`, and always as an error.
 */
export type ForecastFindingCode = Extract<
  ForecastCode,
  | "forecast.cap-pause"
  | "forecast.past-deadline"
  | "forecast.quiet-hours"
  | "forecast.over-cap"
  | "forecast.capacity-unknown"
>;

/** The whole forecast. Invariant: `projects` are in input order; `brandDays` by brand, then day. */
export interface Forecast {
  readonly nowMs: number;
  readonly capacity: Capacity;
  /** The policy's send window, else the federal hours (quiet hours are judged by the one window: see ForecastInput). */
  readonly sendWindow: SendWindow;
  readonly projects: readonly ProjectForecast[];
  readonly brandDays: readonly BrandDay[];
  readonly costs: {
    readonly organizations: readonly CostLine[];
    readonly total: Omit<CostLine, "organization">;
  };
  /** Each project's findings (warnings), in project order. */
  readonly findings: readonly ForecastFinding[];
  /** The findings' diagnostics and the capacity's (conflicts), all warnings. */
  readonly diagnostics: readonly Diagnostic[];
}
