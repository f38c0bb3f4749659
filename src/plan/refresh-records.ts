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

/**
 * Reads every id with `read`, at most `concurrency` at a time; the map is in the order of `ids`.
 * `laneOf` (keys per organization, issue 26): the organization whose key reads each id; the ids
 * are then read taking turns between organizations, `concurrency` per organization, so that every
 * key (own limiter) works at once.
 */
export async function readAll<T>(
  given: readonly string[],
  read: (id: string) => Promise<ApiResult<T>>,
  concurrency: number = READ_CONCURRENCY,
  laneOf?: (id: string) => string | undefined,
): Promise<Map<string, LiveRead<T>>> {
  const { ids, lanes } = laneOf === undefined ? { ids: given, lanes: 1 } : takingTurns(given, laneOf);
  concurrency *= lanes;
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
  const byId = new Map<string, LiveRead<T>>();
  for (const [index, id] of ids.entries()) {
    const read = results[index];
    if (read !== undefined) byId.set(id, read);
  }
  const map = new Map<string, LiveRead<T>>();
  for (const id of given) {
    const read = byId.get(id);
    if (read !== undefined) map.set(id, read);
  }
  return map;
}

/** `ids` round-robin over their lanes (each lane's ids in their order), and how many lanes. */
function takingTurns(
  ids: readonly string[],
  laneOf: (id: string) => string | undefined,
): { ids: string[]; lanes: number } {
  const queues = new Map<string, string[]>();
  for (const id of ids) {
    const lane = laneOf(id) ?? "";
    const queue = queues.get(lane) ?? [];
    queue.push(id);
    queues.set(lane, queue);
  }
  const out: string[] = [];
  const lists = [...queues.values()];
  for (let turn = 0; out.length < ids.length; turn++)
    for (const list of lists) {
      const id = list[turn];
      if (id !== undefined) out.push(id);
    }
  return { ids: out, lanes: Math.max(1, lists.length) };
}
