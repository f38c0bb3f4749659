/**
 * One client over several keys (issue 26): each organization's reads and writes go through the
 * client of its own key, each with its own rate limiter, so organizations run in parallel and N keys
 * give up to N x the per-key limit. The router is itself an {@link ApiClient}, so the refresh, the
 * reconciliation loop and the write executor run unchanged over it:
 *
 * - requests about one project (read, test, schedule, pause) go to the client its route names
 *   (a project of an organization whose key could not be used answers with that key's error and
 *   sends nothing);
 * - the bulk reads (organizations, 10DLC campaigns, lists, numbers, project statistics) go to every
 *   client in use, in parallel, and are merged (first seen wins on a repeated id);
 * - reads by id of a media file or toll-free verification try each client in use until one can see
 *   it (403/404 move on to the next);
 * - anything else goes to the default client (else the first in use).
 *
 * Invariant: no key is held here beyond the clients; a route never sends one organization's request
 * with another's key unless the route says so (a parent key reading for a descendant).
 */

import type { ApiClient } from "./client.js";
import type { RateLimiterStats } from "./rate-limiter.js";
import type { ApiError, ApiResult } from "./result.js";
import type { ApiClientStats } from "./stats.js";

/** Where the requests of one project go: a client, or the error its organization's key met. */
export type ProjectRoute = { readonly client: ApiClient } | { readonly error: ApiError };

/** The routes of one run, set once the campaign is known. */
export interface Routes {
  /** By project id. A project not listed goes to the default client. */
  readonly projects: ReadonlyMap<string, ProjectRoute>;
  /** The clients the run uses, default first when used: bulk reads go over these. */
  readonly inUse: readonly ApiClient[];
}

/** An {@link ApiClient} that routes by project; `route` sets (or replaces) its routes. */
export interface KeyRouter extends ApiClient {
  /** Sets the routes; their clients join the router (closed and counted with it). */
  route(routes: Routes): void;
  /** The clients in use: the routes', else the default client alone. */
  inUse(): readonly ApiClient[];
  /** Makes `client` the router's to count and close, without routing anything to it. */
  adopt(client: ApiClient): void;
}

/**
 * Builds the router around `defaultClient` (the `CAMPAIGNCTL_API_KEY` client; null when only
 * per-organization keys are set). Until `route` is called every request goes to the default client;
 * without one, a bulk read answers with an error saying no key is in use.
 */
export function createKeyRouter(defaultClient: ApiClient | null): KeyRouter {
  const all: ApiClient[] = defaultClient === null ? [] : [defaultClient];
  let routes: Routes | null = null;
  const inUse = (): readonly ApiClient[] => routes?.inUse ?? all;
  const primary = (): ApiClient | undefined => {
    const used = inUse();
    return defaultClient !== null && used.includes(defaultClient)
      ? defaultClient
      : (used[0] ?? defaultClient ?? undefined);
  };
  const viaPrimary = <T>(call: (client: ApiClient) => Promise<ApiResult<T>>): Promise<ApiResult<T>> => {
    const client = primary();
    return client === undefined ? Promise.resolve({ ok: false, error: noClientError() }) : call(client);
  };
  const byProject = <T>(
    id: string,
    call: (client: ApiClient) => Promise<ApiResult<T>>,
  ): Promise<ApiResult<T>> => {
    const route = routes?.projects.get(id);
    if (route === undefined) return viaPrimary(call);
    if ("error" in route) return Promise.resolve({ ok: false, error: route.error });
    return call(route.client);
  };
  const merged = async <T>(
    call: (client: ApiClient) => Promise<ApiResult<T[]>>,
    idOf: (item: T) => string,
  ): Promise<ApiResult<T[]>> => {
    const results = await Promise.all(inUse().map(call));
    const out: T[] = [];
    const seen = new Set<string>();
    for (const result of results) {
      if (!result.ok) return result;
      for (const item of result.value)
        if (!seen.has(idOf(item))) {
          seen.add(idOf(item));
          out.push(item);
        }
    }
    const head = results[0];
    if (head === undefined || !head.ok) return { ok: false, error: noClientError() };
    return { ok: true, value: out, meta: head.meta };
  };
  const firstVisible = async <T>(
    call: (client: ApiClient) => Promise<ApiResult<T>>,
  ): Promise<ApiResult<T>> => {
    let last: ApiResult<T> | undefined;
    for (const client of inUse()) {
      last = await call(client);
      if (last.ok || last.error.kind !== "http" || (last.error.status !== 403 && last.error.status !== 404))
        return last;
    }
    return last ?? { ok: false, error: noClientError() };
  };
  const own: Partial<KeyRouter> = {
    route: (next) => {
      routes = next;
      for (const client of next.inUse) if (!all.includes(client)) all.push(client);
      for (const route of next.projects.values())
        if ("client" in route && !all.includes(route.client)) all.push(route.client);
    },
    inUse,
    adopt: (client) => {
      if (!all.includes(client)) all.push(client);
    },
    listOrganizations: () =>
      merged(
        (c) => c.listOrganizations(),
        (o) => o.id,
      ),
    listTenDlcCampaigns: (filters) =>
      merged(
        (c) => c.listTenDlcCampaigns(filters),
        (t) => t.id,
      ),
    listContactLists: (filters) =>
      merged(
        (c) => c.listContactLists(filters),
        (l) => l.id,
      ),
    listPhoneNumbers: (filters) =>
      merged(
        (c) => c.listPhoneNumbers(filters),
        (n) => `${n.id} ${n.org_id}`,
      ),
    getProjectStats: async (params) => {
      const results = await Promise.all(inUse().map((c) => c.getProjectStats(params)));
      const [head] = results;
      if (head === undefined) return { ok: false, error: noClientError() };
      if (!head.ok) return head;
      const rows = new Map<string, (typeof head.value.projects)[number]>();
      let hasMore = false;
      let totalCount = 0;
      for (const result of results) {
        if (!result.ok) return result;
        for (const row of result.value.projects) if (!rows.has(row.id)) rows.set(row.id, row);
        hasMore ||= result.value.pagination.hasMore;
        totalCount += result.value.pagination.totalCount;
      }
      return {
        ...head,
        value: {
          ...head.value,
          projects: [...rows.values()],
          pagination: { ...head.value.pagination, hasMore, totalCount },
        },
      };
    },
    getProject: (id) => byProject(id, (c) => c.getProject(id)),
    testProject: (id, body, key) => byProject(id, (c) => c.testProject(id, body, key)),
    scheduleProject: (id, body, key) => byProject(id, (c) => c.scheduleProject(id, body, key)),
    pauseProject: (id, body, key) => byProject(id, (c) => c.pauseProject(id, body, key)),
    getMedia: (id) => firstVisible((c) => c.getMedia(id)),
    getTollFreeVerification: (id) => firstVisible((c) => c.getTollFreeVerification(id)),
    stats: () => sumStats(all.map((c) => c.stats())),
    serverTime: () =>
      primary()?.serverTime() ?? all.map((c) => c.serverTime()).find((t) => t !== null) ?? null,
    close: async () => {
      await Promise.all(all.map((c) => c.close()));
    },
  };
  // Every other endpoint (conversations, email, ...) goes to the primary client, looked up per call.
  return new Proxy(own as KeyRouter, {
    get(target, property, receiver) {
      if (property in target) return Reflect.get(target, property, receiver);
      const client = primary() as unknown as Record<string | symbol, unknown> | undefined;
      const value = client?.[property];
      return typeof value === "function" ? value.bind(client) : value;
    },
  });
}

/**
 * What a request answers when no key serves it: only keys per organization are set and the command
 * routes nothing to them (a command of one key, or a request no project names). Sent nowhere.
 */
function noClientError(): ApiError {
  return {
    kind: "http",
    status: 401,
    code: "NO_KEY",
    message:
      "no API key serves this request: only keys per organization (CAMPAIGNCTL_API_KEY_<SLUG>) are set; this command needs CAMPAIGNCTL_API_KEY",
    shape: "auth",
    correlationId: null,
    details: null,
    retryAfterSeconds: null,
    outcome: "none",
    attempts: 0,
    method: "GET",
    route: "(none)",
    path: "",
  };
}

/** The statistics of several clients, added up (the limiters' `limit`: their sum, the run's capacity). */
export function sumStats(all: readonly ApiClientStats[]): ApiClientStats {
  const add = (a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>) => {
    const out: Record<string, number> = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v;
    return out;
  };
  const [head, ...rest] = all;
  if (head === undefined) return NO_STATS;
  return rest.reduce<ApiClientStats>((a, b) => {
    const limiter: RateLimiterStats = {
      limit: a.rateLimiter.limit + b.rateLimiter.limit,
      waitMs: a.rateLimiter.waitMs + b.rateLimiter.waitMs,
      waits: a.rateLimiter.waits + b.rateLimiter.waits,
      throttled: a.rateLimiter.throttled + b.rateLimiter.throttled,
    };
    const byEndpoint = add(a.byEndpoint, b.byEndpoint);
    return {
      calls: a.calls + b.calls,
      requests: a.requests + b.requests,
      byEndpoint: Object.fromEntries(
        Object.entries(byEndpoint).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)),
      ),
      retries: a.retries + b.retries,
      retriesByReason: add(a.retriesByReason, b.retriesByReason) as ApiClientStats["retriesByReason"],
      throttled: a.throttled + b.throttled,
      queuedMs: a.queuedMs + b.queuedMs,
      retryWaitMs: a.retryWaitMs + b.retryWaitMs,
      failures: a.failures + b.failures,
      rateLimiter: limiter,
    };
  }, head);
}

/** The statistics of no client (a router before its first route, without a default key). */
const NO_STATS: ApiClientStats = {
  calls: 0,
  requests: 0,
  byEndpoint: {},
  retries: 0,
  retriesByReason: {
    "rate-limited": 0,
    "in-progress": 0,
    "enqueue-failed": 0,
    "server-error": 0,
    network: 0,
  },
  throttled: 0,
  queuedMs: 0,
  retryWaitMs: 0,
  failures: 0,
  rateLimiter: { limit: 0, waitMs: 0, waits: 0, throttled: 0 },
};
