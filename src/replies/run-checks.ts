/**
 * What `replies run` decides before its worker starts, as data (pure): the flags that cannot take
 * effect, files without reply rules, a state directory that cannot be used, and the warnings its
 * first lines carry (a `--since` a cursor overrides, a torn record). The command (cli/commands/
 * replies-run.ts) gathers the inputs and prints what these return.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { PollCursor } from "./state-file.js";

/** The flags of `replies run` these checks read. */
export interface RunListenerFlags {
  readonly once?: boolean;
  /** False with `--no-webhooks`. */
  readonly webhooks?: boolean;
  readonly port?: number;
  readonly host?: string;
  readonly secretEnv?: readonly string[];
}

/** Whether the run listens for `message.replied` events (not with `--once` nor `--no-webhooks`). */
export function listens(flags: RunListenerFlags): boolean {
  return flags.webhooks !== false && flags.once !== true;
}

/**
 * `--port`, `--host` and `--secret-env` configure the event listener: with `--once` or
 * `--no-webhooks` there is none, and a flag that cannot take effect is a usage error (one each).
 */
export function listenerFlagsUnused(flags: RunListenerFlags): Diagnostic[] {
  const why = flags.once === true ? "--once" : flags.webhooks === false ? "--no-webhooks" : null;
  if (why === null) return [];
  const typed = [
    flags.port === undefined ? null : "--port",
    flags.host === undefined ? null : "--host",
    flags.secretEnv === undefined ? null : "--secret-env",
  ].filter((f): f is string => f !== null);
  return typed.map((flag) => ({
    severity: "error",
    code: "cli.usage",
    message: `${flag} configures the event listener, and ${why} runs none`,
    hint:
      why === "--once"
        ? `drop ${flag}: --once settles recorded events and polls (events need the long-running worker, without --once)`
        : `drop ${flag}, or drop --no-webhooks to listen for message.replied events`,
  }));
}

/** No project of `paths` has reply rules: nothing to run. */
export function noRules(paths: readonly string[]): Diagnostic {
  return {
    severity: "error",
    code: "replies.no-rules",
    message: `No project in ${paths.length === 0 ? "." : paths.join(", ")} has reply rules`,
    hint: "add `replies:` with rules to a project (or to `defaults`); docs/replies.md",
  };
}

/** The signing secrets' problems, with the way to run without them: polling only. */
export function withPollOnlyHint(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.map((d) => ({
    ...d,
    hint: `${d.hint ?? ""}; or poll only with --no-webhooks (inbounds are then answered within a minute or two)`,
  }));
}

/** `--state` (`shown`, as typed) cannot be created or opened. */
export function stateUnusable(shown: string, error: unknown): Diagnostic {
  return {
    severity: "error",
    code: "replies.state-unusable",
    message: `Cannot use the state directory ${shown}: ${error instanceof Error ? error.message : String(error)}`,
    hint: "give a writable directory with --state",
  };
}

/** The listener's record failing to open, in the worker's words (its lock guards the whole state directory). */
export function recordOpenFailure(diagnostic: Diagnostic): Diagnostic {
  return diagnostic.code === "webhooks.state-locked"
    ? { ...diagnostic, code: "replies.state-locked" }
    : { ...diagnostic, code: "replies.state-unusable" };
}

/** The event listener could not bind `host:port`. */
export function listenFailed(host: string, port: number, reason: string): Diagnostic {
  return {
    severity: "error",
    code: "webhooks.listen-failed",
    message: `Cannot listen on ${host}:${port}: ${reason}`,
    hint: "pick another --port (0: any free port), or poll only with --no-webhooks",
  };
}

/**
 * The warnings a run starts with: `--since` when a cursor already says where the first pass reads
 * from (it cannot take effect), and a record whose last line a kill cut short.
 */
export function startWarnings(facts: {
  /** `--since` in ms, when given. */
  readonly since: number | undefined;
  readonly cursor: PollCursor;
  /** Bytes of the torn last line cut off (0: none). */
  readonly torn: number;
  /** The state's files as the user names them. */
  readonly cursorFile: string;
  readonly answeredFile: string;
}): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (facts.since !== undefined && facts.cursor.updatedSince !== null)
    out.push({
      severity: "warning",
      code: "replies.since-unused",
      message: `--since is not used: ${facts.cursorFile} already reads from ${facts.cursor.updatedSince}`,
      hint: "--since sets only the first pass's window; to read further back, run `replies plan --since` to see the inbounds, or start with a new --state directory",
    });
  if (facts.torn > 0)
    out.push({
      severity: "warning",
      code: "replies.record-torn",
      message: `The last line of ${facts.answeredFile} was cut short (${facts.torn} bytes) by a kill: cut off`,
      hint: "that inbound is settled again from its thread: its answer, if it went out, is found there",
    });
  return out;
}

/** How a run ended, as its exit: 402 or a refused key stops with a failure; `--once` fails while an answer is unknown or a pass could not read. */
export function runSucceeded(
  summary: { readonly reason: string; readonly pending: number; readonly failedPasses: number },
  once: boolean,
): boolean {
  if (summary.reason === "insufficient-balance" || summary.reason === "key-refused") return false;
  return !(once && (summary.pending > 0 || summary.failedPasses > 0));
}

/** `replies plan --state`: the worker's state directory cannot be read. */
export function stateUnreadable(shown: string, error: unknown): Diagnostic {
  return {
    severity: "error",
    code: "replies.state-unusable",
    message: `Cannot read the state directory ${shown}: ${error instanceof Error ? error.message : String(error)}`,
  };
}

/** `replies plan --state`: the directory holds no answered record (`file`), so threads alone judge. */
export function recordMissing(shown: string, file: string): Diagnostic {
  return {
    severity: "warning",
    code: "replies.record-missing",
    message: `--state ${shown}: there is no ${file}: the plan judges every inbound by its thread alone`,
    hint: "give the --state directory of `replies run` (it writes answered.jsonl there once it has settled an inbound)",
  };
}
