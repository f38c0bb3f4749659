/**
 * The keys of one session (docs/api-connection.md "Keys per organization"): the default key
 * (`CAMPAIGNCTL_API_KEY`, or the embedded sandbox's root key), and each organization's own key by
 * slug (`CAMPAIGNCTL_API_KEY_<SLUG>`, or the sandbox's key of that organization). Each key has one
 * client, made on first use (a key the campaign never needs costs nothing), so one rate limiter per
 * key and process. The CLI builds the ring from the environment (cli/gather/session.ts); routing decides
 * which key serves which request (route-owners.ts, router.ts).
 *
 * Invariant: no key is held here beyond the clients; `source` names where a key came from (a
 * variable's name), never the key.
 */
import type { ApiClient } from "../client.js";

/** One organization's key: where it came from and its client. */
export interface OrganizationKeyEntry {
  /** The environment variable's name, or "the embedded sandbox (<organization>)". */
  readonly source: string;
  /** The key's client (the default client itself when the key is the default key). */
  client(): ApiClient;
  /** The key is the default key itself, found in the embedded sandbox's fixture: nothing to check. */
  readonly trusted: boolean;
}

/** The session's keys. Invariant: at least one key (a default, or one organization's). */
export interface KeyRing {
  /** The default key's client and the variable it came from; null when only keys per organization are set. */
  readonly defaultKey: { readonly source: string; readonly client: ApiClient } | null;
  /** Keys per organization, by slug, in name order. */
  readonly organizations: ReadonlyMap<string, OrganizationKeyEntry>;
  /** Every client made so far, the default first: what the session counts and closes. */
  made(): readonly ApiClient[];
  /** Where the key of a client made so far came from (`source`); undefined for another client. */
  sourceOf(client: ApiClient): string | undefined;
}

/** How one organization's key is made. */
export interface OrganizationKeySource {
  readonly slug: string;
  readonly source: string;
  /** Makes the key's client; not called when `sameAsDefault`. */
  readonly make: () => ApiClient;
  /** The key is the default key's value: its client is the default client. */
  readonly sameAsDefault: boolean;
}

/**
 * Builds the ring. `fixture`: the keys come from the embedded sandbox's fixture, so an
 * organization's key that is the default key is not checked (it cannot be in the wrong variable).
 */
export function createKeyRing(
  defaultKey: { readonly source: string; readonly client: ApiClient } | null,
  organizations: readonly OrganizationKeySource[],
  fixture: boolean,
): KeyRing {
  if (defaultKey === null && organizations.length === 0)
    throw new Error("createKeyRing: neither a default key nor a key per organization");
  const made: ApiClient[] = defaultKey === null ? [] : [defaultKey.client];
  const sources = new Map<ApiClient, string>(
    defaultKey === null ? [] : [[defaultKey.client, defaultKey.source]],
  );
  const entries = new Map<string, OrganizationKeyEntry>();
  for (const o of organizations) {
    if (o.sameAsDefault && defaultKey !== null) {
      entries.set(o.slug, { source: o.source, client: () => defaultKey.client, trusted: fixture });
      continue;
    }
    let client: ApiClient | undefined;
    entries.set(o.slug, {
      source: o.source,
      trusted: false,
      client: () => {
        if (client === undefined) {
          client = o.make();
          made.push(client);
          sources.set(client, o.source);
        }
        return client;
      },
    });
  }
  return { defaultKey, organizations: entries, made: () => made, sourceOf: (client) => sources.get(client) };
}
