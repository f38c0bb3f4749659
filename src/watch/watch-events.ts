/**
 * What `campaignctl watch` reports as it goes, one event at a time: the shapes of its JSON lines
 * (`schemas/watch-event.schema.json`, with `diagnostic` in the shared diagnostic shape once the CLI
 * has converted it) and what its terminal views draw. Pure data and their builders.
 *
 * Order of a run: `start` once; then per poll the `progress` of every watched project whose figures
 * or status changed, a `tripped` per guard that tripped (after the first try of its pause), a
 * `pause` per later try of a pause still pending (and when a pending pause lands or ends), any
 * `diagnostic`, and `poll`; `stop` last. `at` is the API's clock; `elapsed_ms` counts from the start
 * of the run on this machine's clock.
 */
import type { GuardSpec } from "../campaign/model.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { FigureSource, ProjectFigures } from "../status/figures.js";
import { rounded } from "../text/fraction.js";
import type { GuardName, Judged } from "./guard-judge.js";
import type { PauseState } from "./watch-state.js";

/** The version of the JSON lines; bumped on any incompatible change. */
export const WATCH_FORMAT_VERSION = 1;

/** When a run stops on its own: `--once`, `--until-done`, or only when interrupted. */
export type WatchUntil = "once" | "done" | "interrupted";

/** Why a run stopped. */
export type StopReason = "once" | "done" | "interrupted" | "error";

/** A guard's thresholds as the file gave them (rates as fractions); null for a threshold not set. */
export interface GuardLine {
  readonly max_failure_rate: number | null;
  readonly max_opt_out_rate: number | null;
  readonly min_sample: number;
}

/**
 * One project as a line shows it. Invariants: counters are null exactly when `source` is not
 * `statistics`; rates are fractions rounded half up to 4 decimals, null without a denominator
 * (the definitions of `status`: failure = failed / sent, opt-out = opted out / delivered).
 */
export interface WatchProjectLine {
  readonly id: string;
  readonly address: string;
  readonly name: string | null;
  readonly status: string | null;
  readonly source: FigureSource;
  readonly recipients: number | null;
  readonly sent: number | null;
  readonly delivered: number | null;
  readonly failed: number | null;
  readonly opted_out: number | null;
  readonly delivery_rate: number | null;
  readonly failure_rate: number | null;
  readonly opt_out_rate: number | null;
  readonly guard: GuardLine | null;
  readonly judged: Judged;
}

/** A guard's name in JSON: the file's key without `max_`. */
export type GuardKey = "failure_rate" | "opt_out_rate";

export const GUARD_KEY: Readonly<Record<GuardName, GuardKey>> = {
  "failure-rate": "failure_rate",
  "opt-out-rate": "opt_out_rate",
};

/**
 * Where the pause of a tripped guard stands (see `watch-state.ts` `PauseState`): `paused` (the
 * project reads paused), `not-sending` (it stopped sending otherwise, e.g. completed), `pending`
 * (not landed yet: tried again on the next poll, same key).
 */
export type PauseOutcome = "paused" | "not-sending" | "pending";

export interface PauseLine {
  readonly outcome: PauseOutcome;
  /** The Idempotency-Key of the pause; null while no read succeeded (nothing sent). */
  readonly idempotency_key: string | null;
  /** Pause requests sent in the run so far, over every try. */
  readonly attempts: number;
  readonly replayed: boolean;
  /** The live status read (`paused` when it landed); null while pending. */
  readonly status_after: string | null;
  /** The live `pause_reason` read, when the API shows it. */
  readonly pause_reason: string | null;
  /** Why it is still pending (the last error or status seen); null unless pending. */
  readonly last_error: string | null;
}

export type WatchEvent =
  | {
      readonly type: "start";
      readonly format_version: typeof WATCH_FORMAT_VERSION;
      readonly at: string;
      readonly elapsed_ms: number;
      readonly interval_ms: number;
      readonly until: WatchUntil;
      /** Every project of the files, `sending` when it is watched from the start. */
      readonly projects: readonly (WatchProjectLine & { readonly sending: boolean })[];
    }
  | {
      readonly type: "progress";
      readonly at: string;
      readonly elapsed_ms: number;
      readonly project: WatchProjectLine;
    }
  | {
      readonly type: "tripped";
      readonly at: string;
      readonly elapsed_ms: number;
      readonly project: WatchProjectLine;
      readonly guard: GuardKey;
      /** The rate that tripped, as a fraction rounded to 4 decimals, and its exact counts. */
      readonly rate: number;
      readonly count: number;
      readonly of: number;
      readonly limit: number;
      /** The pause reason sent (`guard: ...`). */
      readonly reason: string;
      readonly pause: PauseLine;
    }
  | {
      readonly type: "pause";
      readonly at: string;
      readonly elapsed_ms: number;
      /** The project's latest figures. */
      readonly project: WatchProjectLine;
      /** The pause reason sent (`guard: ...`). */
      readonly reason: string;
      readonly pause: PauseLine;
    }
  | {
      readonly type: "poll";
      readonly at: string;
      readonly elapsed_ms: number;
      /** 1 for the first poll. */
      readonly poll: number;
      readonly stats_pages: number;
      readonly projects_read_by_id: number;
      /** Projects no row lists that wait for a later poll's reads by id (the budget had no room). */
      readonly projects_deferred: number;
      /** HTTP requests of this poll, its pauses included (retries counted). */
      readonly requests: number;
      /** Watched projects still sending (scheduled or active). */
      readonly sending: number;
      /**
       * Watched email campaigns still sending (scheduled, compiling or sending); present only when
       * the files describe email campaigns. `--until-done` stops when this and `sending` are 0.
       */
      readonly email_sending?: number;
      /** The wait before the next poll; null when the run stops after this one. */
      readonly next_poll_ms: number | null;
    }
  | {
      readonly type: "diagnostic";
      readonly at: string;
      readonly elapsed_ms: number;
      readonly diagnostic: Diagnostic;
    }
  | {
      readonly type: "stop";
      readonly at: string;
      readonly elapsed_ms: number;
      readonly reason: StopReason;
      readonly polls: number;
      /** HTTP requests of the whole run. */
      readonly requests: number;
      readonly tripped: number;
      /** Projects paused by a guard in this run (re-read `paused`). */
      readonly paused: number;
      /** Guards' pauses still pending when the run stopped (exit code 1 when any). */
      readonly pending: number;
      /** Error diagnostics of the run. */
      readonly errors: number;
    };

export function guardLine(guard: GuardSpec | null): GuardLine | null {
  if (guard === null) return null;
  return {
    max_failure_rate: guard.maxFailureRate ?? null,
    max_opt_out_rate: guard.maxOptOutRate ?? null,
    min_sample: guard.minSample,
  };
}

/** A project's line from its figures, its address and guard, and how the guard judges it now. */
export function projectLine(
  figures: ProjectFigures,
  address: string,
  guard: GuardSpec | null,
  judged: Judged,
): WatchProjectLine {
  const rate = (f: ProjectFigures["rates"]["failure"]): number | null => (f === null ? null : rounded(f, 4));
  return {
    id: figures.id,
    address,
    name: figures.name,
    status: figures.status,
    source: figures.source,
    recipients: figures.recipients,
    sent: figures.sent,
    delivered: figures.delivered,
    failed: figures.failed,
    opted_out: figures.optedOut,
    delivery_rate: rate(figures.rates.delivery),
    failure_rate: rate(figures.rates.failure),
    opt_out_rate: rate(figures.rates.optOut),
    guard: guardLine(guard),
    judged,
  };
}

export function pauseLine(pause: PauseState): PauseLine {
  switch (pause.phase) {
    case "landed":
      return {
        outcome: "paused",
        idempotency_key: pause.key,
        attempts: pause.attempts,
        replayed: pause.replayed,
        status_after: "paused",
        pause_reason: pause.pauseReason,
        last_error: null,
      };
    case "ended":
      return {
        outcome: "not-sending",
        idempotency_key: pause.key,
        attempts: pause.attempts,
        replayed: false,
        status_after: pause.status,
        pause_reason: pause.pauseReason,
        last_error: null,
      };
    case "pending":
      return {
        outcome: "pending",
        idempotency_key: pause.key,
        attempts: pause.attempts,
        replayed: false,
        status_after: null,
        pause_reason: null,
        last_error: pause.lastError,
      };
  }
}
