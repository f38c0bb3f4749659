/**
 * What a recording writes (docs/results.md "What is written"), given what the store holds: a
 * snapshot is written when its identity (project, hour) is new and its figures differ from the
 * project's latest snapshot (or the project has none). So recording the same hour twice adds
 * nothing, and an hour in which nothing moved adds nothing: the store holds every change, once.
 * Pure; each store applies it inside its own atomic step.
 */
import { type ResultsSnapshot, sameFigures, snapshotKey } from "./snapshot.js";

/** What the store holds that the rule needs: the identities taken and each project's latest snapshot. */
export interface Existing {
  /** `snapshotKey`s already stored (at least those of the candidates' hours). */
  readonly keys: ReadonlySet<string>;
  /** By project id, its latest stored snapshot (by `at`), when it has one. */
  readonly latest: ReadonlyMap<string, ResultsSnapshot>;
}

export interface Chosen {
  readonly write: readonly ResultsSnapshot[];
  readonly sameHour: number;
  readonly unchanged: number;
}

/** The candidates to write, in their order; a project's later candidate is compared with its earlier one. */
export function chooseWrites(candidates: readonly ResultsSnapshot[], existing: Existing): Chosen {
  const keys = new Set(existing.keys);
  const latest = new Map(existing.latest);
  const write: ResultsSnapshot[] = [];
  let sameHour = 0;
  let unchanged = 0;
  for (const s of candidates) {
    const key = snapshotKey(s);
    if (keys.has(key)) {
      sameHour++;
      continue;
    }
    const previous = latest.get(s.project_id);
    if (previous !== undefined && sameFigures(previous, s)) {
      unchanged++;
      continue;
    }
    keys.add(key);
    latest.set(s.project_id, s);
    write.push(s);
  }
  return { write, sameHour, unchanged };
}

/** The latest snapshot of each project among `snapshots` (by `at`, then hour). */
export function latestByProject(snapshots: Iterable<ResultsSnapshot>): Map<string, ResultsSnapshot> {
  const out = new Map<string, ResultsSnapshot>();
  for (const s of snapshots) {
    const seen = out.get(s.project_id);
    if (seen === undefined || seen.at < s.at || (seen.at === s.at && seen.hour < s.hour))
      out.set(s.project_id, s);
  }
  return out;
}
