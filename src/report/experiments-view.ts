/**
 * The experiments' section of `status` and `results` (docs/experiments.md "Reading the verdict"):
 * each arm's rate with its 95 % interval and counts, and the verdict in words, in the terminal, in
 * Markdown and as JSON (schemas/experiment-result.schema.json). Pure.
 */
import type { ExperimentMetric } from "../campaign/model.js";
import type { ExperimentResult } from "../experiments/report.js";
import { trialsNoun } from "../experiments/verdict.js";
import { escapeMarkdown } from "./markdown-escape.js";

const METRIC_WORDS: Readonly<Record<ExperimentMetric, string>> = {
  reply_rate: "reply rate",
  click_rate: "click rate",
  opt_out_rate: "opt-out rate",
  delivery_rate: "delivery rate",
};

/** A rate as a percentage with one decimal; `-` for none. */
function percent(rate: number | null): string {
  return rate === null ? "-" : `${(Math.round(rate * 1000) / 10).toFixed(1)}%`;
}

const grouped = (n: number): string => n.toLocaleString("en-US");

function intervalText(low: number, high: number): string {
  return `${percent(low)} to ${percent(high)}`;
}

function heading(r: ExperimentResult): string {
  const e = r.experiment;
  return `${e.name}: ${METRIC_WORDS[e.metric]}, at least ${grouped(e.minSample)} ${trialsNoun(e.metric)} per arm`;
}

/** The terminal section ("" without experiments). */
export function renderExperimentsText(results: readonly ExperimentResult[]): string {
  if (results.length === 0) return "";
  const lines = ["", "Experiments"];
  for (const r of results) {
    lines.push(`  ${heading(r)}`);
    const width = Math.max(...r.verdict.arms.map((a) => a.name.length));
    for (const arm of r.verdict.arms) {
      const interval =
        arm.interval === null ? "" : `  (95%: ${intervalText(arm.interval.low, arm.interval.high)})`;
      lines.push(
        `    ${arm.name.padEnd(width)}  ${percent(arm.rate).padStart(6)}  ${grouped(arm.count.successes)} of ${grouped(arm.count.trials)}${interval}`,
      );
    }
    lines.push(`    ${r.verdict.words}`);
    if (r.unread.length > 0)
      lines.push(`    (no figures for ${r.unread.join(", ")}: counted as nothing sent)`);
  }
  return `${lines.join("\n")}\n`;
}

/** The Markdown section ("" without experiments). */
export function renderExperimentsMarkdown(results: readonly ExperimentResult[]): string {
  if (results.length === 0) return "";
  const out = ["", "### Experiments", ""];
  for (const r of results) {
    out.push(`**${escapeMarkdown(heading(r))}**: ${escapeMarkdown(r.verdict.words)}`, "");
    out.push("| arm | rate | 95 % interval | count |", "| --- | ---: | --- | ---: |");
    for (const arm of r.verdict.arms)
      out.push(
        `| ${escapeMarkdown(arm.name)} | ${percent(arm.rate)} | ${arm.interval === null ? "-" : intervalText(arm.interval.low, arm.interval.high)} | ${grouped(arm.count.successes)} of ${grouped(arm.count.trials)} |`,
      );
    out.push("");
  }
  return `${out.join("\n")}\n`;
}

const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

/** The JSON of each experiment (schemas/experiment-result.schema.json). */
export function experimentsJson(results: readonly ExperimentResult[]) {
  return results.map((r) => ({
    name: r.experiment.name,
    metric: r.experiment.metric,
    min_sample: r.experiment.minSample,
    holdout: r.experiment.holdout ?? null,
    arms: r.verdict.arms.map((a) => ({
      address: a.name,
      successes: a.count.successes,
      trials: a.count.trials,
      rate: a.rate === null ? null : round4(a.rate),
      interval: a.interval === null ? null : { low: round4(a.interval.low), high: round4(a.interval.high) },
      read: !r.unread.includes(a.name),
    })),
    verdict: {
      kind: r.verdict.kind,
      words: r.verdict.words,
      leader: r.verdict.leader ?? null,
      more_per_arm: r.verdict.morePerArm ?? null,
      p: r.verdict.p === undefined ? null : round4(r.verdict.p),
      required_per_arm: r.verdict.requiredPerArm,
    },
  }));
}
