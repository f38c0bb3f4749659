/**
 * Which key each owner's requests go with (issue 26, issue 33; docs/api-connection.md "Keys per
 * organization"), decided once the campaign is known and before the first read of it. Every command
 * that talks to the API routes here (`plan`, `apply`, `status`, `watch`, `import`, `replies plan`,
 * `replies run`):
 *
 * - an owner (project, email list, email campaign) whose `organization` has its own key
 *   (`CAMPAIGNCTL_API_KEY_<SLUG>`, or the embedded sandbox's key of that organization) goes with
 *   that key;
 * - any other owner goes with the default key (`CAMPAIGNCTL_API_KEY`): a parent's key may read for
 *   its descendants, and its writes meet the cross-organization rule at the write port; without a
 *   default key that is `api.no-organization-key`, naming the variable to set;
 * - an organization written by id finds its name (hence its key) in what the keys list.
 *
 * Every organization key in use is checked with one `GET /organizations` first: its root
 * organization must be the one its variable names (`api.key-organization-mismatch` stops the run).
 * A key the API refuses (401, 403, network) fails only its own organization. With only the default
 * key, nothing is read here: every owner goes with it.
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { ApiClient } from "../client.js";
import { type Checked, checkKeys, slugOf } from "./key-checks.js";
import type { Owner } from "./owners.js";
import { decideOwner, keyDiagnostics } from "./route-decision.js";
import type { OwnerRouter } from "./router.js";
import type { EmailListRoute, Route } from "./routes.js";

/**
 * The routing's outcome. `keyOrganizations`: by project id, the root organization of the key its
 * requests go with, for projects that go with a key other than the default (the plan's
 * `organization_id` stands for the default key). Invariant: `ok` false holds at least one error.
 */
export type RoutingResult =
  | {
      readonly ok: true;
      readonly keyOrganizations: ReadonlyMap<string, string>;
      /** Warnings: keys the API refused (their organizations' owners are unreadable). */
      readonly diagnostics: readonly Diagnostic[];
    }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** How a command routes beyond its owners. */
export interface RoutingOptions {
  /**
   * Every key is in use for the bulk reads (`status --all` / `--organization`, `import`: what every
   * key sees, merged), each checked like any other; owners still go with their own keys.
   */
  readonly everyKey?: boolean;
  /** `--allow-cross-organization-key`: the write port lets a key of another organization write. */
  readonly allowCrossOrganizationKey?: boolean;
}

/** Routes `router`'s requests for `owners`. */
export async function routeOwners(
  router: OwnerRouter,
  owners: readonly Owner[],
  options: RoutingOptions = {},
): Promise<RoutingResult> {
  const allow = options.allowCrossOrganizationKey === true;
  const ring = router.keys;
  const noChecks: Checked = { connected: new Map(), known: new Map() };
  // Without keys per organization, every owner goes with the default key: nothing to check.
  const checked =
    ring.organizations.size === 0 ? noChecks : await checkKeys(router, owners, options.everyKey === true);
  const keys = keyDiagnostics(checked.connected.values());
  if (keys.errors.length > 0) return { ok: false, diagnostics: keys.errors };

  const projects = new Map<string, Route>();
  const emailLists = new Map<string, EmailListRoute>();
  const keyOrganizations = new Map<string, string>();
  const errors: Diagnostic[] = [];
  const inUse: ApiClient[] = [];
  const use = (client: ApiClient) => {
    if (!inUse.includes(client)) inUse.push(client);
  };
  for (const owner of owners) {
    const decided = decideOwner(ring, checked, owner, slugOf(router, checked, owner));
    if ("diagnostic" in decided) {
      errors.push(decided.diagnostic);
      continue;
    }
    const { route } = decided;
    if ("client" in route) use(route.client);
    if (owner.kind === "project") {
      projects.set(owner.id, route);
      if (decided.keyOrganization !== undefined) keyOrganizations.set(owner.id, decided.keyOrganization);
    } else if (owner.kind === "email-list")
      emailLists.set(owner.id, { route, organization: owner.organization, address: owner.address });
  }
  if (errors.length > 0) return { ok: false, diagnostics: errors };
  if (options.everyKey === true) {
    if (ring.defaultKey !== null) use(ring.defaultKey.client);
    for (const c of checked.connected.values()) if (c.identity.ok) use(c.client);
  }
  if (inUse.length === 0 && ring.defaultKey !== null) use(ring.defaultKey.client);
  // The default key first: the plan's organization and the cache are its, as without routing.
  const first = ring.defaultKey?.client;
  inUse.sort((a, b) => (a === first ? -1 : b === first ? 1 : 0));
  router.route({ projects, emailLists, inUse, allowCrossOrganizationKey: allow });
  return { ok: true, keyOrganizations, diagnostics: keys.warnings };
}
