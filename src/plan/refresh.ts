/**
 * Refresh: reads the live state a plan needs in as few requests as the rate limit deserves
 * (design.md principle 4). It is handed a reader (the client's endpoint functions) and a cache
 * store; it does no other IO.
 *
 * 1. `GET /organizations`: confirms the key; the root organization (the one without a parent, else
 *    the first) scopes idempotency keys and the cache.
 * 2. One each of `GET /campaigns`, `GET /contact-lists`, `GET /phone-numbers` (the key's whole tree).
 * 3. `GET /projects/stats` over date windows (see `refresh-stats.ts`): every project's status and
 *    `updated_at`.
 * 4. `GET /projects/{id}` only for projects whose cached detail is not valid (see `cache.ts`).
 * 5. `GET /media/{id}` and `GET /toll-free-verifications/{id}` only for ids referenced by the files
 *    or attached to a live project, and not validly cached.
 *
 * A failure of steps 1 or 2 stops the refresh (nothing could be resolved); a failed stats read
 * falls back to reading every project by id, with a warning; failed reads by id become `LiveRead`s.
 */
import type { ApiClientStats, ApiError, ApiResult, Endpoints } from "../api/index.js";
import { apiErrorDiagnostic } from "../api/index.js";
import { rootOrganization } from "../api/routing/key-identity.js";
import type { Campaign } from "../campaign/model.js";
import type { MediaFile, Project, TollFreeVerification } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ArmCounters } from "../experiments/verdict.js";
import { own } from "../text/names.js";
import {
  type CachedRecord,
  type CacheSnapshot,
  type CacheStore,
  emptySnapshot,
  mediaValid,
  mergeSnapshot,
  projectDetailValid,
  tollFreeValid,
} from "./cache.js";
import type { LiveRead, LiveState } from "./live.js";
import { readAll } from "./refresh-records.js";
import { naiveRequestCount, requestDelta } from "./refresh-requests.js";
import { readStats, type StatsOutcome, statsWindows } from "./refresh-stats.js";
import type { RequestCount } from "./types.js";

/** The endpoint functions a refresh reads through, plus the client's request accounting. */
export type RefreshReader = Pick<
  Endpoints,
  | "listOrganizations"
  | "listTenDlcCampaigns"
  | "listContactLists"
  | "listPhoneNumbers"
  | "getProjectStats"
  | "getProject"
  | "getMedia"
  | "getTollFreeVerification"
> & { stats(): ApiClientStats };

export interface RefreshInput {
  /** The projects to read (already narrowed to `--target`/`--exclude` by the caller, if wanted). */
  readonly campaign: Campaign;
  readonly reader: RefreshReader;
  readonly cache: CacheStore;
  /**
   * The plan's clock: stats windows, cache validity and the cache's timestamps. A function is read
   * once, after the first response (`GET /organizations`), so it can be the API's clock (its `Date`
   * header); the reading is returned as `now`.
   */
  readonly now: Date | (() => Date);
  /** `--refresh`: ignore what the cache holds (it is still written). */
  readonly refresh: boolean;
  /** Where the key came from (an environment variable's name), for the 401 message. Never the key. */
  readonly keySource?: string;
}

/** Invariant: `diagnostics` holds no error when `ok` (warnings only: cache, stats fallback). */
export type RefreshResult =
  | {
      readonly ok: true;
      readonly live: LiveState;
      readonly organizationId: string;
      readonly requests: RequestCount;
      readonly diagnostics: readonly Diagnostic[];
      /** The plan's clock as read after the first response. */
      readonly now: Date;
    }
  | { readonly ok: false; readonly requests: RequestCount; readonly diagnostics: readonly Diagnostic[] };

export async function refreshLive(input: RefreshInput): Promise<RefreshResult> {
  const { reader, campaign } = input;
  const before = reader.stats();
  const naive = naiveRequestCount(campaign);
  const count = (): RequestCount => requestDelta(before, reader.stats(), naive);
  const fail = (diagnostics: Diagnostic[]): RefreshResult => ({ ok: false, requests: count(), diagnostics });

  const orgs = await reader.listOrganizations();
  if (!orgs.ok) return fail([globalDiagnostic(orgs.error, input.keySource)]);
  const now = typeof input.now === "function" ? input.now() : input.now;
  const root = rootOrganization(orgs.value);
  if (root === undefined)
    return fail([
      {
        severity: "error",
        code: "api.forbidden",
        message: "GET /organizations listed no organization for the key",
        hint: "use a key of the organization that owns the projects",
      },
    ]);

  const [cacheRead, tenDlc, lists, numbers] = await Promise.all([
    input.refresh
      ? Promise.resolve({ snapshot: emptySnapshot(), diagnostics: [] })
      : input.cache.read(root.id),
    reader.listTenDlcCampaigns(),
    reader.listContactLists(),
    reader.listPhoneNumbers(),
  ]);
  const listFailures = [tenDlc, lists, numbers].flatMap((r) => (r.ok ? [] : [globalDiagnostic(r.error)]));
  if (!tenDlc.ok || !lists.ok || !numbers.ok) return fail(listFailures);
  const diagnostics: Diagnostic[] = [...cacheRead.diagnostics];
  const cached: CacheSnapshot = cacheRead.snapshot;

  const projectIds = [...new Set(campaign.projects.map((p) => p.id))];
  const stats = await readStats((params) => reader.getProjectStats(params), new Set(projectIds), now);
  if (!stats.ok)
    diagnostics.push({
      ...apiErrorDiagnostic(stats.error),
      severity: "warning",
      hint: "every project was read by id instead; the plan is complete but used more requests",
    });
  const projects = new Map<string, LiveRead<Project>>();
  const toRead: string[] = [];
  for (const id of projectIds) {
    const entry = own(cached.projects, id);
    const valid = stats.ok && projectDetailValid(entry, stats.facts.get(id), stats.coveredSinceMs);
    if (valid && entry !== undefined) projects.set(id, { kind: "found", value: entry.value });
    else toRead.push(id);
  }
  // Keys per organization: the organizations' reads take turns, each organization's key at once.
  const organizationOf = new Map(campaign.projects.map((p) => [p.id, p.organization]));
  const readProjects = await readAll(
    toRead,
    (id) => reader.getProject(id),
    undefined,
    (id) => organizationOf.get(id),
  );
  for (const [id, read] of readProjects) projects.set(id, read);
  const found = [...projects.values()].flatMap((r) => (r.kind === "found" ? [r.value] : []));

  const nowMs = now.getTime();
  const media = await readReferences(
    found.flatMap((p) => p.media_ids),
    campaign.projects.flatMap((p) => p.media ?? []),
    (id) => own(cached.media, id),
    (entry) => mediaValid(entry, nowMs),
    (id) => reader.getMedia(id),
    (m: MediaFile) => [m.media_id, m.name],
  );
  const knownTollFree = new Map<string, string>();
  for (const n of numbers.value)
    if (n.toll_free_verification_id) {
      knownTollFree.set(n.toll_free_verification_id, n.toll_free_verification_id);
      if (n.toll_free_registration_name)
        knownTollFree.set(n.toll_free_registration_name, n.toll_free_verification_id);
    }
  const tollFree = await readReferences(
    found.flatMap((p) => (p.toll_free_verification_id ? [p.toll_free_verification_id] : [])),
    campaign.projects.flatMap((p) =>
      p.tollFreeVerification === undefined
        ? []
        : [knownTollFree.get(p.tollFreeVerification) ?? p.tollFreeVerification],
    ),
    (id) => own(cached.toll_free_verifications, id),
    (entry) => tollFreeValid(entry, nowMs),
    (id) => reader.getTollFreeVerification(id),
    (t: TollFreeVerification) => [t.id, t.name],
  );

  const fresh = {
    projects: onlyFound(readProjects),
    media: onlyFound(media.fetched),
    tollFreeVerifications: onlyFound(tollFree.fetched),
  };
  const oldest = statsWindows(now).at(-1)?.startMs ?? nowMs;
  diagnostics.push(...(await input.cache.write(root.id, mergeSnapshot(cached, fresh, now, oldest))));

  return {
    ok: true,
    live: {
      organizations: orgs.value,
      tenDlcCampaigns: tenDlc.value,
      contactLists: lists.value,
      phoneNumbers: numbers.value,
      projects,
      media: media.all,
      tollFreeVerifications: tollFree.all,
      statistics: statisticsOf(stats),
    },
    organizationId: root.id,
    requests: count(),
    diagnostics,
    now,
  };
}

/**
 * Reads records referenced by id or name, in two rounds: first the ids attached to live projects,
 * then the file's references that no record known so far carries as id or name (a name cannot be
 * read by id; the planner resolves it from these records). A validly cached record is not read.
 */
async function readReferences<T>(
  attached: readonly string[],
  written: readonly string[],
  fromCache: (id: string) => CachedRecord<T> | undefined,
  valid: (entry: CachedRecord<T>) => boolean,
  read: (id: string) => Promise<ApiResult<T>>,
  labels: (value: T) => readonly string[],
): Promise<{ all: Map<string, LiveRead<T>>; fetched: Map<string, LiveRead<T>> }> {
  const all = new Map<string, LiveRead<T>>();
  const fetched = new Map<string, LiveRead<T>>();
  const known = new Set<string>();
  const round = async (references: readonly string[]): Promise<void> => {
    const pending: string[] = [];
    for (const id of new Set(references)) {
      if (id === "" || all.has(id) || known.has(id)) continue;
      const entry = fromCache(id);
      if (entry !== undefined && valid(entry)) {
        all.set(id, { kind: "found", value: entry.value });
        for (const label of labels(entry.value)) known.add(label);
      } else pending.push(id);
    }
    for (const [id, r] of await readAll(pending, read)) {
      all.set(id, r);
      fetched.set(id, r);
      if (r.kind === "found") for (const label of labels(r.value)) known.add(label);
    }
  };
  await round(attached);
  await round(written);
  return { all, fetched };
}

function onlyFound<T>(reads: ReadonlyMap<string, LiveRead<T>>): Map<string, T> {
  const out = new Map<string, T>();
  for (const [id, r] of reads) if (r.kind === "found") out.set(id, r.value);
  return out;
}

/** A failure of a bulk read, as a plan-level diagnostic; a 401 names where the key came from. */
function globalDiagnostic(error: ApiError, keySource?: string): Diagnostic {
  const base = apiErrorDiagnostic(error);
  if (error.kind === "http" && error.status === 401)
    return {
      ...base,
      message: `the API key in ${keySource ?? "the environment"} was refused (${error.route} answered 401)`,
      hint: "the key is missing, malformed, revoked or expired; create a new key in the dashboard (Admin, API)",
    };
  return base;
}

/** The counters of every project the statistics listed (none when they could not be read). */
function statisticsOf(stats: StatsOutcome): Map<string, ArmCounters> {
  const out = new Map<string, ArmCounters>();
  if (stats.ok)
    for (const [id, fact] of stats.facts) if (fact.counters !== undefined) out.set(id, fact.counters);
  return out;
}
