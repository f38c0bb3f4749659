/**
 * The basis of a mutating request: the project as read in this run, shortly before the request
 * (issue 9: every test, schedule and pause rests on a fresh read, never on the cache).
 *
 * One round's reads, as few as the contract allows:
 * 1. `GET /projects/stats` (the planner's windows, `limit=1000`): one request lists the status and
 *    `updated_at` of up to a thousand projects.
 * 2. A project whose stats row shows the same status and `updated_at` (as instants) as the detail
 *    held is confirmed: that detail is the project as it is now (any edit moves `updated_at`).
 * 3. `GET /projects/{id}` for every other project: one the stats rows do not list (the contract
 *    does not say what the stats date range filters on, so absence proves nothing), one whose row
 *    differs, one this run sent to since it was last read, one held as unreadable.
 *
 * So when nothing changed, confirming the basis of up to a thousand projects costs one request.
 */
import type { ApiClient } from "../api/index.js";
import type { Project } from "../contract/resources.js";
import { sameVersion } from "../plan/cache.js";
import type { LiveRead } from "../plan/live.js";
import { readAll } from "../plan/refresh-records.js";
import { readStats } from "../plan/refresh-stats.js";

/** The client functions a basis read uses. */
export type BasisReader = Pick<ApiClient, "getProjectStats" | "getProject">;

export interface BasisRead {
  /** A read made in this round for every id asked for. */
  readonly projects: ReadonlyMap<string, LiveRead<Project>>;
  /** Requests this round made (stats pages and reads by id). */
  readonly requests: number;
  /** How many details were confirmed by a stats row rather than read by id. */
  readonly confirmed: number;
}

/** Whether a stats row shows the held detail unchanged: the plan cache's rule (`sameVersion`). */
export const confirms: (
  held: Project,
  row: { readonly status: string; readonly updated_at: string },
) => boolean = sameVersion;

/**
 * Reads the basis of `ids`. `held` is the newest detail of each (from the plan, maybe cached, or an
 * earlier round); `touched` are projects this run sent to since their last read (always read by id).
 */
export async function readBasis(
  reader: BasisReader,
  ids: readonly string[],
  held: ReadonlyMap<string, LiveRead<Project>>,
  touched: ReadonlySet<string>,
  now: Date,
): Promise<BasisRead> {
  let requests = 0;
  const wanted = new Set(ids);
  const worthListing = ids.some((id) => !touched.has(id) && held.get(id)?.kind === "found");
  const stats = worthListing
    ? await readStats(
        (params) => {
          requests++;
          return reader.getProjectStats(params);
        },
        wanted,
        now,
      )
    : null;
  const projects = new Map<string, LiveRead<Project>>();
  const toRead: string[] = [];
  for (const id of wanted) {
    const detail = held.get(id);
    const row = stats?.ok === true ? stats.facts.get(id) : undefined;
    if (!touched.has(id) && detail?.kind === "found" && row !== undefined && confirms(detail.value, row))
      projects.set(id, detail);
    else toRead.push(id);
  }
  const confirmed = projects.size;
  const read = await readAll(
    toRead,
    (id) => {
      requests++;
      return reader.getProject(id);
    },
    undefined,
    // Keys per organization: the organizations' reads take turns, each organization's key at once.
    (id) => {
      const detail = held.get(id);
      return detail?.kind === "found" ? detail.value.organization_id : undefined;
    },
  );
  for (const [id, r] of read) projects.set(id, r);
  return { projects, requests, confirmed };
}
