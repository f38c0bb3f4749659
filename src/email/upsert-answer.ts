/**
 * How apply reads a bulk upsert's 200 answer (POST /email/lists/{id}/contacts), row by row: the
 * contract gives every row its own status (`accepted`, `rejected`, `duplicate`); a row the answer
 * gives none of those (no result, an unnamed status, no `results` array) is `unknown`. Pure.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { EmailListSpec } from "./model.js";

/** What a 200 answer says of one row: the API's verdict, or `unknown`. */
export type AnsweredStatus = "accepted" | "rejected" | "duplicate" | "unknown";

/** The statuses the contract gives a row of a bulk upsert. */
const ROW_STATUSES: ReadonlySet<string> = new Set(["accepted", "rejected", "duplicate"]);

/**
 * The answer's row results by index, read defensively: the client does not check the shape of
 * `data`, and an answer without a `results` array (or with rows that are not objects with an
 * integer index) states nothing of those rows.
 */
export function rowResults(value: unknown): ReadonlyMap<number, Record<string, unknown>> {
  const results =
    typeof value === "object" && value !== null ? (value as { results?: unknown }).results : null;
  const out = new Map<number, Record<string, unknown>>();
  if (!Array.isArray(results)) return out;
  for (const r of results)
    if (typeof r === "object" && r !== null && Number.isInteger((r as { index?: unknown }).index))
      out.set((r as { index: number }).index, r as Record<string, unknown>);
  return out;
}

/**
 * A row's status from its result in a 200 answer: the API's verdict when the contract names it;
 * else `unknown` (no result, or a status the contract does not name): the batch was taken, so the
 * row may have been written, and it is not said `rejected` (which would say the API refused it).
 */
export function rowVerdict(r: Record<string, unknown> | undefined): {
  status: AnsweredStatus;
  reason: string | null;
} {
  const reason = typeof r?.reason === "string" ? r.reason : null;
  if (r !== undefined && typeof r.status === "string" && ROW_STATUSES.has(r.status))
    return { status: r.status as AnsweredStatus, reason };
  return {
    status: "unknown",
    reason:
      r === undefined
        ? "the API's answer (200) gave no result for this row: it may or may not have been written"
        : `the API's answer (200) gave this row the status ${JSON.stringify(r.status)}, which the contract does not name: it may or may not have been written`,
  };
}

/** The rows (their CSV lines) of a batch answered 200 whose answer stated no status the contract names. */
export function unstatedDiagnostic(list: EmailListSpec, index: number, lines: readonly number[]): Diagnostic {
  const shown = lines.slice(0, 10).join(", ");
  const more = lines.length > 10 ? ` and ${lines.length - 10} more` : "";
  return {
    severity: "error",
    code: "email.row-unknown",
    message: `email list ${list.address} (${list.id}): the API answered batch ${index} (200) without a status for ${lines.length} row${lines.length === 1 ? "" : "s"} (${list.csvPath} line${lines.length === 1 ? "" : "s"} ${shown}${more}): each may or may not have been written`,
    range: list.range,
    hint: "compare the list in the dashboard with the per-row result file; a re-run within 24 hours replays the same answer",
  };
}
