/**
 * The replies port as the worker uses it (issue 34): every call ends as soon as the run is stopped
 * (Ctrl-C, SIGTERM), whatever the API or the network does meanwhile: a response held for minutes,
 * a 429's `Retry-After`, a connection that never answers. The call then fails with a network error
 * (`errorCode` {@link STOPPED_CODE}); a reply stopped that way has an unknown outcome, exactly as if
 * the process had been killed while it was in flight, and is settled by the next run from the
 * thread and the Idempotency-Key. The request itself is left to the client, which the command
 * closes on its way out. Pure apart from the wrapped port.
 */
import type { ApiError, ApiResult } from "../api/index.js";
import type { RepliesPort } from "./port.js";

/** The `errorCode` of a call the stop cut short. */
export const STOPPED_CODE = "REPLIES_STOPPED";

export function abortablePort(port: RepliesPort, signal: AbortSignal): RepliesPort {
  const place = port.placeConversation?.bind(port);
  return {
    // The routing port learns each conversation's project before its answer: passed through.
    ...(place === undefined ? {} : { placeConversation: place }),
    listConversations: (query, cursor) =>
      race(
        () => port.listConversations(query, cursor),
        signal,
        stopped("GET", "GET /conversations", "/conversations", "none"),
      ),
    getConversationMessages: (conversationId, query) =>
      race(
        () => port.getConversationMessages(conversationId, query),
        signal,
        stopped("GET", "GET /conversations/{id}/messages", threadPath(conversationId), "none"),
      ),
    // Not sent at all once stopped: nothing happened (`none`); cut short in flight: unknown.
    replyToConversation: (conversationId, text, idempotencyKey) =>
      race(
        () => port.replyToConversation(conversationId, text, idempotencyKey),
        signal,
        stopped("POST", "POST /conversations/{id}/messages", threadPath(conversationId), "unknown"),
        stopped("POST", "POST /conversations/{id}/messages", threadPath(conversationId), "none"),
      ),
  };
}

function threadPath(conversationId: string): string {
  return `/conversations/${encodeURIComponent(conversationId)}/messages`;
}

function stopped(
  method: "GET" | "POST",
  route: string,
  path: string,
  outcome: ApiError["outcome"],
): ApiError {
  return {
    kind: "network",
    cause: "other",
    errorCode: STOPPED_CODE,
    status: null,
    message: `${route}: the run was stopped${outcome === "unknown" ? " while it was in flight (the reply may have been sent: the next run settles it from the thread)" : " before it was answered, or before it was sent"}`,
    outcome,
    attempts: 1,
    method,
    route,
    path,
  };
}

/**
 * The call's result, or `inFlight` as soon as `signal` is aborted; when it already is, the call is
 * not made and the result is `before` (default `inFlight`).
 */
function race<T>(
  call: () => Promise<ApiResult<T>>,
  signal: AbortSignal,
  inFlight: ApiError,
  before: ApiError = inFlight,
): Promise<ApiResult<T>> {
  if (signal.aborted) return Promise.resolve({ ok: false, error: before });
  const pending = call();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve({ ok: false, error: inFlight });
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then(
      (result) => {
        signal.removeEventListener("abort", onAbort);
        resolve(result);
      },
      (failure: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(failure);
      },
    );
  });
}
