/**
 * Which keys a routing needs, each checked with its `GET /organizations` (once per session: the
 * identities are kept), in three rounds: the organizations the files name by name; then, for an
 * organization written by id (or a name no variable matches), what the keys list (the default key's
 * listing, else every organization key's); then the keys those lookups point at.
 */
import type { Organization } from "../../contract/resources.js";
import type { ApiClient } from "../client.js";
import { organizationSlug } from "../organization-keys.js";
import type { KeyIdentity } from "./key-identity.js";
import type { Owner } from "./owners.js";
import type { OwnerRouter } from "./router.js";

/** One organization key, checked. */
export interface Connected {
  readonly source: string;
  readonly client: ApiClient;
  readonly slug: string;
  readonly identity: KeyIdentity;
}

/** What the checks found: the keys checked, by slug, and every organization they (or the default key) list. */
export interface Checked {
  readonly connected: ReadonlyMap<string, Connected>;
  readonly known: ReadonlyMap<string, Organization>;
}

/** The slug of `organization` when a key per organization is set for it. */
export function ownSlug(router: OwnerRouter, organization: string | undefined): string | undefined {
  if (organization === undefined) return undefined;
  const slug = organizationSlug(organization);
  return router.keys.organizations.has(slug) ? slug : undefined;
}

/** The slug of the key `owner` goes with: its organization's by name, or by the name its id lists as. */
export function slugOf(router: OwnerRouter, checked: Checked, owner: Owner): string | undefined {
  const direct = ownSlug(router, owner.organization);
  if (direct !== undefined) return direct;
  const byId = owner.organization === undefined ? undefined : checked.known.get(owner.organization);
  return byId === undefined ? undefined : ownSlug(router, byId.display_name);
}

export async function checkKeys(
  router: OwnerRouter,
  owners: readonly Owner[],
  everyKey: boolean,
): Promise<Checked> {
  const connected = new Map<string, Connected>();
  const known = new Map<string, Organization>();
  const learn = (orgs: readonly Organization[]) => {
    for (const o of orgs) if (!known.has(o.id)) known.set(o.id, o);
  };
  const connect = async (slugs: Iterable<string>): Promise<void> => {
    const wanted = [...new Set(slugs)].filter((slug) => !connected.has(slug));
    await Promise.all(wanted.map((slug) => connectOne(router, slug, connected)));
    for (const c of connected.values()) if (c.identity.ok) learn(c.identity.orgs);
  };
  // Round 1: organizations named by name (or by an id that happens to be a slug: harmless).
  await connect([
    ...owners.flatMap((o) => ownSlug(router, o.organization) ?? []),
    ...(everyKey ? router.keys.organizations.keys() : []),
  ]);
  // Round 2: organizations written by id, named by what the keys list.
  const unnamed = owners.filter(
    (o) => o.organization !== undefined && ownSlug(router, o.organization) === undefined,
  );
  if (unnamed.some((o) => !known.has(o.organization ?? ""))) {
    const fallback = router.keys.defaultKey?.client;
    if (fallback !== undefined) {
      const listed = await router.identities.of(fallback);
      if (listed.ok) learn(listed.orgs);
    } else await connect(router.keys.organizations.keys());
  }
  // Round 3: the keys the lookups point at.
  const checked = { connected, known };
  await connect(owners.flatMap((o) => slugOf(router, checked, o) ?? []));
  return checked;
}

async function connectOne(
  router: OwnerRouter,
  slug: string,
  connected: Map<string, Connected>,
): Promise<void> {
  const entry = router.keys.organizations.get(slug);
  // The embedded sandbox's key of the default key's own organization: nothing to check.
  if (entry === undefined || entry.trusted) return;
  const client = entry.client();
  const identity = await router.identities.of(client);
  connected.set(slug, { source: entry.source, client, slug, identity });
}
