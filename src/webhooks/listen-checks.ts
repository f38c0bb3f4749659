/**
 * What `webhooks listen` decides around its listener, as data (pure): a forward limit given without
 * `--forward-to`, the outbox's limits from the flags, a port it cannot bind, and the notes a start
 * carries about the record it reopened (a torn or unreadable line, events flushed but never
 * printed). The command (cli/commands/webhooks-listen.ts) gathers the inputs and prints these.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { DEFAULT_FORWARD_LIMITS, type ForwardLimits } from "./outbox.js";
import type { ListenerNote } from "./receiver.js";
import type { Recovery } from "./record-store.js";
import { recoveredEvent } from "./recover.js";
import type { WebhookSecret } from "./types.js";

/** The forwarding flags of `webhooks listen`. */
export interface ForwardFlags {
  readonly forwardTo?: string;
  readonly forwardMaxAttempts?: number;
  /** In ms. */
  readonly forwardMaxAge?: number;
}

/** `--forward-max-attempts` or `--forward-max-age` without `--forward-to`: a limit of nothing. */
export function forwardLimitAlone(flags: ForwardFlags): Diagnostic | null {
  if (flags.forwardTo !== undefined) return null;
  if (flags.forwardMaxAttempts === undefined && flags.forwardMaxAge === undefined) return null;
  return {
    severity: "error",
    code: "webhooks.forward-flag-alone",
    message: `${flags.forwardMaxAttempts !== undefined ? "--forward-max-attempts" : "--forward-max-age"} limits the outbox of --forward-to, which is not given`,
    hint: "Add --forward-to URL, or leave the limit out",
  };
}

/** The outbox's limits: the defaults, the tuning's delays, then the flags. */
export function forwardLimits(
  flags: ForwardFlags,
  delays: Partial<Pick<ForwardLimits, "baseDelayMs" | "maxDelayMs">> = {},
): ForwardLimits {
  return {
    ...DEFAULT_FORWARD_LIMITS,
    ...delays,
    ...(flags.forwardMaxAttempts === undefined ? {} : { maxAttempts: flags.forwardMaxAttempts }),
    ...(flags.forwardMaxAge === undefined ? {} : { maxAgeMs: flags.forwardMaxAge }),
  };
}

/** The listener could not bind `host:port` (`code`: the system's, such as EADDRINUSE). */
export function listenerBindFailed(
  host: string,
  port: number,
  failure: { readonly message: string; readonly code?: string | null },
): Diagnostic {
  return {
    severity: "error",
    code: "webhooks.listen-failed",
    message: `Cannot listen on ${host}:${port}: ${failure.message}`,
    hint:
      failure.code === "EADDRINUSE"
        ? "Another process uses that port: pick another with --port (0: any free port)"
        : "Check --host (an address of this machine) and --port",
  };
}

/**
 * The notes a start prints after its first line, about the record it reopened (`shown`: its path as
 * the user names it): a torn last line, lines not understood, and the events the previous run
 * flushed but did not live to print (printed now, once, marked recovered).
 */
export function recoveryNotes(
  recovery: Recovery,
  shown: string,
  secrets: readonly WebhookSecret[],
  at: number,
): ListenerNote[] {
  const notes: ListenerNote[] = [];
  if (recovery.torn > 0)
    notes.push({
      type: "problem",
      at,
      diagnostic: {
        severity: "warning",
        code: "webhooks.record-torn",
        message: `The last line of ${shown} was cut short (${recovery.torn} bytes, a write the previous run did not finish): cut off`,
        hint: "Its event was never acknowledged: the sender delivers it again",
      },
    });
  if (recovery.skipped > 0)
    notes.push({
      type: "problem",
      at,
      diagnostic: {
        severity: "warning",
        code: "webhooks.record-skipped",
        message: `${recovery.skipped} line${recovery.skipped === 1 ? "" : "s"} of ${shown} not understood: skipped`,
      },
    });
  for (const recorded of recovery.unprinted)
    notes.push({ type: "accepted", at, event: recoveredEvent(recorded, secrets), recovered: true });
  return notes;
}
