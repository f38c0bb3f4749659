/**
 * The keys a recording reads with: the one place `results record` (and `status`/`watch --record`)
 * meets the routing of keys per organization (src/api/routing; docs/api-connection.md). Every key
 * set is checked (one `GET /organizations` each, as `status --all` does) and lists the statistics
 * on its own, through its own client and rate limiter.
 */
import type { ApiClient, ProjectStatsParams } from "../../src/api/index.js";
import { routeOwners } from "../../src/api/routing/route-owners.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { KeyReader, UnusableKey } from "../../src/results/record.js";
import type { Session } from "../gather/session.js";

/**
 * Routes every key of the session (as `status --all`), then names each key in use. The routing's
 * warnings (a key that could not be used) are left to the recording: each such key is one of
 * `unusableKeys`, said as `results.key-unreadable`.
 */
export async function recordingKeys(
  session: Session,
): Promise<{ ok: true; readers: KeyReader[] } | { ok: false; diagnostics: readonly Diagnostic[] }> {
  const routing = await routeOwners(session.router, [], { everyKey: true });
  if (!routing.ok) return routing;
  return { ok: true, readers: keysInUse(session) };
}

/**
 * The keys of the session whose check (`GET /organizations`) failed and that are not in use: their
 * organizations' statistics are not read by this recording (never reads; a long run checks them
 * again, src/api/routing/key-recheck.ts).
 */
export async function unusableKeys(session: Session): Promise<UnusableKey[]> {
  const inUse = new Set(session.router.inUse());
  return (await session.router.identities.failures())
    .filter(({ client }) => !inUse.has(client))
    .map(({ client, error }) => ({
      source: session.router.keys.sourceOf(client) ?? session.keySource,
      error,
    }))
    .sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
}

/** The keys already routed (a session routed with `everyKey`), each with where it came from. */
export function keysInUse(session: Session): KeyReader[] {
  const ring = session.router.keys;
  const sourceOf = (client: ApiClient): string => {
    if (ring.defaultKey !== null && client === ring.defaultKey.client) return ring.defaultKey.source;
    for (const entry of ring.organizations.values()) if (entry.client() === client) return entry.source;
    return session.keySource;
  };
  const defaultClient = ring.defaultKey?.client ?? null;
  // By source, the default key first: the same order whichever key answered its check first.
  return session.router
    .inUse()
    .map((client) => ({
      source: sourceOf(client),
      read: (params: ProjectStatsParams) => client.getProjectStats(params),
      first: client === defaultClient,
    }))
    .sort((a, b) =>
      a.first !== b.first ? (a.first ? -1 : 1) : a.source < b.source ? -1 : a.source > b.source ? 1 : 0,
    )
    .map(({ source, read }) => ({ source, read }));
}
