/**
 * The reads of an import, through the API client's endpoint functions (it does no other IO), in as
 * few requests as the contract allows: one each of `GET /organizations`, `/campaigns`,
 * `/contact-lists`, `/phone-numbers`; `GET /projects/stats` over its date windows when projects are
 * selected by status, organization or `--all`; then `GET /projects/{id}` per selected project and
 * `GET /media/{id}`, `GET /toll-free-verifications/{id}` per distinct attached id (a failed one stops
 * the import: only a 403/404 means the key cannot see it). The client's rate
 * limiter paces every request.
 */

import type { ApiError } from "../api/index.js";
import { apiErrorDiagnostic, apiErrorsDiagnostics } from "../api/index.js";
import type { ImportBeforeReads } from "../api/routing/import-routes.js";
import { byCreation } from "../contract/instant.js";
import { organizationNamed } from "../contract/organization-named.js";
import type {
  MediaFile,
  Organization,
  Project,
  ProjectStatsRow,
  TollFreeVerification,
} from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { buildCatalogs, type Catalogs } from "../plan/catalogs.js";
import type { LiveRead } from "../plan/live.js";
import type { RefreshReader } from "../plan/refresh.js";
import { readAll } from "../plan/refresh-records.js";
import { listStatsWindow, statsWindows } from "../plan/refresh-stats.js";
import type { SnapshotSource } from "../plan/snapshot.js";

/** The endpoint functions import reads through: the plan's refresh reader, without its accounting. */
export type ImportReader = Omit<RefreshReader, "stats">;

/**
 * Which projects to import. `ids` are read by id; `all`, `status` and `organization` select from
 * the stats listing (all of them together: a project must pass every filter given).
 */
export interface Selection {
  readonly ids: readonly string[];
  readonly all: boolean;
  readonly status?: string;
  /** An organization's name or id. */
  readonly organization?: string;
}

/** What was read: the selected projects (each read by id) and the catalogs their references resolve in. */
export type LiveForImport =
  | {
      readonly ok: true;
      readonly projects: readonly Project[];
      readonly organizations: readonly Organization[];
      readonly catalogs: Catalogs;
      /** What was read, for the offline snapshot (src/plan/snapshot.ts). */
      readonly read: SnapshotSource;
    }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Whether any selection was given at all. */
export function selects(selection: Selection): boolean {
  return (
    selection.ids.length > 0 ||
    selection.all ||
    selection.status !== undefined ||
    selection.organization !== undefined
  );
}

/**
 * Reads what an import needs. `now` is the API's clock (`Session.now()`): it is read once the first
 * responses arrived (their `Date` header set it), so the statistics windows are the API's days
 * whatever this machine's clock says (design.md, "One clock, the API's").
 */
export async function readLiveForImport(
  reader: ImportReader,
  selection: Selection,
  now: () => Date,
  beforeReads?: ImportBeforeReads,
): Promise<LiveForImport> {
  const [orgs, tenDlc, lists, numbers] = await Promise.all([
    reader.listOrganizations(),
    reader.listTenDlcCampaigns(),
    reader.listContactLists(),
    reader.listPhoneNumbers(),
  ]);
  const failed = apiErrorsDiagnostics([orgs, tenDlc, lists, numbers].flatMap((r) => (r.ok ? [] : [r.error])));
  if (!orgs.ok || !tenDlc.ok || !lists.ok || !numbers.ok) return { ok: false, diagnostics: failed };

  let organizationId: string | undefined;
  if (selection.organization !== undefined) {
    const wanted = selection.organization;
    const named = organizationNamed(orgs.value, wanted);
    if (!named.ok)
      return {
        ok: false,
        diagnostics: [
          {
            severity: "error",
            code: "import.unknown-organization",
            message: named.message,
            hint: `the key sees: ${named.choices}`,
          },
        ],
      };
    organizationId = named.id;
  }

  const ids: string[] = [...new Set(selection.ids)];
  const owners = new Map<string, string>();
  if (selection.all || selection.status !== undefined || organizationId !== undefined) {
    const rows = await listProjects(reader, now());
    if (!rows.ok) return { ok: false, diagnostics: [apiErrorDiagnostic(rows.error)] };
    for (const row of rows.rows) {
      if (
        (selection.status === undefined || row.status === selection.status) &&
        (organizationId === undefined || row.organization_id === organizationId) &&
        !ids.includes(row.id)
      )
        ids.push(row.id);
      if (ids.includes(row.id)) owners.set(row.id, row.organization_id);
    }
  }
  if (beforeReads !== undefined) {
    const stopped = await beforeReads(owners, orgs.value);
    if (stopped.length > 0) return { ok: false, diagnostics: stopped };
  }

  const reads = await readAll(ids, (id) => reader.getProject(id));
  const diagnostics: Diagnostic[] = [];
  const projects: Project[] = [];
  for (const [id, read] of reads) {
    const problem = unreadable(id, read);
    if (problem !== undefined) diagnostics.push(problem);
    else if (read.kind === "found") projects.push(read.value);
  }
  if (diagnostics.length > 0) return { ok: false, diagnostics };

  const mediaIds = [...new Set(projects.flatMap((p) => p.media_ids))];
  const tollFreeIds = [
    ...new Set(projects.flatMap((p) => (p.toll_free_verification_id ? [p.toll_free_verification_id] : []))),
  ];
  const [media, tollFree] = await Promise.all([
    readAll<MediaFile>(mediaIds, (id) => reader.getMedia(id)),
    readAll<TollFreeVerification>(tollFreeIds, (id) => reader.getTollFreeVerification(id)),
  ]);
  // A failed read is not a record the key cannot see: writing the project without it would be wrong.
  const unread = [
    ...recordFailures(media, "media file"),
    ...recordFailures(tollFree, "toll-free verification"),
  ];
  if (unread.length > 0) return { ok: false, diagnostics: unread };
  const catalogs = buildCatalogs({
    organizations: orgs.value,
    tenDlcCampaigns: tenDlc.value,
    contactLists: lists.value,
    phoneNumbers: numbers.value,
    projects: new Map(),
    media,
    tollFreeVerifications: tollFree,
  });
  const found = <T>(reads: ReadonlyMap<string, LiveRead<T>>): T[] =>
    [...reads.values()].flatMap((r) => (r.kind === "found" ? [r.value] : []));
  return {
    ok: true,
    projects,
    organizations: orgs.value,
    catalogs,
    read: {
      organizations: orgs.value,
      tenDlcCampaigns: tenDlc.value,
      contactLists: lists.value,
      phoneNumbers: numbers.value,
      projects,
      tollFreeVerifications: found(tollFree),
    },
  };
}

/** Every project the stats listing shows (updated in the last 90 days), newest window first. */
async function listProjects(
  reader: ImportReader,
  now: Date,
): Promise<{ ok: true; rows: ProjectStatsRow[] } | { ok: false; error: ApiError }> {
  const rows = new Map<string, ProjectStatsRow>();
  for (const window of statsWindows(now)) {
    const listed = await listStatsWindow(
      (params) => reader.getProjectStats(params),
      window,
      (got) => {
        for (const row of got) if (!rows.has(row.id)) rows.set(row.id, row);
      },
    );
    if (!listed.ok) return { ok: false, error: listed.error };
  }
  const sorted = [...rows.values()].sort(byCreation);
  return { ok: true, rows: sorted };
}

/** `import.record-unreadable` per attached record whose read failed with an API error (not 403/404). */
function recordFailures<T>(reads: ReadonlyMap<string, LiveRead<T>>, noun: string): Diagnostic[] {
  return [...reads].flatMap(([id, read]) =>
    read.kind === "error"
      ? [
          {
            severity: "error" as const,
            code: "import.record-unreadable",
            message: `${noun} ${id} could not be read: ${read.code}: ${read.message}`,
            hint: "run the import again; nothing was written (a record that fails to read is not left out as unseen)",
          },
        ]
      : [],
  );
}

function unreadable(id: string, read: LiveRead<Project>): Diagnostic | undefined {
  switch (read.kind) {
    case "found":
      return undefined;
    case "not-found":
      return {
        severity: "error",
        code: "import.project-not-found",
        message: `project ${id} does not exist or is not visible to the key`,
        hint: "check the id (campaignctl import --all lists what the key can see)",
      };
    case "forbidden":
      return {
        severity: "error",
        code: "import.project-forbidden",
        message: `project ${id} is outside the key's organization tree (${read.message})`,
        hint: "use a key of the organization that owns the project",
      };
    case "error":
      return {
        severity: "error",
        code: "import.project-unreadable",
        message: `project ${id} could not be read: ${read.code}: ${read.message}`,
        hint: "run the import again",
      };
  }
}
