/**
 * A line of the results store checked against schemas/results-snapshot.schema.json (the generated
 * validator, scripts/gen-validators.mjs) and the one invariant a schema cannot say: `hour` is the
 * hour of `at`. Pure.
 */
import { validateResultsSnapshot } from "./generated/validate-snapshot.js";
import { hourOf, type ResultsSnapshot } from "./snapshot.js";

/** The snapshot a line holds, or why it is not one. */
export type CheckedLine =
  | { readonly ok: true; readonly snapshot: ResultsSnapshot }
  | { readonly ok: false; readonly why: string };

/** Checks one line (without its newline). */
export function checkSnapshotLine(line: string): CheckedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, why: "not JSON" };
  }
  return checkSnapshot(value);
}

/** Checks a value that should be a snapshot (a parsed line, a row about to be written). */
export function checkSnapshot(value: unknown): CheckedLine {
  if (!validateResultsSnapshot(value)) {
    const first = validateResultsSnapshot.errors?.[0];
    return {
      ok: false,
      why: `not a results snapshot (schemas/results-snapshot.schema.json): ${first?.instancePath || "/"} ${first?.message ?? ""}`.trim(),
    };
  }
  const snapshot = value as ResultsSnapshot;
  if (hourOf(new Date(snapshot.at)) !== snapshot.hour)
    return { ok: false, why: `its hour ${snapshot.hour} is not the hour of its time ${snapshot.at}` };
  return { ok: true, snapshot };
}
