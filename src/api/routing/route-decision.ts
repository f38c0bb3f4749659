/**
 * The routing's decisions, pure given the keys checked (key-checks.ts): which keys stop the run or
 * only fail their organization, and which key (or which error) each owner goes with.
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { editDistance } from "../../text/did-you-mean.js";
import type { ApiClient } from "../client.js";
import { apiErrorDiagnostic, keyFailureHint } from "../diagnostics.js";
import { ORGANIZATION_KEY_PREFIX, organizationKeyEnv, organizationSlug } from "../organization-keys.js";
import type { ApiError } from "../result.js";
import type { Checked, Connected } from "./key-checks.js";
import type { KeyRing } from "./key-ring.js";
import { type Owner, ownerLabel, ownerRange } from "./owners.js";
import type { Route } from "./routes.js";

/** The keys' own problems: a key in another organization's variable (errors), a key the API refused (warnings). */
export function keyDiagnostics(connected: Iterable<Connected>): {
  readonly errors: Diagnostic[];
  readonly warnings: Diagnostic[];
} {
  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  for (const c of connected) {
    if (!c.identity.ok) {
      warnings.push({
        ...apiErrorDiagnostic(c.identity.error),
        severity: "warning",
        message: `the key in ${c.source} could not be used (${c.identity.error.route} answered ${describeError(c.identity.error)}): the projects of its organization are not read and nothing is sent for them`,
        hint: keyFailureHint(c.identity.error, "the other organizations go on"),
      });
      continue;
    }
    const root = c.identity.root;
    if (organizationSlug(root.display_name) !== c.slug)
      errors.push({
        severity: "error",
        code: "api.key-organization-mismatch",
        message: `the key in ${c.source} belongs to organization "${root.display_name}" (${root.id}), not to the organization its name says`,
        hint: `put that key in ${organizationKeyEnv(root.display_name) ?? "the variable of its own organization"}, and the key of the organization ${c.source} names in ${c.source}`,
      });
  }
  return { errors, warnings };
}

/** What one owner goes with: a route (and the organization of its own key), or why it cannot go. */
export type OwnerDecision =
  | { readonly route: Route; readonly keyOrganization?: string }
  | { readonly diagnostic: Diagnostic };

/** The route of `owner`, whose own key (by slug) is `slug`; see docs/api-connection.md. */
export function decideOwner(
  ring: KeyRing,
  checked: Checked,
  owner: Owner,
  slug: string | undefined,
): OwnerDecision {
  const own = slug === undefined ? undefined : checked.connected.get(slug);
  if (own !== undefined) return ownKey(checked, owner, own);
  const entry = slug === undefined ? undefined : ring.organizations.get(slug);
  // The sandbox's key of this organization is the default key itself; else a parent's default key reads.
  const client: ApiClient | undefined = ring.defaultKey?.client ?? entry?.client();
  if (client !== undefined) return { route: { client } };
  return { diagnostic: noOrganizationKey(ring, owner) };
}

function ownKey(checked: Checked, owner: Owner, own: Connected): OwnerDecision {
  if (!own.identity.ok) return { route: { error: own.identity.error } };
  const root = own.identity.root;
  const written = owner.organization ?? "";
  const named = checked.known.get(written)?.display_name ?? written;
  if (written !== root.id && named !== root.display_name) {
    // Another organization whose name gives the same variable (`A.B` and `A B`), or the name written
    // another way: the key is not this organization's, whatever its variable says.
    const range = ownerRange(owner);
    return {
      diagnostic: {
        severity: "error",
        code: "api.key-organization-mismatch",
        message: `${ownerLabel(owner)}: the key in ${own.source} belongs to organization "${root.display_name}" (${root.id}), not to "${named}", whose name gives the same variable`,
        ...(range === undefined ? {} : { range }),
        hint: `write the organization's name exactly as the API lists it; two organizations whose names give one variable cannot both have their own key: give "${named}" CAMPAIGNCTL_API_KEY (a parent's key reads; writes need --allow-cross-organization-key)`,
      },
    };
  }
  return { route: { client: own.client }, keyOrganization: root.id };
}

/** `api.no-organization-key`: no key of its own and no default key; names the variable to set. */
function noOrganizationKey(ring: KeyRing, owner: Owner): Diagnostic {
  const variable = owner.organization === undefined ? null : organizationKeyEnv(owner.organization);
  const nearMiss = variable === null ? undefined : nearVariable(ring, variable);
  const range = ownerRange(owner);
  const sources = [...ring.organizations.values()].map((k) => k.source).join(", ");
  return {
    severity: "error",
    code: "api.no-organization-key",
    message:
      owner.organization === undefined
        ? `${ownerLabel(owner)}: its file names no organization, and there is no default key (${sources} are keys of named organizations only)`
        : `${ownerLabel(owner)}: organization ${owner.organization} has no key${variable === null ? "" : ` (${variable} is not set)`} and there is no default key to read for it`,
    ...(range === undefined ? {} : { range }),
    hint:
      variable === null
        ? "name the organization (by name) in the file and export its key, or export CAMPAIGNCTL_API_KEY"
        : nearMiss !== undefined
          ? `${nearMiss} is set: did you mean ${variable}? (the variable is the organization's name upper-cased, other characters as _)`
          : `export ${variable} with the organization's key, or CAMPAIGNCTL_API_KEY with a parent organization's key (it reads; writes need --allow-cross-organization-key)`,
  };
}

/** A set organization variable a typo away from `variable` (a near-miss name), if any. */
function nearVariable(ring: KeyRing, variable: string): string | undefined {
  const limit = Math.max(2, Math.floor(variable.length / 10));
  let best: { source: string; distance: number } | undefined;
  for (const [slug, entry] of ring.organizations) {
    const distance = editDistance(`${ORGANIZATION_KEY_PREFIX}${slug}`, variable, limit + 1);
    if (distance > 0 && distance <= limit && (best === undefined || distance < best.distance))
      best = { source: entry.source, distance };
  }
  return best?.source;
}

/** An error as a key's warning says it: `503 SEND_ENQUEUE_FAILED`, `a connection-refused failure`. */
export function describeError(error: ApiError): string {
  return error.kind === "http" ? `${error.status} ${error.code}` : `a ${error.cause} failure`;
}
