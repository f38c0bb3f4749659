/**
 * What a worker's record (`answered.jsonl`) says was answered, per project and rule, for `status`.
 * Pure. Costs are summed in millionths of a dollar (exact for prices of up to 6 decimals), from the
 * `cost_usd` each answer was written with (`replies run --segment-price`); a rule or project with an
 * answer written without a price has no known cost (null), its segments are still counted.
 */
import type { AnsweredLine } from "./state-file.js";

/** Answers of one rule of one project. Invariant: `segments` are those of the `answered` lines. */
export interface RuleAnswered {
  readonly rule: string;
  readonly answered: number;
  /** Inbounds whose answer the API refused (4xx) or that were not sent to an opted-out conversation; never retried. */
  readonly refused: number;
  readonly segments: number;
  /** Dollars; null when an answer of it was recorded without a segment price. */
  readonly costUsd: number | null;
}

/** One project's answers. Invariant: the totals are the sums over `rules` (rules in first-recorded order). */
export interface ProjectAnswered {
  readonly projectId: string;
  readonly answered: number;
  readonly refused: number;
  readonly segments: number;
  readonly costUsd: number | null;
  readonly rules: readonly RuleAnswered[];
}

interface Sum {
  answered: number;
  refused: number;
  segments: number;
  /** Millionths of a dollar; null once an answer without a price was met. */
  micros: number | null;
}

const empty = (): Sum => ({ answered: 0, refused: 0, segments: 0, micros: 0 });

function add(sum: Sum, line: AnsweredLine): void {
  if (line.t === "refused") {
    sum.refused++;
    return;
  }
  sum.answered++;
  sum.segments += line.segments;
  const cost = line.cost_usd;
  sum.micros = sum.micros === null || typeof cost !== "number" ? null : sum.micros + Math.round(cost * 1e6);
}

const usd = (micros: number | null): number | null => (micros === null ? null : micros / 1e6);

/**
 * Per project id, the answered and refused inbounds of `lines` (`unpaid` lines settle nothing and are
 * not counted; an inbound is counted once, by its last settling line).
 */
export function summarizeAnswered(lines: readonly AnsweredLine[]): Map<string, ProjectAnswered> {
  const settled = new Map<string, AnsweredLine>();
  for (const line of lines) if (line.t !== "unpaid") settled.set(line.inbound_message_id, line);
  const byProject = new Map<string, { total: Sum; rules: Map<string, Sum> }>();
  for (const line of settled.values()) {
    const project = byProject.get(line.project_id) ?? { total: empty(), rules: new Map<string, Sum>() };
    byProject.set(line.project_id, project);
    const rule = project.rules.get(line.rule) ?? empty();
    project.rules.set(line.rule, rule);
    add(project.total, line);
    add(rule, line);
  }
  return new Map(
    [...byProject].map(([projectId, p]) => [
      projectId,
      {
        projectId,
        answered: p.total.answered,
        refused: p.total.refused,
        segments: p.total.segments,
        costUsd: usd(p.total.micros),
        rules: [...p.rules].map(([rule, s]) => ({
          rule,
          answered: s.answered,
          refused: s.refused,
          segments: s.segments,
          costUsd: usd(s.micros),
        })),
      },
    ]),
  );
}

/** The replies beside a status report: where the record was read, and each project's answers. */
export interface StatusReplies {
  /** The state directory as given (`status --replies-state`, default the worker's). */
  readonly state: string;
  /** By project id; a project of the report absent here had nothing answered. */
  readonly projects: ReadonlyMap<string, ProjectAnswered>;
}
