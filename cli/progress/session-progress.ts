/**
 * Opening a session whose requests are counted on stderr (`plan`, `preview --html` with a
 * connection): the request progress of `request-progress.ts` hears every event of the client, and
 * so does the caller's own `onEvent` (tests, benchmarks). Its elapsed time is on this machine's
 * clock (`io.clock`), as every progress line's, whatever clock the client or the API keeps.
 */
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { openSession, type Session, type SessionFlags, type SessionOptions } from "../gather/session.js";
import type { Io } from "../output/io.js";
import { createRequestProgress, type RequestProgressWriter } from "./request-progress.js";

/**
 * An opened session with its progress writer (call `progress.finish()` before writing the report),
 * or the problems that kept it from opening (no request was made then).
 */
export type SessionWithProgress =
  | { readonly ok: true; readonly session: Session; readonly progress: RequestProgressWriter }
  | { readonly ok: false; readonly diagnostics: Diagnostic[] };

/** Opens the session the flags describe, its progress lines saying `label` ("plan", "preview"). */
export async function openSessionWithProgress(
  flags: SessionFlags,
  io: Io,
  label: string,
  options: SessionOptions = {},
): Promise<SessionWithProgress> {
  const progress = createRequestProgress(io, label, io.clock);
  const opened = await openSession(flags, io, {
    ...options,
    onEvent: (event) => {
      progress.onEvent(event);
      options.onEvent?.(event);
    },
  });
  return opened.ok ? { ok: true, session: opened.session, progress } : opened;
}

/**
 * The requests a minute the session's keys in use may make: each key's rate limit (its
 * `X-RateLimit-Limit` once a response said it, the contract's 100 before), added up over the keys
 * the routes use (or the one key). The contract's window is one minute. For the estimate of the
 * time left in apply's live view.
 */
export function requestsPerMinute(session: Session): number {
  const clients = session.router?.inUse() ?? [session.client];
  return clients.reduce((sum, client) => sum + client.stats().rateLimiter.limit, 0);
}
