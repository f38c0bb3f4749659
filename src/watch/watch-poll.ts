/**
 * One poll of `watch` after the first (the first is a status read, `read-live.ts`), through the API
 * client's endpoint functions, in as few requests as the contract allows:
 *
 * - `GET /projects/stats`, `limit=1000`, page after page by `offset`, newest window first, keeping
 *   the rows of the campaign files' projects; an older window is read only while some project still
 *   sending has no row (`listRows`). A project that is sending was scheduled or went active (a
 *   status change, which moves `updated_at`) within the last 31 days in every ordinary case, so a
 *   poll is the newest window: one page per 1,000 rows, never a read per project. With nothing
 *   sending, the newest window alone (a project scheduled meanwhile is in it).
 * - `GET /projects/{id}` only for a sending project that no window lists (deleted, or out of the
 *   key's sight): never guessed.
 */
import type { Project, ProjectStatsRow } from "../contract/resources.js";
import type { LiveRead } from "../plan/live.js";
import { readAll } from "../plan/refresh-records.js";
import { statusRange } from "../status/range.js";
import { type Listed, listRows, type StatusReader } from "../status/read-live.js";

/** The endpoint functions a poll reads through. */
export type PollReader = StatusReader;

/** What a poll read. Invariants: `rows` holds only tracked projects; `details` only sending ones no row lists. */
export type PollRead =
  | {
      readonly ok: true;
      readonly rows: ReadonlyMap<string, ProjectStatsRow>;
      readonly details: ReadonlyMap<string, LiveRead<Project>>;
      readonly statsPages: number;
      readonly projectsReadById: number;
    }
  | { readonly ok: false; readonly error: Extract<Listed, { ok: false }>["error"] };

/**
 * Reads the rows of the `tracked` projects at `now` (the API's clock), older windows only while a
 * `sending` one is missing, then the sending ones still missing by id.
 */
export async function readPoll(
  reader: PollReader,
  now: Date,
  tracked: ReadonlySet<string>,
  sending: ReadonlySet<string>,
): Promise<PollRead> {
  const ranged = statusRange(now, undefined);
  if (!ranged.ok) throw new Error(`statusRange without --since failed: ${ranged.diagnostic.message}`);
  const newest = ranged.range.windows.slice(0, 1);
  const range = sending.size === 0 ? { ...ranged.range, windows: newest } : ranged.range;
  const listed = await listRows(
    reader,
    range,
    (row) => tracked.has(row.id),
    sending.size === 0 ? null : sending,
  );
  if (!listed.ok) return { ok: false, error: listed.error };
  const missing = [...sending].filter((id) => !listed.rows.has(id));
  const details = await readAll(missing, (id) => reader.getProject(id));
  return {
    ok: true,
    rows: listed.rows,
    details,
    statsPages: listed.pages,
    projectsReadById: missing.length,
  };
}
