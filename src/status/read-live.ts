/**
 * The reads of a status, through the API client's endpoint functions (it does no other IO), in as
 * few requests as the contract allows:
 *
 * 1. `GET /organizations`: confirms the key, names organizations, resolves `--organization`, and
 *    scopes the read cache (the root organization, as plan's refresh does).
 * 2. `GET /projects/stats`, `limit=1000`, pages by `offset`, over the range's windows (`range.ts`),
 *    newest first. Selecting only the campaign files' projects, the older windows are read only
 *    while some of them has no row yet; `--all` and `--organization` read every window.
 * 3. `GET /projects/{id}` for every selected project no row lists (never guessed: its counters are
 *    then unknown), and, for the estimate (`estimated_cost_cents`, which rows lack), for every listed
 *    project whose cached detail is not of the row's version (the plan's cache rule,
 *    `sameVersion`); with `estimates: false`, only the unlisted ones.
 *
 * The client's rate limiter paces every request. Project details read here go into the plan's
 * cache, so a later status or plan reads only what changed.
 */

import type { ApiError, Endpoints } from "../api/index.js";
import { apiErrorDiagnostic } from "../api/index.js";
import { rootOrganization } from "../api/routing/key-identity.js";
import { byCreation } from "../contract/instant.js";
import { organizationNamed } from "../contract/organization-named.js";
import type { Organization, Project, ProjectStatsRow } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { type CacheStore, emptySnapshot, mergeSnapshot, sameVersion } from "../plan/cache.js";
import type { LiveRead } from "../plan/live.js";
import { readAll } from "../plan/refresh-records.js";
import { listStatsWindow, statsWindows } from "../plan/refresh-stats.js";
import { own } from "../text/names.js";
import { type StatusRange, statusRange } from "./range.js";

/** The endpoint functions a status reads through. */
export type StatusReader = Pick<Endpoints, "listOrganizations" | "getProjectStats" | "getProject">;

/** One project of the campaign files: its live id and its address. */
export interface FileProject {
  readonly id: string;
  readonly address: string;
}

/**
 * Which projects a status shows: the campaign files' projects, plus, with `all`, every project the
 * statistics list in the range, or with `organization`, those of that organization (name or id;
 * its own projects, not its sub-organizations').
 */
export interface StatusSelection {
  readonly files: readonly FileProject[];
  readonly all: boolean;
  readonly organization?: string;
}

export interface StatusReadInput {
  readonly reader: StatusReader;
  readonly selection: StatusSelection;
  /** `--since`, already checked to be a day `YYYY-MM-DD`; undefined for the whole 90 days. */
  readonly since: string | undefined;
  /** The API's clock, read after the first response (its `Date` header). */
  readonly now: () => Date;
  /** Read project details for their estimate (`--no-estimate` turns this off). */
  readonly estimates: boolean;
  readonly cache: CacheStore;
  /** `--refresh`: ignore what the cache holds (it is still written). */
  readonly refresh: boolean;
}

/** Requests and cache hits of one status, for the report (and the tests of its request budget). */
export interface ReadCounts {
  readonly statsPages: number;
  readonly projectsReadById: number;
  readonly detailsFromCache: number;
}

/** One selected project: its id, its address when the files describe it. */
export interface SelectedProject {
  readonly id: string;
  readonly address: string | null;
}

/**
 * What was read. Invariants: every selected id is in `selected` once, files first (file order), then
 * listed projects (oldest first); `rows` holds a row for each selected project some window listed;
 * `details` holds every detail read or taken from the cache; `diagnostics` holds no error when
 * every selected project was found somewhere.
 */
export type StatusLive =
  | {
      readonly ok: true;
      readonly now: Date;
      readonly range: StatusRange;
      readonly organizations: readonly Organization[];
      readonly selected: readonly SelectedProject[];
      readonly rows: ReadonlyMap<string, ProjectStatsRow>;
      readonly details: ReadonlyMap<string, LiveRead<Project>>;
      readonly reads: ReadCounts;
      readonly diagnostics: readonly Diagnostic[];
    }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

export async function readStatusLive(input: StatusReadInput): Promise<StatusLive> {
  const { reader, selection } = input;
  const fail = (diagnostics: readonly Diagnostic[]): StatusLive => ({ ok: false, diagnostics });
  const orgs = await reader.listOrganizations();
  if (!orgs.ok) return fail([apiErrorDiagnostic(orgs.error)]);
  const now = input.now();
  const ranged = statusRange(now, input.since);
  if (!ranged.ok) return fail([ranged.diagnostic]);
  const range = ranged.range;

  let organizationId: string | undefined;
  if (selection.organization !== undefined) {
    const found = organizationOf(orgs.value, selection.organization);
    if (!found.ok) return fail([found.diagnostic]);
    organizationId = found.id;
  }
  const listing = selection.all || organizationId !== undefined;
  const addresses = new Map<string, string>();
  for (const f of selection.files) if (!addresses.has(f.id)) addresses.set(f.id, f.address);
  const keeps = (row: ProjectStatsRow): boolean =>
    addresses.has(row.id) || selection.all || row.organization_id === organizationId;

  const listed = await listRows(reader, range, keeps, listing ? null : new Set(addresses.keys()));
  if (!listed.ok) return fail([apiErrorDiagnostic(listed.error)]);
  const rows = listed.rows;

  const selected: SelectedProject[] = [...addresses].map(([id, address]) => ({ id, address }));
  const others = [...rows.values()].filter((r) => !addresses.has(r.id)).sort(byCreation);
  for (const r of others) selected.push({ id: r.id, address: null });

  const root = rootOrganization(orgs.value);
  const diagnostics: Diagnostic[] = [];
  const cacheRead =
    input.refresh || root === undefined
      ? { snapshot: emptySnapshot(), diagnostics: [] }
      : await input.cache.read(root.id);
  diagnostics.push(...cacheRead.diagnostics);
  const cached = cacheRead.snapshot;

  const details = new Map<string, LiveRead<Project>>();
  const toRead: string[] = [];
  for (const { id } of selected) {
    const row = rows.get(id);
    if (row === undefined) toRead.push(id);
    else if (input.estimates) {
      const entry = own(cached.projects, id);
      if (entry !== undefined && sameVersion(entry.value, row))
        details.set(id, { kind: "found", value: entry.value });
      else toRead.push(id);
    }
  }
  const fromCache = details.size;
  const read = await readAll(toRead, (id) => reader.getProject(id));
  const fresh = new Map<string, Project>();
  for (const [id, r] of read) {
    details.set(id, r);
    if (r.kind === "found") fresh.set(id, r.value);
  }
  if (root !== undefined && fresh.size > 0) {
    const oldest = statsWindows(now).at(-1)?.startMs ?? now.getTime();
    const snapshot = mergeSnapshot(
      cached,
      { projects: fresh, media: new Map(), tollFreeVerifications: new Map() },
      now,
      oldest,
    );
    diagnostics.push(...(await input.cache.write(root.id, snapshot)));
  }

  for (const { id } of selected) {
    const detail = details.get(id);
    const problem = readProblem(id, detail, rows.has(id), range);
    if (problem !== undefined) diagnostics.push(problem);
  }
  return {
    ok: true,
    now,
    range,
    organizations: orgs.value,
    selected,
    rows,
    details,
    reads: { statsPages: listed.pages, projectsReadById: toRead.length, detailsFromCache: fromCache },
    diagnostics,
  };
}

type Named =
  | { readonly ok: true; readonly id: string }
  | { readonly ok: false; readonly diagnostic: Diagnostic };

/** The one organization whose id or display name is `wanted`. */
function organizationOf(orgs: readonly Organization[], wanted: string): Named {
  const named = organizationNamed(orgs, wanted);
  if (named.ok) return named;
  return {
    ok: false,
    diagnostic: {
      severity: "error",
      code: "status.unknown-organization",
      message: named.message,
      hint: `give one of: ${named.choices}`,
    },
  };
}

export type Listed =
  | { readonly ok: true; readonly rows: Map<string, ProjectStatsRow>; readonly pages: number }
  | { readonly ok: false; readonly error: ApiError };

/**
 * Pages through the range's windows, newest first, keeping the rows `keeps` accepts (a project in
 * two windows keeps its newest listing). With `wanted`, stops after a window once every wanted id
 * has a row. Also one poll of `watch` (`watch-poll.ts`).
 */
export async function listRows(
  reader: StatusReader,
  range: StatusRange,
  keeps: (row: ProjectStatsRow) => boolean,
  wanted: ReadonlySet<string> | null,
  onWindow?: () => void,
): Promise<Listed> {
  const rows = new Map<string, ProjectStatsRow>();
  let pages = 0;
  for (const window of range.windows) {
    if (wanted !== null && [...wanted].every((id) => rows.has(id))) break;
    onWindow?.();
    const listed = await listStatsWindow(
      (params) => reader.getProjectStats(params),
      window,
      (got) => {
        for (const row of got) if (!rows.has(row.id) && keeps(row)) rows.set(row.id, row);
      },
    );
    if (!listed.ok) return { ok: false, error: listed.error };
    pages += listed.pages;
  }
  return { ok: true, rows, pages };
}

/** What to say about one selected project's reads, if anything (also `watch`'s first read of a project). */
export function readProblem(
  id: string,
  detail: LiveRead<Project> | undefined,
  listed: boolean,
  range: StatusRange,
): Diagnostic | undefined {
  if (detail === undefined) return undefined;
  const span = `${range.since} to ${range.until}`;
  switch (detail.kind) {
    case "found":
      return listed
        ? undefined
        : {
            severity: "warning",
            code: "status.no-statistics",
            message: `project ${id} (${detail.value.name}) is in no statistics row from ${span}: its status, recipients and estimate come from the project itself, its counters are unknown`,
            hint: "a project not updated in the range is not listed; an earlier --since (at most 90 days back) may list it",
          };
    case "not-found":
      return listed
        ? unreadableEstimate(id, "it reads 404")
        : {
            severity: "error",
            code: "status.project-not-found",
            message: `project ${id} is in no statistics row from ${span} and does not exist or is not visible to the key`,
            hint: "check the id in the campaign file (campaignctl status --all lists what the key can see)",
          };
    case "forbidden":
      return listed
        ? unreadableEstimate(id, `it reads 403 (${detail.message})`)
        : {
            severity: "error",
            code: "status.project-forbidden",
            message: `project ${id} is outside the key's organization tree (${detail.message})`,
            hint: "use a key of the organization that owns the project",
          };
    case "error":
      return listed
        ? unreadableEstimate(id, `${detail.code}: ${detail.message}`)
        : {
            severity: "error",
            code: "status.project-unreadable",
            message: `project ${id} is in no statistics row from ${span} and could not be read: ${detail.code}: ${detail.message}`,
            hint: "run the status again",
          };
  }
}

function unreadableEstimate(id: string, why: string): Diagnostic {
  return {
    severity: "warning",
    code: "status.project-unreadable",
    message: `project ${id} could not be read by id (${why}): its estimated cost is unknown; its statistics are shown`,
    hint: "run the status again",
  };
}
