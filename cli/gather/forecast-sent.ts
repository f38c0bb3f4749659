/**
 * The reads a forecast adds to a plan: what the brand already sends live (design.md Turn 4: every
 * live scheduled or sending project of the brand counts, in the files or not). IO only; the judge
 * (src/plan/judge.ts) decides what they mean.
 */
import type { Project, ProjectStatsRow } from "../../src/contract/resources.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { type CacheStore, emptySnapshot, mergeSnapshot, sameVersion } from "../../src/plan/cache.js";
import type { LiveRead, LiveState } from "../../src/plan/live.js";
import { type LiveSends, NO_LIVE_SENDS } from "../../src/plan/live-sends.js";
import { liveSendsOf, SENDING } from "../../src/plan/live-sends-of.js";
import { readAll } from "../../src/plan/refresh-records.js";
import { statsWindows } from "../../src/plan/refresh-stats.js";
import { statusRange } from "../../src/status/range.js";
import { listRows } from "../../src/status/read-live.js";
import { own } from "../../src/text/names.js";
import type { Session } from "./session.js";

/**
 * The live sends of the brands of the files' projects: one statistics listing over every window the
 * contract allows (a schedule set long ago is listed only by an older window), keeping the rows of
 * projects scheduled or sending whose brand is one of theirs; then a project read of each such
 * project no file describes (its schedule, zone, text and bypass are not in the row; the plan's
 * cache stands in when it holds the row's version, and what is read goes into it). Nothing is
 * read when no file project's brand is known. A failed read is a warning, and the forecast then
 * counts what it could read.
 */
export async function readLiveSends(
  session: Session,
  projects: LiveState["projects"],
  now: Date,
  cache: { readonly store: CacheStore; readonly organizationId: string; readonly refresh: boolean },
): Promise<{ readonly sends: LiveSends; readonly diagnostics: readonly Diagnostic[] }> {
  const brands = new Set<string>();
  for (const r of projects.values()) if (r.kind === "found") brands.add(r.value.brand_id);
  const range = statusRange(now, undefined);
  if (brands.size === 0 || !range.ok) return { sends: NO_LIVE_SENDS, diagnostics: [] };
  const keeps = (row: ProjectStatsRow) => SENDING.has(row.status) && brands.has(row.brand_id);
  const listed = await listRows(session.client, range.range, keeps, null);
  if (!listed.ok)
    return {
      sends: { sent: new Map(), others: [], complete: false },
      diagnostics: [
        {
          severity: "warning",
          code: "forecast.sent-unknown",
          message: `the statistics of the brand's live sends could not be read (${listed.error.message}): the forecast counts no live send beyond the files' projects, and takes those sending to have sent nothing yet`,
          hint: "plan again; until then the forecast may put sending projects' finish and the brand's cap later than they are",
        },
      ],
    };
  const rows = [...listed.rows.values()];
  const sent = new Map(rows.filter((r) => r.status === "active").map((r) => [r.id, r.messages_sent]));
  const others = rows.filter((r) => !projects.has(r.id));
  // The plan's cache rule: a cached project read of the row's version stands in for a request
  // (not with --refresh, which still writes what it reads, beside what the cache held).
  const cacheRead =
    others.length === 0
      ? { snapshot: emptySnapshot(), diagnostics: [] }
      : await cache.store.read(cache.organizationId);
  const read = new Map<string, LiveRead<Project>>();
  for (const row of cache.refresh ? [] : others) {
    const entry = own(cacheRead.snapshot.projects, row.id);
    if (entry !== undefined && sameVersion(entry.value, row))
      read.set(row.id, { kind: "found", value: entry.value });
  }
  const fetched = await readAll(
    others.filter((r) => !read.has(r.id)).map((r) => r.id),
    (id) => session.client.getProject(id),
  );
  const fresh = new Map<string, Project>();
  for (const [id, r] of fetched) {
    read.set(id, r);
    if (r.kind === "found") fresh.set(id, r.value);
  }
  const cacheDiagnostics: Diagnostic[] = [...cacheRead.diagnostics];
  if (fresh.size > 0) {
    const oldest = statsWindows(now).at(-1)?.startMs ?? now.getTime();
    const snapshot = mergeSnapshot(
      cacheRead.snapshot,
      { projects: fresh, media: new Map(), tollFreeVerifications: new Map() },
      now,
      oldest,
    );
    cacheDiagnostics.push(...(await cache.store.write(cache.organizationId, snapshot)));
  }
  const judged = liveSendsOf(others, read);
  const diagnostics = [...cacheDiagnostics, ...judged.diagnostics];
  return { sends: { sent, others: judged.sends, complete: judged.diagnostics.length === 0 }, diagnostics };
}
