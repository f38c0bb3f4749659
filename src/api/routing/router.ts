/**
 * One client over the session's keys (issue 26, issue 33): each request goes with the key of the
 * organization that owns what it reads or writes, as the endpoint table says (endpoint-table.ts),
 * each key with its own client and rate limiter, so organizations run in parallel and N keys give up
 * to N x the per-key limit. The router is itself an {@link ApiClient}: the refresh, the
 * reconciliation loop, the email sync, the replies worker and the write executor run unchanged over
 * it. It is the write port: every write passes the cross-organization rule first (write-guard.ts).
 *
 * Invariant: every request of the session goes through one of the ring's clients, so `stats()`
 * (their sum) counts every request and every 429 of the run, key checks included.
 */
import type { Organization } from "../../contract/resources.js";
import type { ApiClient } from "../client.js";
import type { ApiError } from "../result.js";
import { Dispatch } from "./dispatch.js";
import { endpointTable } from "./endpoint-table.js";
import { type KeyIdentities, rootOrganization } from "./key-identity.js";
import type { KeyRing } from "./key-ring.js";
import type { Owner } from "./owners.js";
import type { Routes } from "./routes.js";
import { sumStats } from "./sum-stats.js";

/** An {@link ApiClient} that routes by owner; `route` sets (or replaces) its routes. */
export interface OwnerRouter extends ApiClient {
  readonly keys: KeyRing;
  /** Each key's organization, read once (routing's checks, the write guard). */
  readonly identities: KeyIdentities;
  route(routes: Routes): void;
  /** The clients in use: the routes', else the default client alone. */
  inUse(): readonly ApiClient[];
  /**
   * Says which project a conversation belongs to, for a caller that knows it before any listing
   * said it (the replies worker, for an event sent to a project's number). A listing wins.
   */
  placeConversation(conversationId: string, projectId: string): void;
  /** The client `owner`'s requests go with; null when none (its key failed, or no key serves it). */
  ownerClient(owner: Owner): ApiClient | null;
  /**
   * The keys with a bulk read failed while another key's succeeded (each with its first failure); a
   * key stays here until the listing that failed is read whole again.
   */
  bulkFailures(): readonly { readonly client: ApiClient; readonly error: ApiError }[];
  /**
   * The organizations without email (their keys answered 403 EMAIL_EARLY_ACCESS) in the last merged
   * GET /email/campaigns, each key's own (the root of its listing): the campaigns of these
   * organizations are missing from that listing for want of email, not because they do not exist.
   */
  withoutEmail(): readonly Organization[];
}

export function createOwnerRouter(keys: KeyRing): OwnerRouter {
  const d = new Dispatch(keys);
  let closed: Promise<void> | undefined;
  return {
    ...endpointTable(d),
    keys,
    identities: d.identities,
    route: (routes) => d.setRoutes(routes),
    inUse: () => d.inUse(),
    placeConversation: (conversationId, projectId) => d.placeConversation(conversationId, projectId),
    ownerClient: (owner) => d.ownerClient(owner),
    withoutEmail: () =>
      [...d.withoutEmail].flatMap((c) => {
        const root = rootOrganization(d.identities.listing(c)?.value ?? []);
        return root === undefined ? [] : [root];
      }),
    bulkFailures: () => d.marks.all(),
    stats: () => sumStats(keys.made().map((c) => c.stats())),
    // The API's clock: the default key's answers, else the first key in use's, else any key's.
    serverTime: () =>
      [d.defaultClient, ...d.inUse(), ...keys.made()]
        .map((c) => c?.serverTime() ?? null)
        .find((t) => t !== null) ?? null,
    close: () => {
      closed ??= Promise.all(keys.made().map((c) => c.close())).then(() => undefined);
      return closed;
    },
  };
}
