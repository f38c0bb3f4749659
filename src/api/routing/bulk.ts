/**
 * The reads no single owner's key answers alone: bulk reads go to every key in use at once and are
 * merged (first seen wins on a repeated id); a read by id of a record no route names tries each key
 * in use until one can see it. A key whose bulk read failed (its retries spent) while another's
 * succeeded fails only its own organization (`FailureMarks`), until that listing is read whole again.
 */

import type { CursorPage } from "../../contract/resources.js";
import type { ApiClient } from "../client.js";
import type { Endpoints } from "../endpoints.js";
import type { ApiError, ApiResult } from "../result.js";

/** The endpoints read over every key in use and merged (endpoint-table.ts). */
export type BulkEndpoint = keyof Pick<
  Endpoints,
  "listOrganizations" | "listTenDlcCampaigns" | "listContactLists" | "listPhoneNumbers" | "getProjectStats"
>;

/**
 * One bulk listing, as its failure is marked: the endpoint and what it lists (`filter`: its query
 * but the page and the dates), over `startDate`..`endDate` (a dated listing such as the statistics;
 * both absent for one that is not). A listing read page by page is one listing whatever its page.
 */
export interface Listing {
  readonly endpoint: BulkEndpoint;
  readonly filter: string;
  readonly startDate?: string;
  readonly endDate?: string;
}

/**
 * Whether a whole read of `read` answers for the listing marked failed as `marked`: the same listing
 * (the same dates), or the same endpoint and filter over a later end (the next day's read of a
 * dated listing stands in for the day before's; an older window read in the same pass does not).
 */
function answersFor(read: Listing, marked: Listing): boolean {
  if (read.endpoint !== marked.endpoint || read.filter !== marked.filter) return false;
  if (read.startDate === marked.startDate && read.endDate === marked.endDate) return true;
  return read.endDate !== undefined && marked.endDate !== undefined && marked.endDate < read.endDate;
}

/**
 * By client, the bulk listings whose last read failed. A mark is set when any page of a listing
 * fails for the client (its retries spent), and is cleared only when the listing is read again from
 * its first page and that page answers: a later page that answers never clears it, since the rows of
 * the page that failed are still missing.
 */
export class FailureMarks {
  private readonly failed = new Map<ApiClient, { readonly listing: Listing; readonly error: ApiError }[]>();

  /** The first failure marked against `client`, if any. */
  of(client: ApiClient): ApiError | undefined {
    return this.failed.get(client)?.[0]?.error;
  }

  mark(client: ApiClient, listing: Listing, error: ApiError): void {
    const marks = (this.failed.get(client) ?? []).filter((m) => !answersFor(listing, m.listing));
    this.failed.set(client, [...marks, { listing, error }]);
  }

  /** `listing` was read from its first page and that page answered for `client`. */
  clear(client: ApiClient, listing: Listing): void {
    const marks = this.failed.get(client)?.filter((m) => !answersFor(listing, m.listing)) ?? [];
    if (marks.length === 0) this.failed.delete(client);
    else this.failed.set(client, marks);
  }

  /** Every client with a bulk read failed, with its first failure. */
  all(): { readonly client: ApiClient; readonly error: ApiError }[] {
    return [...this.failed].flatMap(([client, marks]) => {
      const mark = marks[0];
      return mark === undefined ? [] : [{ client, error: mark.error }];
    });
  }
}

/** One page of a bulk listing: the listing, and whether it is its first page (a read of it anew). */
export interface BulkPage {
  readonly listing: Listing;
  readonly first: boolean;
}

/** An unpaged listing: every read is the whole of it. */
export function wholeListing(endpoint: BulkEndpoint): BulkPage {
  return { listing: { endpoint, filter: "" }, first: true };
}

/**
 * One bulk read over `clients`. A client other than `defaultClient` whose read failed while another
 * succeeded fails only its own organization: the listing is marked failed for it (its owners then
 * answer with that error, and nothing is sent for them) and the others' results go on; the mark holds
 * until the listing is read again from its first page and that page answers for it (watch's next
 * poll). A failure of the default client, or of every client, is the read's answer, as with one key.
 */
export async function gather<T>(
  clients: readonly ApiClient[],
  defaultClient: ApiClient | null,
  marks: FailureMarks,
  page: BulkPage,
  call: (client: ApiClient) => Promise<ApiResult<T>>,
): Promise<{ readonly client: ApiClient; readonly result: ApiResult<T> }[]> {
  const results = await Promise.all(clients.map(call));
  const anyOk = results.some((r) => r.ok);
  const kept: { client: ApiClient; result: ApiResult<T> }[] = [];
  results.forEach((result, i) => {
    const client = clients[i] as ApiClient;
    if (result.ok) {
      if (page.first) marks.clear(client, page.listing);
      kept.push({ client, result });
    } else if (anyOk && client !== defaultClient) marks.mark(client, page.listing, result.error);
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
