/**
 * The bulk half of a refresh: every project's `status` and `updated_at` from `GET /projects/stats`,
 * `limit=1000` with `offset` paging, over date windows that are valid under the strictest reading
 * of the contract ("at most 31 days; not older than 90 days").
 *
 * Windows (UTC calendar days, both ends inclusive; `t` is today on the plan's clock):
 * `[t-30, t]`, `[t-61, t-31]`, `[t-89, t-62]`. Each spans at most 31 inclusive days (end - start is
 * at most 30 days, where the sandbox, like the most lenient reading, admits 31), none starts more
 * than 89 days ago (90 inclusive days counting today), and together they cover every day from
 * `t-89` to `t`. A window selects a project whose life overlaps it (created before the end of the
 * last day, `updated_at` on or after the first day; see the sandbox's `routes/project-stats.ts`),
 * so the newest window alone lists every project updated in the last 31 days; older windows are
 * read only while some project of the campaign has not been listed yet.
 */

import type { ApiError, ApiResult, ProjectStatsParams } from "../api/index.js";
import { eachOffsetPage } from "../api/offset-paging.js";
import { STATS_LIMIT_MAX } from "../contract/limits.js";
import type { ProjectStats } from "../contract/resources.js";
import type { ArmCounters } from "../experiments/verdict.js";
import type { StatsFact } from "./cache.js";

const DAY_MS = 86_400_000;

/** One stats window: `YYYY-MM-DD` days, both inclusive, and the first day's start in ms. */
export interface StatsWindow {
  readonly startDate: string;
  readonly endDate: string;
  readonly startMs: number;
}

/** The three windows, newest first, for the UTC day of `now`. */
export function statsWindows(now: Date): readonly StatsWindow[] {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const window = (fromDaysAgo: number, toDaysAgo: number): StatsWindow => {
    const startMs = today - fromDaysAgo * DAY_MS;
    return { startDate: day(startMs), endDate: day(today - toDaysAgo * DAY_MS), startMs };
  };
  return [window(30, 0), window(61, 31), window(89, 62)];
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Reads one page of stats (the client's `getProjectStats`). */
export type StatsReader = (params: ProjectStatsParams) => Promise<ApiResult<ProjectStats>>;

/**
 * What the stats listing said. `facts` holds a row for every wanted project that some window
 * listed; `coveredSinceMs` is the first instant of the oldest window read (a wanted project
 * absent from `facts` was not updated since then).
 */
export type StatsOutcome =
  | { readonly ok: true; readonly facts: ReadonlyMap<string, StatsFact>; readonly coveredSinceMs: number }
  | { readonly ok: false; readonly error: ApiError };

/**
 * Lists every page of one window (`limit` 1,000, by offset, until `hasMore` ends), handing each
 * page's rows to `onRows`; the number of pages read, or the first error. The one stats listing of
 * a window (the plan's refresh, apply's basis, status, watch), over the one page loop
 * (src/api/offset-paging.ts).
 */
export async function listStatsWindow(
  read: StatsReader,
  window: Pick<StatsWindow, "startDate" | "endDate">,
  onRows: (rows: ProjectStats["projects"]) => void,
): Promise<{ readonly ok: true; readonly pages: number } | { readonly ok: false; readonly error: ApiError }> {
  const listed = await eachOffsetPage(
    (offset) =>
      read({ startDate: window.startDate, endDate: window.endDate, limit: STATS_LIMIT_MAX, offset }),
    (page) => onRows(page.projects),
  );
  return listed.ok ? { ok: true, pages: listed.pages } : listed;
}

/**
 * Lists windows, newest first, until every id in `wanted` has a row or the windows run out. Keeps
 * only the rows of wanted projects (memory stays proportional to the campaign).
 */
export async function readStats(
  read: StatsReader,
  wanted: ReadonlySet<string>,
  now: Date,
): Promise<StatsOutcome> {
  const facts = new Map<string, StatsFact>();
  let coveredSinceMs = now.getTime();
  for (const [index, window] of statsWindows(now).entries()) {
    if (index > 0 && facts.size >= wanted.size) break;
    const listed = await listStatsWindow(read, window, (rows) => {
      for (const row of rows) {
        // Windows overlap in what they select; the newest listing of a project wins (rows of the
        // same read agree, and an older window can only repeat it).
        if (wanted.has(row.id) && !facts.has(row.id))
          facts.set(row.id, { status: row.status, updated_at: row.updated_at, counters: countersOf(row) });
      }
    });
    if (!listed.ok) return { ok: false, error: listed.error };
    coveredSinceMs = window.startMs;
  }
  return { ok: true, facts, coveredSinceMs };
}

/** The counters of a stats row an experiment's verdict reads. */
export function countersOf(row: ProjectStats["projects"][number]): ArmCounters {
  return {
    sent: row.messages_sent,
    delivered: row.messages_delivered,
    replies: row.replies_received,
    optedOut: row.messages_opted_out,
    uniqueClicks: row.unique_url_clicks,
  };
}
