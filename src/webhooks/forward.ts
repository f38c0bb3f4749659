/**
 * `--forward-to URL`: hands each verified event on to the integrator's handler, as the API sent it
 * (the exact body bytes, Content-Type and the four X- headers, so the handler can verify the
 * signature itself), over undici, and reports the handler's status and time. Plain http is allowed
 * only to a loopback address, as for the API's base URL: events carry contacts' phone numbers and
 * texts. Each attempt carries `X-Campaignctl-Attempt` (1, 2, ...) and has the contract's 10 seconds;
 * retrying is the outbox's (forward-loop.ts). The handler must dedupe by X-Event-ID: an event can
 * reach it more than once (at least once).
 */
import type { Agent } from "undici";
import { isLoopbackHost } from "../api/config.js";
import { parseRetryAfter } from "../api/parse-response.js";
import { WEBHOOK_TIMEOUT_MS } from "../contract/limits.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { KEPT_HEADERS } from "./record.js";

/** The header that tells the handler which attempt this is (1 for the first). */
export const ATTEMPT_HEADER = "x-campaignctl-attempt";

/** Invariant: an ok `url` is an absolute http(s) URL without credentials, https unless to loopback. */
export type ForwardUrlCheck =
  | { readonly ok: true; readonly url: string }
  | { readonly ok: false; readonly diagnostic: Diagnostic };

export function checkForwardUrl(text: string): ForwardUrlCheck {
  const bad = (message: string, hint: string): ForwardUrlCheck => ({
    ok: false,
    diagnostic: { severity: "error", code: "webhooks.bad-forward-url", message, hint },
  });
  if (!URL.canParse(text))
    return bad(
      `--forward-to ${JSON.stringify(text)} is not a URL`,
      "Give an absolute URL such as http://127.0.0.1:3000/hooks",
    );
  const url = new URL(text);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return bad(`--forward-to uses ${url.protocol.slice(0, -1)}, not http or https`, "Give an http(s) URL");
  if (url.username !== "" || url.password !== "")
    return bad("--forward-to embeds credentials", "Remove user:password@ from the URL");
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname))
    return {
      ok: false,
      diagnostic: {
        severity: "error",
        code: "webhooks.insecure-forward-url",
        message: `--forward-to uses plain http to ${url.hostname}, which would expose contacts' numbers and texts`,
        hint: "Use https://, or http:// only to a loopback address (127.0.0.1, ::1, localhost)",
      },
    };
  return { ok: true, url: url.href };
}

/**
 * What the handler did with one event. Invariants: `status` set when it answered (any status),
 * `error` set when it did not (refused, reset, timeout); `ms` is the time from sending to its answer.
 */
export interface ForwardResult {
  readonly status: number | null;
  readonly error: string | null;
  readonly ms: number;
  /** The handler's Retry-After in milliseconds, or null. */
  readonly retryAfterMs: number | null;
}

/** What is forwarded: the delivery's kept headers (lower case) and its exact body bytes. */
export interface Forwardable {
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: Buffer;
}

export interface Forwarder {
  readonly url: string;
  forward(event: Forwardable, attempt: number): Promise<ForwardResult>;
  close(): Promise<void>;
}

export interface ForwarderOptions {
  /** Real milliseconds the handler has to answer (default: the contract's 10 s). */
  readonly timeoutMs?: number;
  /** A monotonic clock in milliseconds, for the time taken (default `performance.now`). */
  readonly elapsed?: () => number;
  /** The wall clock (ms since the epoch), to read a Retry-After given as a date. */
  readonly clock?: () => number;
}

/** A forwarder to `url` (checked by {@link checkForwardUrl}); undici is loaded with the first event. */
export function createForwarder(url: string, options: ForwarderOptions = {}): Forwarder {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const elapsed = options.elapsed ?? (() => performance.now());
  const clock = options.clock ?? (() => Date.now());
  const target = new URL(url);
  let agent: Promise<Agent> | undefined;
  const agentOf = (): Promise<Agent> => {
    agent ??= import("undici").then(
      ({ Agent }) =>
        new Agent({ connectTimeout: timeoutMs, headersTimeout: timeoutMs, bodyTimeout: timeoutMs }),
    );
    return agent;
  };
  return {
    url,
    async forward(event, attempt) {
      const headers: Record<string, string> = {
        "user-agent": "campaignctl-webhooks",
        [ATTEMPT_HEADER]: String(attempt),
      };
      for (const name of KEPT_HEADERS) {
        const value = event.headers[name];
        if (value !== undefined) headers[name] = value;
      }
      const dispatcher = await agentOf();
      const started = elapsed();
      const took = (): number => Math.max(0, Math.round(elapsed() - started));
      try {
        const response = await dispatcher.request({
          origin: target.origin,
          path: `${target.pathname}${target.search}`,
          method: "POST",
          headers,
          body: event.body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        await response.body.dump();
        const retryAfter = response.headers["retry-after"];
        const seconds = parseRetryAfter(typeof retryAfter === "string" ? retryAfter : null, clock());
        return {
          status: response.statusCode,
          error: null,
          ms: took(),
          retryAfterMs: seconds === null ? null : seconds * 1000,
        };
      } catch (error) {
        return { status: null, error: describe(error, timeoutMs), ms: took(), retryAfterMs: null };
      }
    },
    async close() {
      if (agent !== undefined) await (await agent).close();
    },
  };
}

/** A network failure in a few words: the error code (ECONNREFUSED, a timeout) or its message. */
function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
    return `no answer within ${timeoutMs} ms`;
  const code = codeOf(error);
  if (
    code === "UND_ERR_HEADERS_TIMEOUT" ||
    code === "UND_ERR_CONNECT_TIMEOUT" ||
    code === "UND_ERR_BODY_TIMEOUT"
  )
    return `no answer within ${timeoutMs} ms`;
  if (code !== null) return code;
  return error instanceof Error ? error.message : String(error);
}

function codeOf(error: unknown): string | null {
  if (error !== null && typeof error === "object") {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string") return code;
    const cause = (error as { cause?: unknown }).cause;
    if (cause !== undefined && cause !== error) return codeOf(cause);
  }
  return null;
}
