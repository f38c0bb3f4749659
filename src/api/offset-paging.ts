/**
 * Offset paging (`GET /projects/stats`): `limit` rows a page, `offset` the rows read before it,
 * `pagination.hasMore` true while more follow. The one page loop of the statistics: a caller's
 * listing (src/plan/refresh-stats.ts) and the router's read of each key (routing/merged-stats.ts).
 */
import type { ProjectStats } from "../contract/resources.js";
import type { ApiError, ApiNetworkError, ApiResult } from "./result.js";

/** A guard against a server whose `hasMore` never ends: 1,000 pages are a million rows. */
export const OFFSET_PAGES_MAX = 1000;

/** A listing read to its end: how many pages, and the last page's answer. */
export type OffsetPaged =
  | {
      readonly ok: true;
      readonly pages: number;
      readonly last: Extract<ApiResult<ProjectStats>, { ok: true }>;
    }
  | { readonly ok: false; readonly error: ApiError };

/**
 * Reads the page at offset 0, then each next one at the offset after the rows read so far, until
 * `hasMore` ends, handing each page to `onPage`; the first failure ends it. A listing that cannot
 * be read to its end is a failure, never a listing cut short in silence: a page that says more
 * follow yet holds no row (the next offset would be the same), or more pages than
 * {@link OFFSET_PAGES_MAX}, is `malformed-response`.
 */
export async function eachOffsetPage(
  read: (offset: number) => Promise<ApiResult<ProjectStats>>,
  onPage: (page: ProjectStats) => void,
): Promise<OffsetPaged> {
  let offset = 0;
  for (let page = 1; ; page++) {
    const result = await read(offset);
    if (!result.ok) return { ok: false, error: result.error };
    onPage(result.value);
    const rows = result.value.projects.length;
    offset += rows;
    if (!result.value.pagination.hasMore) return { ok: true, pages: page, last: result };
    if (rows === 0 || page >= OFFSET_PAGES_MAX)
      return {
        ok: false,
        error: endless(
          result.meta.attempts,
          rows === 0
            ? `page ${page} (offset ${offset}) holds no row but says more follow`
            : `more follow after ${page} pages (${offset} rows)`,
        ),
      };
  }
}

/** A statistics listing that cannot be read to its end: what the server answered is not a listing. */
function endless(attempts: number, why: string): ApiNetworkError {
  return {
    kind: "network",
    cause: "malformed-response",
    errorCode: null,
    status: 200,
    method: "GET",
    route: "GET /projects/stats",
    path: "/projects/stats",
    message: `GET /projects/stats: HTTP 200 but the listing has no end: ${why}`,
    outcome: "none",
    attempts,
  };
}
