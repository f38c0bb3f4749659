/**
 * A status report: every selected project's figures, grouped by organization with totals, and the
 * overall totals, from what `read-live.ts` read. Pure: the views in `src/report/status-*.ts` render
 * it as a terminal table, JSON, CSV and Markdown.
 */

import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ExperimentResult } from "../experiments/report.js";
import { type ProjectFigures, projectFigures } from "./figures.js";
import type { StatusRange } from "./range.js";
import type { ReadCounts, StatusLive } from "./read-live.js";
import { byOrganization, type OrganizationTotals, type Totals, totalsOf } from "./totals.js";

/** What was asked for, as the report states it. */
export interface SelectionShown {
  /** The campaign files' paths as given (empty when only `--all`/`--organization` selected). */
  readonly paths: readonly string[];
  readonly all: boolean;
  readonly organization: string | null;
}

/**
 * Invariants: `projects` are in selection order (files first, then listed projects oldest first);
 * every project is in exactly one of `organizations`; `totals` are the totals of `projects`, and
 * equal the sums of the organizations' totals; `asOf` is the API's time of the read (ISO).
 */
export interface StatusReport {
  readonly asOf: string;
  readonly range: StatusRange;
  readonly selection: SelectionShown;
  /** Whether estimates were read (`--no-estimate` turns them off). */
  readonly estimates: boolean;
  readonly projects: readonly ProjectFigures[];
  readonly organizations: readonly OrganizationTotals[];
  readonly totals: Totals;
  readonly reads: ReadCounts;
  readonly diagnostics: readonly Diagnostic[];
  /** The campaign files' experiments with their verdicts (status/experiments.ts); absent: none. */
  readonly experiments?: readonly ExperimentResult[];
}

export function buildStatusReport(
  live: Extract<StatusLive, { ok: true }>,
  selection: SelectionShown,
  estimates: boolean,
): StatusReport {
  const names = new Map(live.organizations.map((o) => [o.id, o.display_name]));
  const diagnostics: Diagnostic[] = [...live.diagnostics];
  const projects = live.selected.map(({ id, address }) => {
    const made = projectFigures({
      id,
      address,
      row: live.rows.get(id),
      detail: live.details.get(id),
      organizationNames: names,
    });
    diagnostics.push(...made.diagnostics);
    return made.figures;
  });
  return {
    asOf: live.now.toISOString(),
    range: live.range,
    selection,
    estimates,
    projects,
    organizations: byOrganization(projects),
    totals: totalsOf(projects),
    reads: live.reads,
    diagnostics,
  };
}
