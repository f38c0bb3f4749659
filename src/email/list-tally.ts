/**
 * What checking one list's CSV found: rows, rows to send, rows refused (by code), the batches the
 * rows make, and the first refusals in full. Bounded: at most {@link SHOWN_PER_LIST} diagnostics are
 * kept, the rest are counted. Pure.
 */
import { BULK_UPSERT_MAX } from "../contract/limits.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ListCheck } from "./list-results.js";
import type { EmailListSpec } from "./model.js";
import type { RowVerdict } from "./row-check.js";

/** Refusals shown in full per list; the rest are counted by code. */
export const SHOWN_PER_LIST = 50;

export class ListTally {
  private rows = 0;
  private send = 0;
  private refused = 0;
  private readonly byCode = new Map<string, number>();
  private readonly shown: Diagnostic[] = [];
  private more = 0;
  private fileProblems: Diagnostic[] = [];

  constructor(private readonly list: EmailListSpec) {}

  add(verdict: RowVerdict): void {
    this.rows++;
    if (verdict.kind === "send") {
      this.send++;
      return;
    }
    this.refused++;
    for (const d of verdict.diagnostics) {
      this.byCode.set(d.code, (this.byCode.get(d.code) ?? 0) + 1);
      if (this.shown.length < SHOWN_PER_LIST) this.shown.push(d);
      else this.more++;
    }
  }

  /** A problem of the file as a whole (unreadable, malformed, a missing column). */
  fail(diagnostics: readonly Diagnostic[]): void {
    this.fileProblems = [...this.fileProblems, ...diagnostics];
  }

  result(): ListCheck {
    return {
      address: this.list.address,
      list_id: this.list.id,
      csv: this.list.csvPath,
      readable: this.fileProblems.length === 0,
      rows: this.rows,
      to_send: this.send,
      refused: this.refused,
      batches: Math.ceil(this.send / BULK_UPSERT_MAX),
      refused_by_code: Object.fromEntries([...this.byCode].sort(([a], [b]) => (a < b ? -1 : 1))),
      diagnostics: [...this.fileProblems, ...this.shown, ...(this.more > 0 ? [this.moreNote()] : [])],
      more: this.more,
    };
  }

  private moreNote(): Diagnostic {
    return {
      severity: "info",
      code: "email.row-rejected",
      message: `${this.more} more refusals in ${this.list.csvPath} are not shown (counts by code: ${[...this.byCode].map(([c, n]) => `${c} ${n}`).join(", ")})`,
      hint: "fix the rows shown and run validate again",
    };
  }
}
