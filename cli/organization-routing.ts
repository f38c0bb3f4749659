/**
 * Which key each project's requests go with (issue 26; docs/api-connection.md "Keys per
 * organization"), decided once the campaign is known and before the refresh:
 *
 * - a project whose `organization` has its own key (`CAMPAIGNCTL_API_KEY_<SLUG>`, or the embedded
 *   sandbox's key of that organization) goes with that key;
 * - any other project goes with the default key (`CAMPAIGNCTL_API_KEY`): a parent's key may read
 *   for its descendants, and its writes keep the cross-organization rule
 *   (`--allow-cross-organization-key`); without a default key that is `api.no-organization-key`;
 * - an organization written by id finds its name (hence its key) in what the keys in use list.
 *
 * Every key other than the default is checked with one `GET /organizations` before anything else:
 * its root organization must be the one its variable names (`api.key-organization-mismatch`
 * stops the run: a key in the wrong variable could act for the wrong sender). A key the API
 * refuses (401, 403, network) fails only its own organization: its projects answer with that error
 * (unreadable, nothing sent), the other organizations go on.
 *
 * Without keys per organization (`session.router` null) nothing here runs and nothing changes.
 */
import type { ApiClient, ApiError } from "../src/api/index.js";
import { apiErrorDiagnostic } from "../src/api/index.js";
import type { ProjectRoute } from "../src/api/key-router.js";
import { organizationKeyEnv, organizationSlug } from "../src/api/organization-keys.js";
import type { ProjectSpec } from "../src/campaign/model.js";
import type { Organization } from "../src/contract/resources.js";
import type { Diagnostic } from "../src/diagnostics/diagnostic.js";
import { rootOrganization } from "../src/plan/refresh.js";
import { editDistance } from "../src/text/did-you-mean.js";
import type { Session } from "./session.js";

/**
 * The routing's outcome. `keyOrganizations`: by project id, the root organization of the key its
 * requests go with, for projects that go with a key other than the default (the plan's
 * `organization_id` stands for the default key). Invariant: `ok` false holds at least one error.
 */
export type RoutingResult =
  | {
      readonly ok: true;
      readonly keyOrganizations: ReadonlyMap<string, string>;
      /** Warnings: keys the API refused (their organizations' projects are unreadable). */
      readonly diagnostics: readonly Diagnostic[];
    }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** What routing needs of a project: a campaign file's project, or a live project `import` names. */
export type RoutedProject = Pick<ProjectSpec, "id" | "address" | "organization"> & {
  readonly locate?: ProjectSpec["locate"];
};

interface Connected {
  readonly source: string;
  readonly client: ApiClient;
  readonly slug: string;
  readonly result:
    | { readonly ok: true; readonly root: Organization; readonly orgs: readonly Organization[] }
    | {
        readonly ok: false;
        readonly error: ApiError;
      };
}

/** The keys each session has checked, by slug. */
const connections = new WeakMap<Session, Map<string, Connected>>();

/** How a command routes beyond its projects. */
export interface RoutingOptions {
  /**
   * Every key is in use for the bulk reads (`status --all` / `--organization`: what every key sees,
   * merged), each checked like any other; its projects still go with their own keys.
   */
  readonly everyKey?: boolean;
}

/**
 * Routes the session's requests for `projects` (the projects the run reads, by id, with their
 * organization and where it was written). `plan`, `apply`, `status`, `watch` and `import` route here.
 */
export async function routeOrganizations(
  session: Session,
  projects: readonly RoutedProject[],
  options: RoutingOptions = {},
): Promise<RoutingResult> {
  const router = session.router;
  if (router === null) return { ok: true, keyOrganizations: new Map(), diagnostics: [] };
  // A key is checked once per session, however many times the session routes (import routes twice).
  const connected = connections.get(session) ?? new Map<string, Connected>();
  connections.set(session, connected);
  const connect = async (slugs: readonly string[]): Promise<void> => {
    const wanted = [...new Set(slugs)].filter((slug) => !connected.has(slug));
    await Promise.all(
      wanted.map(async (slug) => {
        const entry = session.organizationKeys.get(slug);
        if (entry === undefined) return;
        const client = entry.client();
        // The default key pasted into an organization's variable is checked like any other (the
        // embedded sandbox's keys come from its fixture: nothing to check).
        if (client === session.defaultClient && session.sandbox !== null) return;
        const orgs = await client.listOrganizations();
        const root = orgs.ok ? rootOrganization(orgs.value) : undefined;
        connected.set(slug, {
          source: entry.source,
          client,
          slug,
          result: orgs.ok
            ? root === undefined
              ? { ok: false, error: emptyListing(orgs.value.length) }
              : { ok: true, root, orgs: orgs.value }
            : { ok: false, error: orgs.error },
        });
      }),
    );
  };
  const ownKey = (organization: string | undefined): string | undefined => {
    if (organization === undefined) return undefined;
    const slug = organizationSlug(organization);
    return session.organizationKeys.has(slug) ? slug : undefined;
  };

  // Round 1: organizations named by name (or by an id that happens to be a slug: harmless).
  await connect([
    ...projects.flatMap((p) => ownKey(p.organization) ?? []),
    ...(options.everyKey === true ? session.organizationKeys.keys() : []),
  ]);
  // Round 2: organizations written by id, named by what the keys in use list.
  const known = new Map<string, Organization>();
  const learn = (orgs: readonly Organization[]) => {
    for (const o of orgs) if (!known.has(o.id)) known.set(o.id, o);
  };
  for (const c of connected.values()) if (c.result.ok) learn(c.result.orgs);
  const unnamed = projects.filter(
    (p) => p.organization !== undefined && ownKey(p.organization) === undefined,
  );
  if (unnamed.some((p) => !known.has(p.organization ?? ""))) {
    if (session.defaultClient !== null) {
      const listed = await session.defaultClient.listOrganizations();
      if (listed.ok) learn(listed.value);
    } else {
      // No default key: each organization key lists what it sees (and is checked like any other).
      await connect([...session.organizationKeys.keys()]);
      for (const c of connected.values()) if (c.result.ok) learn(c.result.orgs);
    }
  }
  const slugOf = (spec: RoutedProject): string | undefined => {
    const direct = ownKey(spec.organization);
    if (direct !== undefined) return direct;
    const byId = spec.organization === undefined ? undefined : known.get(spec.organization);
    return byId === undefined ? undefined : ownKey(byId.display_name);
  };
  await connect(projects.flatMap((p) => slugOf(p) ?? []));

  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  for (const c of connected.values()) {
    if (!c.result.ok) {
      warnings.push({
        ...apiErrorDiagnostic(c.result.error),
        severity: "warning",
        message: `the key in ${c.source} could not be used (${c.result.error.route} answered ${describeError(c.result.error)}): the projects of its organization are not read and nothing is sent for them`,
        hint: "check the key (revoked, expired, wrong scope); the other organizations go on",
      });
      continue;
    }
    const rootSlug = organizationSlug(c.result.root.display_name);
    if (rootSlug !== c.slug)
      errors.push({
        severity: "error",
        code: "api.key-organization-mismatch",
        message: `the key in ${c.source} belongs to organization "${c.result.root.display_name}" (${c.result.root.id}), not to the organization its name says`,
        hint: `put that key in ${organizationKeyEnv(c.result.root.display_name) ?? "the variable of its own organization"}, and the key of the organization ${c.source} names in ${c.source}`,
      });
  }
  if (errors.length > 0) {
    closeUnused(session, connected);
    return { ok: false, diagnostics: errors };
  }

  const routes = new Map<string, ProjectRoute>();
  const keyOrganizations = new Map<string, string>();
  const inUse: ApiClient[] = [];
  const use = (client: ApiClient) => {
    if (!inUse.includes(client)) inUse.push(client);
  };
  for (const spec of projects) {
    const slug = slugOf(spec);
    const entry = slug === undefined ? undefined : session.organizationKeys.get(slug);
    const own = slug === undefined ? undefined : connected.get(slug);
    if (own !== undefined) {
      const written = spec.organization ?? "";
      const named = known.get(written)?.display_name ?? written;
      if (own.result.ok && written !== own.result.root.id && named !== own.result.root.display_name) {
        // Another organization whose name gives the same variable (`A.B` and `A B`), or the name
        // written another way: the key is not this organization's, whatever its variable says.
        errors.push({
          severity: "error",
          code: "api.key-organization-mismatch",
          message: `${spec.address}: the key in ${own.source} belongs to organization "${own.result.root.display_name}" (${own.result.root.id}), not to "${named}", whose name gives the same variable`,
          ...(spec.locate === undefined ? {} : { range: spec.locate(["organization"]) }),
          hint: `write the organization's name exactly as the API lists it; two organizations whose names give one variable cannot both have their own key: give "${named}" CAMPAIGNCTL_API_KEY (a parent's key reads; writes need --allow-cross-organization-key)`,
        });
        continue;
      }
      if (own.result.ok) {
        routes.set(spec.id, { client: own.client });
        keyOrganizations.set(spec.id, own.result.root.id);
        use(own.client);
      } else routes.set(spec.id, { error: own.result.error });
      continue;
    }
    if (entry !== undefined || session.defaultClient !== null) {
      // The sandbox's or the environment's key of this organization is the default key itself.
      const client = session.defaultClient ?? entry?.client();
      if (client !== undefined) {
        routes.set(spec.id, { client });
        use(client);
        continue;
      }
    }
    const variable = spec.organization === undefined ? null : organizationKeyEnv(spec.organization);
    const nearMiss = variable === null ? undefined : nearVariable(session, variable);
    errors.push({
      severity: "error",
      code: "api.no-organization-key",
      message:
        spec.organization === undefined
          ? `${spec.address}: the project names no organization, and there is no default key (${session.keySource} are keys of named organizations only)`
          : `${spec.address}: organization ${spec.organization} has no key${variable === null ? "" : ` (${variable} is not set)`} and there is no default key to read for it`,
      ...(spec.locate === undefined ? {} : { range: spec.locate(["organization"]) }),
      hint:
        variable === null
          ? "name the project's organization (by name) and export its key, or export CAMPAIGNCTL_API_KEY"
          : nearMiss !== undefined
            ? `${nearMiss} is set: did you mean ${variable}? (the variable is the organization's name upper-cased, other characters as _)`
            : `export ${variable} with the organization's key, or CAMPAIGNCTL_API_KEY with a parent organization's key (it reads; writes need --allow-cross-organization-key)`,
    });
  }
  if (errors.length > 0) {
    closeUnused(session, connected);
    return { ok: false, diagnostics: errors };
  }
  if (options.everyKey === true) {
    if (session.defaultClient !== null) use(session.defaultClient);
    for (const c of connected.values()) if (c.result.ok) use(c.client);
  }
  if (inUse.length === 0 && session.defaultClient !== null) use(session.defaultClient);
  // The default key first: the plan's organization and the cache are its, as without routing.
  inUse.sort((a, b) => (a === session.defaultClient ? -1 : b === session.defaultClient ? 1 : 0));
  // A key whose every project failed is still the router's to close.
  for (const c of connected.values()) router.adopt(c.client);
  router.route({ projects: routes, inUse });
  return { ok: true, keyOrganizations, diagnostics: warnings };
}

function closeUnused(session: Session, connected: ReadonlyMap<string, Connected>): void {
  for (const c of connected.values()) session.router?.adopt(c.client);
}

/** A set organization variable a typo away from `variable` (a near-miss name), if any. */
function nearVariable(session: Session, variable: string): string | undefined {
  const limit = Math.max(2, Math.floor(variable.length / 10));
  let best: { source: string; distance: number } | undefined;
  for (const [slug, entry] of session.organizationKeys) {
    const distance = editDistance(`CAMPAIGNCTL_API_KEY_${slug}`, variable, limit + 1);
    if (distance > 0 && distance <= limit && (best === undefined || distance < best.distance))
      best = { source: entry.source, distance };
  }
  return best?.source;
}

function describeError(error: ApiError): string {
  return error.kind === "http" ? `${error.status} ${error.code}` : `a ${error.cause} failure`;
}

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
