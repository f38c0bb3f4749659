/**
 * Cursor paging (conversations, thread messages, email campaigns): `data` is `{data, has_more,
 * next_cursor}`; `next_cursor` is opaque and null on the last page.
 */
import type { CursorPage } from "../contract/resources.js";
import type { ApiResult, RequestIdentity } from "./result.js";

/** Fetches the page after `cursor` (null: the first page). */
export type PageFetcher<T> = (cursor: string | null) => Promise<ApiResult<CursorPage<T>>>;

/**
 * Yields every page in order until the last (`next_cursor` null or `has_more` false) or the first
 * failed result, which is yielded and ends the iteration. A server that repeats a cursor would loop
 * forever: that ends with a `malformed-response` error instead.
 */
export async function* pages<T>(
  identity: RequestIdentity,
  fetchPage: PageFetcher<T>,
): AsyncGenerator<ApiResult<CursorPage<T>>, void, void> {
  const seen = new Set<string>();
  let cursor: string | null = null;
  for (;;) {
    const result: ApiResult<CursorPage<T>> = await fetchPage(cursor);
    yield result;
    if (!result.ok) return;
    const next = result.value.next_cursor;
    if (next === null || next === "" || !result.value.has_more) return;
    if (seen.has(next)) {
      yield {
        ok: false,
        error: {
          ...identity,
          kind: "network",
          cause: "malformed-response",
          errorCode: null,
          status: result.meta.status,
          message: `${identity.method} ${identity.path}: the server repeated a page cursor`,
          outcome: "none",
          attempts: result.meta.attempts,
        },
      };
      return;
    }
    seen.add(next);
    cursor = next;
  }
}

/** Reads every page and concatenates the items; the first failure is returned instead. */
export async function collectPages<T>(
  identity: RequestIdentity,
  fetchPage: PageFetcher<T>,
): Promise<ApiResult<T[]>> {
  const items: T[] = [];
  let last: ApiResult<CursorPage<T>> | null = null;
  for await (const page of pages(identity, fetchPage)) {
    if (!page.ok) return page;
    items.push(...page.value.data);
    last = page;
  }
  if (last === null || !last.ok) throw new Error("collectPages: no page was fetched");
  return { ok: true, value: items, meta: last.meta };
}
