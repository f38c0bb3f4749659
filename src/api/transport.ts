/**
 * The IO edge: one HTTP exchange over an undici Agent (keep-alive, connect/headers/body timeouts).
 * Returns the raw response or a classified transport failure; never throws for network problems.
 */
import type { Agent, Dispatcher } from "undici";
import type { HeaderMap } from "./parse-response.js";
import type { HttpMethod, NetworkCause } from "./result.js";

/** Transport timeouts in ms. */
export interface Timeouts {
  readonly connectMs: number;
  readonly headersMs: number;
  readonly bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 };

/** One exchange's result: a complete response (body read as text) or a transport failure. */
export type Exchange =
  | { readonly kind: "response"; readonly status: number; readonly headers: HeaderMap; readonly text: string }
  | { readonly kind: "failure"; readonly cause: NetworkCause; readonly errorCode: string | null };

export interface OutgoingRequest {
  readonly origin: string;
  /** Path and query, already encoded. */
  readonly path: string;
  readonly method: HttpMethod;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
}

/** Owns the connection pool. `close()` destroys it (in-flight requests fail). */
export interface Transport {
  send(request: OutgoingRequest): Promise<Exchange>;
  close(): Promise<void>;
}

const TLS_CODES = new Set([
  "CERT_HAS_EXPIRED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "EPROTO",
]);

function errorCodeOf(error: unknown): string | null {
  if (error !== null && typeof error === "object") {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string") return code;
    const cause = (error as { cause?: unknown }).cause;
    if (cause !== undefined && cause !== error) return errorCodeOf(cause);
  }
  return null;
}

/** Maps an error code from undici or Node's net/tls/dns to a cause. */
export function classifyTransportError(code: string | null): NetworkCause {
  if (code === null) return "other";
  if (code === "ECONNREFUSED") return "connection-refused";
  if (code === "ECONNRESET" || code === "EPIPE" || code === "UND_ERR_SOCKET" || code === "ECONNABORTED") {
    return "connection-reset";
  }
  if (
    code === "UND_ERR_CONNECT_TIMEOUT" ||
    code === "UND_ERR_HEADERS_TIMEOUT" ||
    code === "UND_ERR_BODY_TIMEOUT" ||
    code === "ETIMEDOUT"
  ) {
    return "timeout";
  }
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "dns";
  if (TLS_CODES.has(code) || code.startsWith("ERR_TLS_") || code.startsWith("ERR_SSL_")) return "tls";
  if (code === "UND_ERR_RES_CONTENT_LENGTH_MISMATCH" || code === "HPE_INVALID_CONSTANT")
    return "malformed-response";
  return "other";
}

/**
 * The two parts of undici a transport uses, its `Agent` and its `request` (lib/api/api-request.js,
 * the `agent.request` of undici's index), loaded with the first request of the process, not with
 * the program: commands that never talk to the API (validate, preview) start that much faster.
 * Not undici's index, which loads every other part with them (fetch, WebSocket, cookies, mocks,
 * caches, proxies) and, through its cookies, Node's own copy of undici: about 80 ms of CPU a process
 * (bench/README.md, "Issue 35, eighth session: i40-procs"). Kept for the process's later transports
 * (in-process runs, the test suite's: each `import()` under its module runner is a call to the
 * runner's main process).
 */
let undici:
  | Promise<{
      readonly Agent: typeof Agent;
      readonly request: (this: Agent, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
    }>
  | undefined;

function loadUndici(): NonNullable<typeof undici> {
  undici ??= Promise.all([
    import("undici/lib/dispatcher/agent.js"),
    import("undici/lib/api/api-request.js"),
  ]).then(([agent, api]) => ({ Agent: agent.default, request: api.default }));
  return undici;
}

/** Creates the undici-backed transport (undici loaded at its first request: see above). */
export function createTransport(timeouts: Timeouts = DEFAULT_TIMEOUTS): Transport {
  let agent: Promise<Agent> | undefined;
  const agentOf = (): Promise<Agent> => {
    agent ??= loadUndici().then(
      ({ Agent }) =>
        new Agent({
          keepAliveTimeout: 10_000,
          keepAliveMaxTimeout: 60_000,
          connectTimeout: timeouts.connectMs,
          headersTimeout: timeouts.headersMs,
          bodyTimeout: timeouts.bodyMs,
          connections: 16,
        }),
    );
    return agent;
  };
  return {
    async send(request) {
      const client = await agentOf();
      const { request: requestOn } = await loadUndici();
      try {
        const response = await requestOn.call(client, {
          origin: request.origin,
          path: request.path,
          method: request.method,
          headers: request.headers,
          body: request.body,
        });
        // The body must always be consumed, or the keep-alive socket is held.
        const text = await response.body.text();
        return { kind: "response", status: response.statusCode, headers: response.headers, text };
      } catch (error) {
        const errorCode = errorCodeOf(error);
        // A bad argument or a closed agent is a bug in this program, not a network condition.
        if (
          errorCode === "UND_ERR_INVALID_ARG" ||
          errorCode === "UND_ERR_DESTROYED" ||
          errorCode === "UND_ERR_CLOSED"
        ) {
          throw error;
        }
        return { kind: "failure", cause: classifyTransportError(errorCode), errorCode };
      }
    },
    async close() {
      if (agent !== undefined) await (await agent).destroy();
    },
  };
}
