/**
 * Which organization each key belongs to: its `GET /organizations` (the key's own organization and
 * its descendants), read once per key and session (twice when the first read fails for another
 * reason than the key) and kept, or learned from a listing made anyway (the refresh's); a long run
 * forgets the failed ones to read them again (`forgetFailures`). Routing checks each key against its
 * variable with it, and the write port judges the cross-organization rule with it (write-guard.ts).
 * The last listing that succeeded is kept too (`listing`): a later listing that fails with a blip
 * answers with it (endpoint-table.ts).
 */

import type { Organization } from "../../contract/resources.js";
import type { ApiClient } from "../client.js";
import { mayPassOnRereading, refusesKey } from "../key-refusal.js";
import type { ApiError, ApiResult } from "../result.js";

/** What a key's listing says: its root organization and everything it sees, or why it could not be read. */
export type KeyIdentity =
  | { readonly ok: true; readonly root: Organization; readonly orgs: readonly Organization[] }
  | { readonly ok: false; readonly error: ApiError };

/** The organization a key belongs to: the root of its listing (the one without a parent), else the first. */
export function rootOrganization(orgs: readonly Organization[]): Organization | undefined {
  return orgs.find((o) => o.parent_org_name === null) ?? orgs[0];
}

/** The identities of a session's keys, by client. */
export class KeyIdentities {
  private readonly known = new Map<ApiClient, Promise<KeyIdentity>>();
  private readonly listings = new Map<ApiClient, Listed>();

  /**
   * The key's identity: its `GET /organizations` (or a listing learned), kept for the session. A
   * read that fails with a blip (a 503, a 429, a reset, each after the client's retries; not a
   * refused key, nor a base URL where nothing answers) is read once more, as a read that follows
   * one failing with the default key would be: a blip never costs an organization's key a run.
   */
  of(client: ApiClient): Promise<KeyIdentity> {
    let identity = this.known.get(client);
    if (identity === undefined) {
      identity = this.read(client);
      this.known.set(client, identity);
    }
    return identity;
  }

  /**
   * Forgets every identity that failed for another reason than the key (a 5xx, a 429, the network:
   * a refused key stays refused, key-refusal.ts), so that the next `of` reads it again: a long run
   * (key-recheck.ts) checks again a key that failed at its start. Returns the clients forgotten.
   */
  async forgetFailures(): Promise<ApiClient[]> {
    const forgotten: ApiClient[] = [];
    for (const { client, identity, error } of await this.failed()) {
      if (refusesKey(error) || this.known.get(client) !== identity) continue;
      this.known.delete(client);
      forgotten.push(client);
    }
    return forgotten;
  }

  /** The keys whose identity could not be read, with why (refused keys included); never reads. */
  async failures(): Promise<{ readonly client: ApiClient; readonly error: ApiError }[]> {
    return (await this.failed()).map(({ client, error }) => ({ client, error }));
  }

  /** Every identity read that failed, with the promise it is kept as (to forget only that one). */
  private async failed(): Promise<{ client: ApiClient; identity: Promise<KeyIdentity>; error: ApiError }[]> {
    const out: { client: ApiClient; identity: Promise<KeyIdentity>; error: ApiError }[] = [];
    for (const [client, identity] of [...this.known]) {
      const known = await identity;
      if (!known.ok) out.push({ client, identity, error: known.error });
    }
    return out;
  }

  /** The key's last successful `GET /organizations` of this session, if any; never reads. */
  listing(client: ApiClient): Listed | undefined {
    return this.listings.get(client);
  }

  /** Learns a key's identity from a successful listing of its own (the latest one wins). */
  learn(client: ApiClient, listed: ApiResult<Organization[]>): void {
    if (!listed.ok) return;
    this.listings.set(client, listed);
    this.known.set(client, Promise.resolve(identityOf(listed)));
  }

  private async read(client: ApiClient): Promise<KeyIdentity> {
    let listed = await client.listOrganizations();
    const first = identityOf(listed);
    if (!first.ok && mayPassOnRereading(first.error)) listed = await client.listOrganizations();
    if (listed.ok) this.listings.set(client, listed);
    return identityOf(listed);
  }
}

/** A successful `GET /organizations` answer. */
type Listed = Extract<ApiResult<Organization[]>, { readonly ok: true }>;

function identityOf(listed: ApiResult<readonly Organization[]>): KeyIdentity {
  if (!listed.ok) return { ok: false, error: listed.error };
  const root = rootOrganization(listed.value);
  return root === undefined
    ? { ok: false, error: emptyListing(listed.value.length) }
    : { ok: true, root, orgs: listed.value };
}

/** A listing without any organization: the key may act for none. */
function emptyListing(count: number): ApiError {
  return {
    kind: "http",
    status: 403,
    code: "ORG_ACCESS_DENIED",
    message: `GET /organizations listed ${count} organizations for the key`,
    shape: "standard",
    correlationId: null,
    details: null,
    retryAfterSeconds: null,
    outcome: "none",
    attempts: 1,
    method: "GET",
    route: "GET /organizations",
    path: "/organizations",
  };
}
