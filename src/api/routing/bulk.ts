/**
 * The reads no single owner's key answers alone: bulk reads go to every key in use at once and are
 * merged (first seen wins on a repeated id); a read by id of a record no route names tries each key
 * in use until one can see it. A key whose bulk read failed (its retries spent) while another's
 * succeeded fails only its own organization (`FailureMarks`).
 */

import type { CursorPage } from "../../contract/resources.js";
import type { ApiClient } from "../client.js";
import type { ApiError, ApiResult } from "../result.js";

/** By client, the bulk reads whose last try failed, by endpoint. */
export class FailureMarks {
  private readonly failed = new Map<ApiClient, Map<string, ApiError>>();

  /** The first failure marked against `client`, if any. */
  of(client: ApiClient): ApiError | undefined {
    return this.failed.get(client)?.values().next().value;
  }

  mark(client: ApiClient, endpoint: string, error: ApiError): void {
    const marks = this.failed.get(client) ?? new Map<string, ApiError>();
    marks.set(endpoint, error);
    this.failed.set(client, marks);
  }

  clear(client: ApiClient, endpoint: string): void {
    this.failed.get(client)?.delete(endpoint);
  }

  /** Every client with a bulk read failed, with its first failure. */
  all(): { readonly client: ApiClient; readonly error: ApiError }[] {
    return [...this.failed.keys()].flatMap((client) => {
      const error = this.of(client);
      return error === undefined ? [] : [{ client, error }];
    });
  }
}

/**
 * One bulk read over `clients`. A client other than `defaultClient` whose read failed while another
 * succeeded fails only its own organization: the read is marked failed for it (its owners then answer
 * with that error, and nothing is sent for them) and the others' results go on; the mark holds
 * until the same read succeeds for it again (watch's next poll). A failure of the default client, or
 * of every client, is the read's answer, as with one key.
 */
export async function gather<T>(
  clients: readonly ApiClient[],
  defaultClient: ApiClient | null,
  marks: FailureMarks,
  endpoint: string,
  call: (client: ApiClient) => Promise<ApiResult<T>>,
): Promise<{ readonly client: ApiClient; readonly result: ApiResult<T> }[]> {
  const results = await Promise.all(clients.map(call));
  const anyOk = results.some((r) => r.ok);
  const kept: { client: ApiClient; result: ApiResult<T> }[] = [];
  results.forEach((result, i) => {
    const client = clients[i] as ApiClient;
    if (result.ok) {
      marks.clear(client, endpoint);
      kept.push({ client, result });
    } else if (anyOk && client !== defaultClient) marks.mark(client, endpoint, result.error);
    else kept.push({ client, result });
  });
  return kept;
}

/** The items of several answers, first seen wins on a repeated id; the first failure instead. */
export function mergeItems<T>(
  results: readonly ApiResult<readonly T[]>[],
  idOf: (item: T) => string,
  none: ApiError,
): ApiResult<T[]> {
  const out: T[] = [];
  const seen = new Set<string>();
  for (const result of results) {
    if (!result.ok) return result;
    for (const item of result.value)
      if (!seen.has(idOf(item))) {
        seen.add(idOf(item));
        out.push(item);
      }
  }
  const head = results[0];
  if (head === undefined || !head.ok) return { ok: false, error: none };
  return { ok: true, value: out, meta: head.meta };
}

/** Tries each client in turn until one can see the record (403 and 404 move on to the next). */
export async function firstVisible<T>(
  clients: readonly ApiClient[],
  call: (client: ApiClient) => Promise<ApiResult<T>>,
  none: ApiError,
): Promise<{ readonly client: ApiClient | null; readonly result: ApiResult<T> }> {
  let last: { client: ApiClient | null; result: ApiResult<T> } = {
    client: null,
    result: { ok: false, error: none },
  };
  for (const client of clients) {
    const result = await call(client);
    last = { client, result };
    if (
      result.ok ||
      result.error.kind !== "http" ||
      (result.error.status !== 403 && result.error.status !== 404)
    )
      return last;
  }
  return last;
}

/**
 * Every page of one client's cursor listing, as one page: its items in order, `has_more` false. A
 * server that repeats a cursor ends the read (the last page read stands as the end).
 */
export async function allPages<T>(
  fetchPage: (cursor: string | null) => Promise<ApiResult<CursorPage<T>>>,
): Promise<ApiResult<CursorPage<T>>> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | null = null;
  for (;;) {
    const page: ApiResult<CursorPage<T>> = await fetchPage(cursor);
    if (!page.ok) return page;
    items.push(...page.value.data);
    const next = page.value.next_cursor;
    if (!page.value.has_more || next === null || next === "" || seen.has(next))
      return { ...page, value: { ...page.value, data: items, has_more: false, next_cursor: null } };
    seen.add(next);
    cursor = next;
  }
}
