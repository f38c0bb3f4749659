/**
 * `GET /projects/stats` over every key in use (endpoint-table.ts). With one key in use, its pages
 * as the caller asks them. With several, each key's listing is read to its end, each key by its own
 * offset, and the rows are merged by id into one last page (`hasMore` false): the caller's offset
 * counts the merged rows, which is no key's own offset, so paging the keys by it skipped rows of
 * every key with more than a page (two counties of 1,001 projects listed 2,000, exit 0).
 *
 * A key whose listing failed on any page (its retries spent) while the others answered is marked
 * failed for the listing (bulk.ts) and its rows are left out; the mark is cleared when the listing
 * is read again and the key's first page answers (with several keys: its whole listing).
 */
import type { ProjectStats } from "../../contract/resources.js";
import type { ApiClient } from "../client.js";
import type { ProjectStatsParams } from "../endpoints.js";
import { eachOffsetPage } from "../offset-paging.js";
import type { ApiResult, RequestIdentity } from "../result.js";
import { type BulkPage, gather, type Listing } from "./bulk.js";
import type { Dispatch } from "./dispatch.js";

const STATS: RequestIdentity = { method: "GET", route: "GET /projects/stats", path: "/projects/stats" };

/** GET /projects/stats as a listing: its filters and its dates, whatever its page. */
function statsListing(params: ProjectStatsParams | undefined): Listing {
  const { startDate, endDate, offset: _offset, limit: _limit, ...filters } = params ?? {};
  const filter = Object.entries(filters)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  return {
    endpoint: "getProjectStats",
    filter,
    ...(startDate === undefined ? {} : { startDate }),
    ...(endDate === undefined ? {} : { endDate }),
  };
}

/** A page of GET /projects/stats: its listing, and whether it is the first. */
function statsPage(params: ProjectStatsParams | undefined): BulkPage {
  return { listing: statsListing(params), first: (params?.offset ?? 0) === 0 };
}

/** One key's listing from offset 0 to its last page, as one page; the first failure instead. */
async function wholeListing(
  client: ApiClient,
  params: ProjectStatsParams | undefined,
): Promise<ApiResult<ProjectStats>> {
  const rows: ProjectStats["projects"] = [];
  const listed = await eachOffsetPage(
    (offset) => client.getProjectStats({ ...params, offset }),
    (page) => rows.push(...page.projects),
  );
  if (!listed.ok) return listed;
  const { value } = listed.last;
  return {
    ...listed.last,
    value: { ...value, projects: rows, pagination: { ...value.pagination, offset: 0, hasMore: false } },
  };
}

/** GET /projects/stats over every key in use: rows merged by id, counts added. */
export async function projectStats(
  d: Dispatch,
  params: ProjectStatsParams | undefined,
): Promise<ApiResult<ProjectStats>> {
  const clients = d.inUse();
  const page = statsPage(params);
  if (clients.length > 1 && !page.first)
    throw new Error("getProjectStats: a listing merged over several keys is one page; no offset follows it");
  const kept =
    clients.length > 1
      ? await gather(clients, d.defaultClient, d.marks, page, (c) => wholeListing(c, params))
      : await gather(clients, d.defaultClient, d.marks, page, (c) => c.getProjectStats(params));
  const [head] = kept;
  if (head === undefined) return { ok: false, error: d.none(STATS) };
  if (!head.result.ok) return head.result;
  const rows = new Map<string, ProjectStats["projects"][number]>();
  let hasMore = false;
  let totalCount = 0;
  for (const { result } of kept) {
    if (!result.ok) return result;
    for (const row of result.value.projects) if (!rows.has(row.id)) rows.set(row.id, row);
    hasMore ||= result.value.pagination.hasMore;
    totalCount += result.value.pagination.totalCount;
  }
  d.learnStatsRows([...rows.values()]);
  const value = head.result.value;
  return {
    ...head.result,
    value: {
      ...value,
      projects: [...rows.values()],
      pagination: { ...value.pagination, hasMore, totalCount },
    },
  };
}
