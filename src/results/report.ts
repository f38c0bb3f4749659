/**
 * The results of a period, grouped (docs/results.md): from the store's snapshots and, when given,
 * the campaign files' projects (their addresses, templates, languages and labels), the figures of
 * each group and of the total over the period and over each bucket of its trend, with the rates a
 * reviewer thinks in. Pure.
 *
 * Rates (each null when its denominator is 0): delivery = delivered / sent; reply rate = replies /
 * delivered; opt-out rate = opt-outs / delivered; click rate = unique clicks / delivered; cost per
 * reply = cost / replies. A group's or the total's rates come from its summed counts, never an
 * average of rates.
 */

import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ExperimentResult } from "../experiments/report.js";
import { type Fraction, fraction } from "../text/fraction.js";
import {
  add,
  changedIn,
  countsFromBefore,
  type History,
  histories,
  movement,
  type ResultsFigures,
  ZERO,
} from "./movement.js";
import type { Period } from "./period.js";
import type { ResultsSnapshot } from "./snapshot.js";

/** What results are grouped by. `label` groups by the value of one label key (`labelKey`). */
export type GroupKind = "organization" | "project" | "template" | "language" | "label";

export interface GroupBy {
  readonly kind: GroupKind;
  /** The label key, with `label`. */
  readonly labelKey?: string;
}

/** A project of the campaign files, as results group it. */
export interface FileProject {
  readonly id: string;
  readonly address: string;
  /** The template it was expanded from, and its language; undefined for a plain project. */
  readonly template?: string;
  readonly language?: string;
  readonly labels: Readonly<Record<string, string>>;
}

/** Which projects: the files' (`files`, null without paths), with `all` every other one too. */
export interface ResultsSelection {
  readonly files: readonly FileProject[] | null;
  readonly all: boolean;
  /** `--organization`: a name or id; only that organization's projects. */
  readonly organization?: string;
}

export interface ResultsRates {
  readonly delivery: Fraction | null;
  readonly reply: Fraction | null;
  readonly optOut: Fraction | null;
  readonly click: Fraction | null;
  /** Numerator in e4, denominator replies. */
  readonly costPerReplyE4: Fraction | null;
}

/** One group. Invariant: `trend[i]` is the group's figures in `period.buckets[i]`; they add up to `figures`. */
export interface ResultsGroup {
  readonly key: string;
  readonly label: string;
  readonly projects: number;
  readonly figures: ResultsFigures;
  readonly rates: ResultsRates;
  readonly trend: readonly ResultsFigures[];
}

export interface ResultsReport {
  readonly period: Period;
  readonly by: GroupBy;
  /** The store, as messages name it. */
  readonly store: string;
  /** Snapshots read (before the period's end). */
  readonly snapshotsRead: number;
  /** Groups in order: by label (the "(…)" groups last). */
  readonly groups: readonly ResultsGroup[];
  readonly total: ResultsGroup;
  readonly diagnostics: readonly Diagnostic[];
  /** The campaign files' experiments over the period (results/experiments.ts); absent: none. */
  readonly experiments?: readonly ExperimentResult[];
}

export function ratesOf(f: ResultsFigures): ResultsRates {
  return {
    delivery: fraction(f.delivered, f.sent),
    reply: fraction(f.replies, f.delivered),
    optOut: fraction(f.optedOut, f.delivered),
    click: fraction(f.uniqueClicks, f.delivered),
    costPerReplyE4: fraction(f.costE4, f.replies),
  };
}

/** The group a project falls in. `placeholder`: a "(…)" group of projects without the grouping's value. */
interface GroupOf {
  readonly key: string;
  readonly label: string;
  readonly placeholder: boolean;
}

const named = (value: string): GroupOf => ({ key: value, label: value, placeholder: false });
const placeholder = (label: string): GroupOf => ({ key: label, label, placeholder: true });

function groupOf(by: GroupBy, h: History, file: FileProject | undefined, withFiles: boolean): GroupOf {
  const absent = placeholder(withFiles ? "(not in the files)" : "(no campaign files)");
  switch (by.kind) {
    case "organization":
      return {
        key: h.last.organization_id,
        label: h.last.organization_name || h.last.organization_id,
        placeholder: false,
      };
    case "project":
      return { key: h.id, label: file?.address ?? h.last.project_name, placeholder: false };
    case "template":
      if (file === undefined) return absent;
      return file.template === undefined ? placeholder("(no template)") : named(file.template);
    case "language":
      if (file === undefined) return absent;
      return file.language === undefined ? placeholder("(no language)") : named(file.language);
    case "label": {
      if (file === undefined) return absent;
      const value = file.labels[by.labelKey ?? ""];
      return value === undefined ? placeholder(`(no ${by.labelKey ?? ""} label)`) : named(value);
    }
  }
}

interface Accumulator {
  label: string;
  placeholder: boolean;
  projects: number;
  figures: ResultsFigures;
  trend: ResultsFigures[];
}

function selected(selection: ResultsSelection, h: History, files: ReadonlyMap<string, FileProject>): boolean {
  const org = selection.organization;
  if (org !== undefined && h.last.organization_id !== org && h.last.organization_name !== org) return false;
  return selection.files === null || selection.all || files.has(h.id);
}

/** Builds the report of `snapshots` (every snapshot before the period's end) over `period`. */
export function buildResultsReport(input: {
  readonly snapshots: readonly ResultsSnapshot[];
  readonly period: Period;
  readonly by: GroupBy;
  readonly selection: ResultsSelection;
  readonly store: string;
}): ResultsReport {
  const { period, by, selection } = input;
  const files = new Map((selection.files ?? []).map((f) => [f.id, f]));
  const all = histories(input.snapshots);
  const groups = new Map<string, Accumulator>();
  const total: Accumulator = {
    label: "Total",
    placeholder: false,
    projects: 0,
    figures: ZERO,
    trend: period.buckets.map(() => ZERO),
  };
  const fromBefore: string[] = [];
  for (const h of all.values()) {
    if (!selected(selection, h, files) || !changedIn(h, period.startMs, period.endMs)) continue;
    const file = files.get(h.id);
    if (countsFromBefore(h, period.startMs)) fromBefore.push(file?.address ?? h.last.project_name);
    const of = groupOf(by, h, file, selection.files !== null);
    const id = `${of.placeholder ? "p" : "v"}${of.key}`;
    const group = groups.get(id) ?? {
      label: of.label,
      placeholder: of.placeholder,
      projects: 0,
      figures: ZERO,
      trend: period.buckets.map(() => ZERO),
    };
    groups.set(id, group);
    const moved = movement(h, period.startMs, period.endMs);
    const trend = period.buckets.map((b) => movement(h, b.startMs, b.endMs));
    for (const acc of [group, total]) {
      acc.projects++;
      acc.figures = add(acc.figures, moved);
      acc.trend = acc.trend.map((f, i) => add(f, trend[i] ?? ZERO));
    }
  }
  const diagnostics: Diagnostic[] = [];
  if (fromBefore.length > 0)
    diagnostics.push({
      severity: "warning",
      code: "results.before-period-included",
      message: `${fromBefore.length} project${fromBefore.length === 1 ? " was" : "s were"} created before ${period.since} and first recorded in the period (${listed(fromBefore)}): their figures up to their first snapshot are counted in the period`,
      hint: "the store has nothing of them before the period; record from the start of a campaign (the hourly pipeline) to count exactly",
    });
  const notRecorded = (selection.files ?? []).filter((f) => !all.has(f.id)).map((f) => f.address);
  if (notRecorded.length > 0)
    diagnostics.push({
      severity: "warning",
      code: "results.not-recorded",
      message: `${notRecorded.length} project${notRecorded.length === 1 ? "" : "s"} of the campaign files ${notRecorded.length === 1 ? "has" : "have"} no snapshot up to ${period.until} (${listed(notRecorded)})`,
      hint: "a project is recorded once the statistics list it (run `campaignctl results record`); a draft never scheduled has nothing to record",
    });
  const finish = (key: string, a: Accumulator): ResultsGroup => ({
    key: key.slice(1),
    label: a.label,
    projects: a.projects,
    figures: a.figures,
    rates: ratesOf(a.figures),
    trend: a.trend,
  });
  const ordered = [...groups.entries()].sort(([ka, a], [kb, b]) =>
    a.placeholder !== b.placeholder
      ? a.placeholder
        ? 1
        : -1
      : a.label.localeCompare(b.label, "en") || (ka < kb ? -1 : ka > kb ? 1 : 0),
  );
  return {
    period,
    by,
    store: input.store,
    snapshotsRead: input.snapshots.length,
    groups: ordered.map(([key, a]) => finish(key, a)),
    total: finish("vtotal", total),
    diagnostics,
  };
}

function listed(names: readonly string[]): string {
  const shown = names.slice(0, 3).join(", ");
  return names.length > 3 ? `${shown} and ${names.length - 3} more` : shown;
}

/** The first and last day of the snapshots (for the default period), or null when there are none. */
export function recordedDays(
  snapshots: readonly ResultsSnapshot[],
): { readonly first: string; readonly last: string } | null {
  if (snapshots.length === 0) return null;
  let first = snapshots[0]?.at ?? "";
  let last = first;
  for (const s of snapshots) {
    if (s.at < first) first = s.at;
    if (s.at > last) last = s.at;
  }
  return { first: first.slice(0, 10), last: last.slice(0, 10) };
}

/**
 * The figures of a set of projects over `[startMs, endMs)` from the store's snapshots: an
 * experiment's arm (its projects' ids) read the way a period is (each project's movement in it),
 * with its rates as exact fractions. `projects` counts the arm's projects that have a snapshot.
 */
export function armFigures(
  snapshots: readonly ResultsSnapshot[],
  projectIds: readonly string[],
  startMs: number,
  endMs: number,
): { readonly projects: number; readonly figures: ResultsFigures; readonly rates: ResultsRates } {
  const all = histories(snapshots.filter((s) => Date.parse(s.at) < endMs));
  let figures = ZERO;
  let projects = 0;
  for (const id of new Set(projectIds)) {
    const h = all.get(id);
    if (h === undefined) continue;
    projects++;
    figures = add(figures, movement(h, startMs, endMs));
  }
  return { projects, figures, rates: ratesOf(figures) };
}
