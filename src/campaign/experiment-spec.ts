/**
 * Decodes a campaign file's `experiments:` into the campaign model, with where each value is
 * written: part of the one loader (assemble.ts), from the same parsed document and data as the
 * file's projects, as email-spec.ts decodes the email entries. The checks one file can make are
 * here (too few arms, an arm named twice, an unknown metric, a holdout that is an arm), each
 * leaving the experiment out; those across files (an arm or holdout naming no project, a name or
 * a project in two experiments) are `checkExperiments`. An entry with a schema error (which
 * validate reports) is left out silently. Pure.
 */
import type { Diagnostic, SourceRange } from "../diagnostics/diagnostic.js";
import { didYouMean } from "../text/did-you-mean.js";
import type { EmailSource } from "./email-spec.js";
import { EXPERIMENT_METRICS, type ExperimentMetric, type ExperimentSpec } from "./model.js";
import { rangeAt } from "./source-range.js";
import { findPath, pointerSegments } from "./yaml-path.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The experiments of one file, and the problems one file shows. */
export interface FileExperiments {
  readonly experiments: readonly ExperimentSpec[];
  readonly diagnostics: readonly Diagnostic[];
}

export const NO_EXPERIMENTS: FileExperiments = { experiments: [], diagnostics: [] };

/**
 * The experiments of one file. `data` is the file's data; `errorPaths` the `instancePath` of each
 * schema error of the file: experiments under one are left out.
 */
export function decodeExperiments(
  data: unknown,
  errorPaths: readonly string[],
  where: EmailSource,
): FileExperiments {
  if (!isObj(data) || !isObj(data.experiments)) return NO_EXPERIMENTS;
  const broken = new Set<string>();
  for (const path of errorPaths) {
    const [section, name] = pointerSegments(path).map(String);
    if (section === "experiments") broken.add(name ?? "*");
  }
  if (broken.has("*")) return NO_EXPERIMENTS;
  const { doc, source } = where;
  const at = (path: readonly (string | number)[], key: boolean): SourceRange => {
    const hit = findPath(doc, doc.contents, path);
    const span = (key ? (hit.key ?? hit.value) : (hit.value ?? hit.key)) ?? [0, 0];
    return rangeAt(source, span[0], span[1]);
  };
  const experiments: ExperimentSpec[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const [name, raw] of Object.entries(data.experiments)) {
    if (broken.has(name) || !isObj(raw)) continue;
    const decoded = experimentOf(source.file, name, raw, at);
    diagnostics.push(...decoded.diagnostics);
    if (decoded.spec !== undefined) experiments.push(decoded.spec);
  }
  return { experiments, diagnostics };
}

type At = (path: readonly (string | number)[], key: boolean) => SourceRange;

function experimentOf(
  file: string,
  name: string,
  raw: Obj,
  at: At,
): { readonly spec?: ExperimentSpec; readonly diagnostics: readonly Diagnostic[] } {
  const arms = (raw.arms as readonly string[]).map(String);
  const armRanges = arms.map((_, i) => at(["experiments", name, "arms", i], false));
  const range = at(["experiments", name], true);
  const diagnostics: Diagnostic[] = [];
  if (arms.length < 2)
    diagnostics.push({
      severity: "error",
      code: "experiment.too-few-arms",
      message: `experiment \`${name}\` names ${arms.length === 0 ? "no arm" : "one arm"}: an experiment compares two or more`,
      range: arms.length === 0 ? at(["experiments", name, "arms"], false) : (armRanges[0] ?? range),
      hint: "list each arm project's address under `arms:` (each made in the dashboard with its own wording and a split of the list)",
    });
  arms.forEach((arm, i) => {
    const first = arms.indexOf(arm);
    if (first === i) return;
    diagnostics.push({
      severity: "error",
      code: "experiment.arm-repeated",
      message: `experiment \`${name}\` names arm \`${arm}\` twice`,
      range: armRanges[i] ?? range,
      hint: "name each arm once",
      related: [{ message: `\`${arm}\` first named here`, range: armRanges[first] ?? range }],
    });
  });
  const metric = String(raw.metric);
  if (!(EXPERIMENT_METRICS as readonly string[]).includes(metric)) {
    const suggestion = didYouMean(metric, EXPERIMENT_METRICS);
    diagnostics.push({
      severity: "error",
      code: "experiment.metric-unknown",
      message: `experiment \`${name}\`: metric \`${metric}\` is not one of ${EXPERIMENT_METRICS.join(", ")}${suggestion === undefined ? "" : `; did you mean \`${suggestion}\`?`}`,
      range: at(["experiments", name, "metric"], false),
      hint: "reply_rate, click_rate and opt_out_rate count over deliveries, delivery_rate over sends",
    });
  }
  const holdout = typeof raw.holdout === "string" ? raw.holdout : undefined;
  const holdoutRange = holdout === undefined ? undefined : at(["experiments", name, "holdout"], false);
  if (holdout !== undefined && arms.includes(holdout))
    diagnostics.push({
      severity: "error",
      code: "experiment.holdout-is-arm",
      message: `experiment \`${name}\`: holdout \`${holdout}\` is also one of its arms`,
      range: holdoutRange ?? range,
      hint: "the holdout is a project of its own that sends the winner's wording to the rest of the list, after the verdict",
    });
  if (diagnostics.length > 0) return { diagnostics };
  const brake = isObj(raw.brake) ? brakeOf(raw.brake) : undefined;
  return {
    diagnostics,
    spec: {
      name,
      file,
      arms,
      metric: metric as ExperimentMetric,
      minSample: Number(raw.min_sample),
      ...(brake === undefined ? {} : { brake }),
      ...(holdout === undefined ? {} : { holdout }),
      range,
      armRanges,
      ...(holdoutRange === undefined ? {} : { holdoutRange }),
    },
  };
}

function brakeOf(raw: Obj): ExperimentSpec["brake"] {
  const optOut = typeof raw.max_opt_out_rate === "number" ? raw.max_opt_out_rate : undefined;
  const failure = typeof raw.max_failure_rate === "number" ? raw.max_failure_rate : undefined;
  return {
    ...(optOut === undefined ? {} : { maxOptOutRate: optOut }),
    ...(failure === undefined ? {} : { maxFailureRate: failure }),
  };
}

/**
 * The checks across files, over every file's experiments in load order: an arm or holdout naming
 * no project address (`declared`), a name used twice, a project in two experiments. Returns the
 * experiments left whole (the first of a repeated name) and the diagnostics.
 */
export function checkExperiments(
  experiments: readonly ExperimentSpec[],
  declared: ReadonlyMap<string, unknown>,
): { readonly experiments: ExperimentSpec[]; readonly diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const kept: ExperimentSpec[] = [];
  const byName = new Map<string, ExperimentSpec>();
  const owner = new Map<string, { readonly experiment: ExperimentSpec; readonly range: SourceRange }>();
  for (const e of experiments) {
    const first = byName.get(e.name);
    if (first !== undefined) {
      diagnostics.push({
        severity: "error",
        code: "experiment.duplicate-name",
        message: `experiment \`${e.name}\` is already declared in ${first.file}`,
        range: e.range,
        hint: "experiment names are unique across all loaded files: rename one",
        related: [{ message: `\`${e.name}\` first declared here`, range: first.range }],
      });
      continue;
    }
    byName.set(e.name, e);
    const found = unknownProjects(e, declared);
    diagnostics.push(...found);
    for (const [project, range] of projectsOf(e)) {
      const other = owner.get(project);
      if (other === undefined) {
        owner.set(project, { experiment: e, range });
        continue;
      }
      diagnostics.push({
        severity: "error",
        code: "experiment.arm-shared",
        message: `project \`${project}\` is in experiment \`${other.experiment.name}\` already (in \`${e.name}\` too)`,
        range,
        hint: "a project is in one experiment: make another arm project in the dashboard for the second test",
        related: [{ message: `\`${project}\` in \`${other.experiment.name}\``, range: other.range }],
      });
      found.push(diagnostics[diagnostics.length - 1] as Diagnostic);
    }
    if (found.length === 0) kept.push(e);
  }
  return { experiments: kept, diagnostics };
}

function projectsOf(e: ExperimentSpec): [string, SourceRange][] {
  const arms = e.arms.map((arm, i): [string, SourceRange] => [arm, e.armRanges[i] ?? e.range]);
  return e.holdout === undefined ? arms : [...arms, [e.holdout, e.holdoutRange ?? e.range]];
}

function unknownProjects(e: ExperimentSpec, declared: ReadonlyMap<string, unknown>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [project, range] of projectsOf(e)) {
    if (declared.has(project)) continue;
    const holdout = project === e.holdout;
    const suggestion = didYouMean(project, declared.keys());
    out.push({
      severity: "error",
      code: holdout ? "experiment.unknown-holdout" : "experiment.unknown-arm",
      message: `experiment \`${e.name}\`: ${holdout ? "holdout" : "arm"} \`${project}\` is no project of the campaign files${suggestion === undefined ? "" : `; did you mean \`${suggestion}\`?`}`,
      range,
      hint: "name a project by its address (its key under `projects:`, or a template instance's)",
    });
  }
  return out;
}
