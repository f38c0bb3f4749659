/**
 * The refresh cache: project details, media files and toll-free verifications read by id, kept
 * between runs so that a warm plan reads only what changed (design.md principle 4). This module is
 * the interface and the pure rules; `cli/adapters/file-cache.ts` keeps it on disk.
 *
 * Validity rules (all pure, all given the clock):
 * - A project detail is valid while the stats row of the same project shows the same `updated_at`
 *   (compared as instants) and the same `status`. A project absent from every stats window was not
 *   updated inside the windows, so its detail is valid when it was fetched at or after the start of
 *   the oldest window (anything that changed since would be in a window). Absent and not cached, or
 *   cached before that start: read it again.
 * - A media file is kept only once `ready`, for 24 hours after it was read (it could be deleted or
 *   replaced in the dashboard); a file still processing is read on every plan.
 * - A toll-free verification is kept only once `Verified`, for 24 hours; any other status (pending,
 *   rejected) is read on every plan, since that is what blocks and what a person is fixing.
 * - Failed reads (404, 403, errors) are never cached.
 *
 * The cache holds only API records and times: never a key, never anything from the environment.
 */

import { instantMs, sameInstant } from "../contract/instant.js";
import type { MediaFile, Project, TollFreeVerification } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ArmCounters } from "../experiments/verdict.js";
import { nameMap } from "../text/names.js";

/** Bump on any incompatible change of the cached document; other versions are ignored. */
export const CACHE_FORMAT_VERSION = 1;

/** How long a `ready` media file or a `Verified` toll-free verification is trusted. */
export const REFERENCE_TTL_MS = 24 * 60 * 60 * 1000;

/** One record read by id, and when (ISO date-time of the plan's clock). */
export interface CachedRecord<T> {
  readonly value: T;
  readonly fetched_at: string;
}

/**
 * The cached records of one scope (one API base URL and organization). Keys are the ids the records
 * were read by.
 */
export interface CacheSnapshot {
  readonly format_version: typeof CACHE_FORMAT_VERSION;
  readonly projects: Readonly<Record<string, CachedRecord<Project>>>;
  readonly media: Readonly<Record<string, CachedRecord<MediaFile>>>;
  readonly toll_free_verifications: Readonly<Record<string, CachedRecord<TollFreeVerification>>>;
}

/** The outcome of reading a cache: what it held (empty when nothing usable) and any warnings. */
export interface CacheRead {
  readonly snapshot: CacheSnapshot;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Where the cache lives. The scope (base URL) is bound when the store is made; the organization
 * is known only after the first read, so it is passed per call. Invariants: `read` never fails
 * (unusable content reads as empty, with a warning); `write` replaces the scope's snapshot as a
 * whole (atomically where the medium allows) and reports problems as warnings.
 */
export interface CacheStore {
  read(organizationId: string): Promise<CacheRead>;
  write(organizationId: string, snapshot: CacheSnapshot): Promise<readonly Diagnostic[]>;
}

export function emptySnapshot(): CacheSnapshot {
  return { format_version: CACHE_FORMAT_VERSION, projects: {}, media: {}, toll_free_verifications: {} };
}

/** A cache that holds nothing (tests, `--refresh` when writing is not wanted either). */
export const NO_CACHE: CacheStore = {
  read: async () => ({ snapshot: emptySnapshot(), diagnostics: [] }),
  write: async () => [],
};

/** What the stats listing said about one project. */
export interface StatsFact {
  readonly status: string;
  readonly updated_at: string;
  /** The row's counters an experiment's verdict reads (src/experiments/verdict.ts); absent in hand-built facts. */
  readonly counters?: ArmCounters;
}

/** A stamp's moment in ms; NaN when unreadable (then it is never fresh). */
function instant(iso: string): number {
  return instantMs(iso) ?? Number.NaN;
}

/**
 * Whether a cached project detail may stand in for `GET /projects/{id}`. `fact` is the project's
 * stats row (undefined when no window listed it); `coveredSinceMs` is the start of the oldest window
 * that was read, or null when the windows could not be read (then nothing cached is trusted).
 */
export function projectDetailValid(
  cached: CachedRecord<Project> | undefined,
  fact: StatsFact | undefined,
  coveredSinceMs: number | null,
): boolean {
  if (cached === undefined || coveredSinceMs === null) return false;
  if (fact !== undefined) return sameVersion(cached.value, fact);
  const fetched = instant(cached.fetched_at);
  return !Number.isNaN(fetched) && fetched >= coveredSinceMs;
}

/**
 * Whether a stats row shows a held project detail unchanged: the same status and the same
 * `updated_at` instant (however each side writes it; {@link sameInstant}, so an unreadable value on
 * either side is a change). The one rule for the plan's cache and for apply's fresh basis reads.
 */
export function sameVersion(
  held: { readonly status: string; readonly updated_at: string },
  row: { readonly status: string; readonly updated_at: string },
): boolean {
  return sameInstant(held.updated_at, row.updated_at) && held.status === row.status;
}

/** Whether a cached media file may stand in for `GET /media/{id}` at `nowMs`. */
export function mediaValid(cached: CachedRecord<MediaFile> | undefined, nowMs: number): boolean {
  return cached !== undefined && cached.value.status === "ready" && fresh(cached, nowMs);
}

/** Whether a cached verification may stand in for `GET /toll-free-verifications/{id}` at `nowMs`. */
export function tollFreeValid(
  cached: CachedRecord<TollFreeVerification> | undefined,
  nowMs: number,
): boolean {
  return cached !== undefined && cached.value.status === "Verified" && fresh(cached, nowMs);
}

function fresh(cached: CachedRecord<unknown>, nowMs: number): boolean {
  const fetched = instant(cached.fetched_at);
  return !Number.isNaN(fetched) && fetched <= nowMs && nowMs - fetched < REFERENCE_TTL_MS;
}

/** Records read in this refresh, to be merged into the cache. */
export interface FreshReads {
  readonly projects: ReadonlyMap<string, Project>;
  readonly media: ReadonlyMap<string, MediaFile>;
  readonly tollFreeVerifications: ReadonlyMap<string, TollFreeVerification>;
}

/**
 * The snapshot to write after a refresh: the previous entries that can still become valid (project
 * details fetched at or after `prunedBeforeMs`, media and verifications within their time to live),
 * overwritten by the records just read (stamped `now`). Pure.
 */
export function mergeSnapshot(
  previous: CacheSnapshot,
  reads: FreshReads,
  now: Date,
  prunedBeforeMs: number,
): CacheSnapshot {
  const nowMs = now.getTime();
  const stamp = now.toISOString();
  const projects = nameMap<CachedRecord<Project>>();
  for (const [id, entry] of Object.entries(previous.projects)) {
    const fetched = instant(entry.fetched_at);
    if (!Number.isNaN(fetched) && fetched >= prunedBeforeMs) projects[id] = entry;
  }
  for (const [id, value] of reads.projects) projects[id] = { value, fetched_at: stamp };
  const media = nameMap<CachedRecord<MediaFile>>();
  for (const [id, entry] of Object.entries(previous.media)) if (mediaValid(entry, nowMs)) media[id] = entry;
  for (const [id, value] of reads.media)
    if (value.status === "ready") media[id] = { value, fetched_at: stamp };
  const tollFree = nameMap<CachedRecord<TollFreeVerification>>();
  for (const [id, entry] of Object.entries(previous.toll_free_verifications))
    if (tollFreeValid(entry, nowMs)) tollFree[id] = entry;
  for (const [id, value] of reads.tollFreeVerifications)
    if (value.status === "Verified") tollFree[id] = { value, fetched_at: stamp };
  return { format_version: CACHE_FORMAT_VERSION, projects, media, toll_free_verifications: tollFree };
}

/**
 * Checks parsed JSON as a snapshot, shallowly (records are API data the planner reads defensively):
 * the version and the three maps of `{value: object, fetched_at: string}`. Undefined when unusable.
 */
export function parseSnapshot(json: unknown): CacheSnapshot | undefined {
  if (!isObject(json) || json.format_version !== CACHE_FORMAT_VERSION) return undefined;
  const maps = [json.projects, json.media, json.toll_free_verifications];
  for (const map of maps) {
    if (!isObject(map)) return undefined;
    for (const entry of Object.values(map))
      if (!isObject(entry) || !isObject(entry.value) || typeof entry.fetched_at !== "string")
        return undefined;
  }
  return json as unknown as CacheSnapshot;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
