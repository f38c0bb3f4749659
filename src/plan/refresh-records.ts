/**
 * Reads records by id for a refresh, a few at a time (the client's shared rate limiter decides when
 * each goes), and turns each outcome into a `LiveRead`. No retries here: the client already follows
 * the contract's retry guidance.
 */
import type { ApiError, ApiResult } from "../api/index.js";
import type { LiveRead } from "./live.js";

/** Requests in flight at once: enough to hide latency, few enough to stay polite. */
export const READ_CONCURRENCY = 8;

/** The outcome of a failed read by id, as the planner sees it (messages carry no key). */
export function failedRead<T>(error: ApiError): LiveRead<T> {
  if (error.kind === "http") {
    if (error.status === 404) return { kind: "not-found" };
    if (error.status === 403) return { kind: "forbidden", message: `${error.code}: ${error.message}` };
    return { kind: "error", code: error.code, message: error.message };
  }
  return { kind: "error", code: error.cause, message: error.message };
}

/** Reads every id with `read`, at most `concurrency` at a time; the map is in the order of `ids`. */
export async function readAll<T>(
  ids: readonly string[],
  read: (id: string) => Promise<ApiResult<T>>,
  concurrency: number = READ_CONCURRENCY,
): Promise<Map<string, LiveRead<T>>> {
  const results: (LiveRead<T> | undefined)[] = new Array(ids.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const index = next++;
      const id = ids[index];
      if (id === undefined) return;
      const result = await read(id);
      results[index] = result.ok ? { kind: "found", value: result.value } : failedRead<T>(result.error);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, worker));
  const map = new Map<string, LiveRead<T>>();
  for (const [index, id] of ids.entries()) {
    const read = results[index];
    if (read !== undefined) map.set(id, read);
  }
  return map;
}
