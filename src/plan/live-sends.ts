/**
 * What the brand already sends live, as the judge is handed it (design.md principle 11, Turn 4: a
 * forecasting run counts every live scheduled or sending project of the brand, in the files or
 * not). Gathered by the caller from the statistics rows (one listing) and, for the projects no file
 * describes, their project reads; the judge does no IO.
 */
import type { Project } from "../contract/resources.js";

/**
 * One live project scheduled or sending (`scheduled`, `active`) that no campaign file of this run
 * describes: an earlier run's schedule, or one made in the dashboard. Invariant: `project.status`
 * is `scheduled` or `active`; `sent` is its statistics row's `messages_sent` (0 when scheduled).
 */
export interface LiveSend {
  readonly project: Project;
  readonly sent: number;
  /** The brand's name (its statistics row's `brand_name`), so that a capacity declared by name finds it. */
  readonly brandName: string;
  /** The organization's name (its row's `organization_name`), for the costs. */
  readonly organizationName: string;
}

/**
 * Invariants: `sent` holds `messages_sent` of live projects sending (status `active`), by project
 * id (a sending project missing from it is taken to have sent none); `others` holds no project a
 * campaign file of the run describes.
 */
export interface LiveSends {
  readonly sent: ReadonlyMap<string, number>;
  readonly others: readonly LiveSend[];
  /**
   * False when a read failed (the statistics listing, or a project read of a live send), so that
   * some live send may be missing: the forecast is then a lower bound, and under the policy's
   * `forecast_errors` the judge holds every send the forecast covers (a net that cannot see does
   * not pass).
   */
  readonly complete: boolean;
}

/** Nothing known to be sending: what a run that does not forecast, or a test, hands the judge. */
export const NO_LIVE_SENDS: LiveSends = { sent: new Map(), others: [], complete: true };
