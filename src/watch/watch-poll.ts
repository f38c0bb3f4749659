/**
 * The reads of one poll of `watch`, through the API client's endpoint functions, in as few requests
 * as the contract allows; what to read by id is decided before (`watch-decide.ts` `readsById`, within
 * the budget of `watch-budget.ts`):
 *
 * - `GET /organizations` on the first poll only (it confirms the key and names organizations).
 * - `GET /projects/stats`, `limit=1000`, page after page by `offset`, newest window first, keeping
 *   the rows of the campaign files' projects; an older window is read only while some `wanted`
 *   project has no row (`listRows`): on the first poll every project of the files, later only the
 *   sending ones. A project that is sending was scheduled or went active (a status change, which
 *   moves `updated_at`) within the last 31 days in every ordinary case, so a later poll is the
 *   newest window: one page per 1,000 rows.
 * - `GET /projects/{id}` for the ids it is handed (`byId`, at most what the budget allows), chosen
 *   from those no row lists; never guessed.
 */
import type { ApiError } from "../api/index.js";
import type { Organization, Project, ProjectStatsRow } from "../contract/resources.js";
import type { LiveRead } from "../plan/live.js";
import { readAll } from "../plan/refresh-records.js";
import { statusRange } from "../status/range.js";
import { listRows, type StatusReader } from "../status/read-live.js";

/** The endpoint functions a poll reads through. */
export type PollReader = StatusReader;

export interface PollPlan {
  /** Read `GET /organizations` (the first poll). */
  readonly organizations: boolean;
  /** Every project of the files: the rows kept. */
  readonly tracked: ReadonlySet<string>;
  /** Projects whose missing row makes an older window worth reading; empty: the newest window alone. */
  readonly wanted: ReadonlySet<string>;
}

/** The statistics part of a poll. Invariant: `rows` holds only tracked projects. */
export type StatsRead =
  | {
      readonly ok: true;
      readonly organizations: readonly Organization[] | null;
      readonly rows: ReadonlyMap<string, ProjectStatsRow>;
      readonly statsPages: number;
      /** Windows read (1 unless a wanted project had no row in the newest). */
      readonly windows: number;
    }
  | { readonly ok: false; readonly error: ApiError; readonly first: boolean };

/** Reads the organizations (first poll) and the statistics rows at `now` (the API's clock). */
export async function readStats(reader: PollReader, now: () => Date, plan: PollPlan): Promise<StatsRead> {
  let organizations: readonly Organization[] | null = null;
  if (plan.organizations) {
    const orgs = await reader.listOrganizations();
    if (!orgs.ok) return { ok: false, error: orgs.error, first: true };
    organizations = orgs.value;
  }
  const ranged = statusRange(now(), undefined);
  if (!ranged.ok) throw new Error(`statusRange without --since failed: ${ranged.diagnostic.message}`);
  const newest = ranged.range.windows.slice(0, 1);
  const range = plan.wanted.size === 0 ? { ...ranged.range, windows: newest } : ranged.range;
  let windows = 0;
  const listed = await listRows(
    reader,
    range,
    (row) => plan.tracked.has(row.id),
    plan.wanted.size === 0 ? null : plan.wanted,
    () => windows++,
  );
  if (!listed.ok) return { ok: false, error: listed.error, first: plan.organizations };
  return {
    ok: true,
    organizations,
    rows: listed.rows,
    statsPages: listed.pages,
    windows: Math.max(1, windows),
  };
}

/** Reads `ids` by id (the client's rate limiter paces them). */
export function readById(
  reader: PollReader,
  ids: readonly string[],
): Promise<Map<string, LiveRead<Project>>> {
  return readAll(ids, (id) => reader.getProject(id));
}
