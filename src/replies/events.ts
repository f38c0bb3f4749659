/**
 * What `replies run` reports, in order: one event per line with `--json`
 * (schemas/replies-run-line.schema.json), or the terminal view (src/report/replies-run-view.ts).
 * Invariants: `at` is the API's clock (ISO 8601); `started` comes first and `stopped` last; an
 * inbound's `answered` event comes after its answer is on disk.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";

export const REPLIES_RUN_FORMAT_VERSION = 1;

/**
 * Why a run stopped: `--once` done; Ctrl-C or SIGTERM; or an answer the API refused in a way no
 * later answer with the same key gets past (402: the organization cannot pay; 401 or 403: the key
 * may not answer), nothing sent for it.
 */
export type RunStopReason = "once" | "interrupted" | "insufficient-balance" | "key-refused";

/** How an inbound came out (see settle.ts `Settled`, plus the intake's own outcomes). */
export type InboundOutcome =
  | "answered"
  | "recorded"
  | "refused"
  | "unknown"
  | "unreadable"
  | "opt-out"
  | "unmatched"
  | "limit"
  | "missing"
  | "no-rules"
  | "no-balance"
  | "key-refused"
  | "deferred";

/** Totals of a run. Invariant: each inbound handled counts once per time it was handled. */
export interface RunTotals {
  answered: number;
  recorded: number;
  refused: number;
  unknown: number;
  opt_out: number;
  unmatched: number;
  limit: number;
  no_rules: number;
  segments: number;
  passes: number;
  events: number;
}

export type RunEvent =
  | {
      readonly type: "started";
      readonly format_version: number;
      readonly at: string;
      readonly state: string;
      readonly listening: string | null;
      readonly updated_since: string | null;
      readonly answered_before: number;
      readonly projects: readonly string[];
    }
  | {
      readonly type: "pass";
      readonly at: string;
      readonly updated_since: string;
      readonly conversations: number;
      readonly unchanged: number;
      readonly cursor: string;
      readonly next_pass_at: string;
    }
  | {
      readonly type: "inbound";
      readonly at: string;
      readonly via: "event" | "poll";
      readonly conversation_id: string;
      readonly message_id: string;
      readonly project_id: string | null;
      readonly address: string | null;
      readonly outcome: InboundOutcome;
      readonly rule: string | null;
      readonly answer_message_id: string | null;
      readonly segments: number;
      readonly detail: string | null;
    }
  | { readonly type: "problem"; readonly at: string; readonly diagnostic: Diagnostic }
  | {
      readonly type: "stopped";
      readonly at: string;
      readonly reason: RunStopReason;
      readonly totals: RunTotals;
    };

export function emptyTotals(): RunTotals {
  return {
    answered: 0,
    recorded: 0,
    refused: 0,
    unknown: 0,
    opt_out: 0,
    unmatched: 0,
    limit: 0,
    no_rules: 0,
    segments: 0,
    passes: 0,
    events: 0,
  };
}
