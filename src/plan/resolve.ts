/**
 * Resolves a project's references (written by name or id) to ids, against the live catalogs. Pure.
 * Missing names are errors with did-you-mean candidates; names two records share are errors listing
 * both with their ids; a media file or toll-free verification whose read by id failed is an error.
 * A reference list (lists, media, numbers) resolves only when every item does.
 */
import type { ProjectSpec, SpecPath } from "../campaign/model.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { type CatalogEntry, matchReference } from "./catalog.js";
import { type Catalogs, REFERENCE_NOUN, type ReferenceKind } from "./catalogs.js";
import type { LiveRead, LiveState } from "./live.js";

/** A reference after resolution: the id, and how to show it. */
export interface ResolvedRef {
  readonly id: string;
  readonly display: string;
}

/**
 * The described references, resolved. A member is absent when the file does not describe it or
 * when it (or, for lists, any item of it) did not resolve; `unresolved` says whether any failed.
 */
export interface ResolvedReferences {
  readonly organization?: ResolvedRef;
  readonly brand?: ResolvedRef;
  readonly tenDlcCampaign?: ResolvedRef;
  readonly tollFreeVerification?: ResolvedRef;
  readonly phoneNumbers?: readonly ResolvedRef[];
  readonly media?: readonly ResolvedRef[];
  readonly contactLists?: readonly ResolvedRef[];
  readonly suppressionLists?: readonly ResolvedRef[];
}

export interface Resolution {
  readonly refs: ResolvedReferences;
  readonly diagnostics: readonly Diagnostic[];
  readonly unresolved: boolean;
}

/**
 * `liveOrganizationId`: the live project's organization. Every reference but the organization
 * resolves in the project's own organization (the file's `organization`, else the live project's):
 * a record of another organization is `plan.reference-other-organization`, whatever key can see it
 * (consent does not transfer between senders), and names are matched among its own records first.
 */
export function resolveReferences(
  spec: ProjectSpec,
  live: LiveState,
  catalogs: Catalogs,
  liveOrganizationId?: string,
): Resolution {
  const diagnostics: Diagnostic[] = [];
  let own: string | undefined;
  const one = (kind: ReferenceKind, reference: string, path: SpecPath): ResolvedRef | undefined => {
    const result = resolveOne(
      spec,
      live,
      catalogs,
      kind,
      reference,
      path,
      kind === "organization" ? undefined : own,
    );
    if ("diagnostic" in result) {
      diagnostics.push(result.diagnostic);
      return undefined;
    }
    return result;
  };
  const many = (
    kind: ReferenceKind,
    references: readonly string[] | undefined,
  ): ResolvedRef[] | undefined => {
    if (references === undefined) return undefined;
    const resolved = references.map((r, i) => one(kind, r, [kind, i]));
    return resolved.every((r) => r !== undefined) ? resolved : undefined;
  };
  const single = (kind: ReferenceKind, reference: string | undefined): ResolvedRef | undefined =>
    reference === undefined ? undefined : one(kind, reference, [kind]);

  const organization = single("organization", spec.organization);
  own = organization?.id ?? liveOrganizationId;
  const refs: ResolvedReferences = {
    organization,
    brand: single("brand", spec.brand),
    tenDlcCampaign: single("campaign", spec.tenDlcCampaign),
    tollFreeVerification: single("toll_free_verification", spec.tollFreeVerification),
    phoneNumbers: many("phone_numbers", spec.phoneNumbers),
    media: many("media", spec.media),
    contactLists: many("contact_lists", spec.contactLists),
    suppressionLists: many("suppression_lists", spec.suppressionLists),
  };
  return { refs, diagnostics, unresolved: diagnostics.length > 0 };
}

function resolveOne(
  spec: ProjectSpec,
  live: LiveState,
  catalogs: Catalogs,
  kind: ReferenceKind,
  reference: string,
  path: SpecPath,
  own: string | undefined,
): ResolvedRef | { readonly diagnostic: Diagnostic } {
  const noun = REFERENCE_NOUN[kind];
  const range = spec.locate(path);
  const failedRead = readFailure(kind, live, reference);
  if (failedRead !== undefined) {
    return {
      diagnostic: {
        severity: "error",
        code: "plan.reference-unreadable",
        message: `${spec.address}: ${noun} ${reference} could not be read: ${failedRead}`,
        range,
        hint: "check that the key's organization tree includes it, then plan again",
      },
    };
  }
  const catalog = catalogs[kind];
  const ownCatalog = own === undefined ? catalog : catalog.filter((e) => belongsTo(e, own));
  const match = matchReference(ownCatalog, reference);
  if (match.kind === "missing" && own !== undefined) {
    const elsewhere = matchReference(catalog, reference);
    const entries =
      elsewhere.kind === "found"
        ? [elsewhere.entry]
        : elsewhere.kind === "ambiguous"
          ? elsewhere.entries
          : [];
    if (entries.length > 0) {
      const owners = [...new Set(entries.flatMap((e) => e.organizations ?? []))].map((o) =>
        organizationName(live, o),
      );
      return {
        diagnostic: {
          severity: "error",
          code: "plan.reference-other-organization",
          message: `${spec.address}: ${noun} "${reference}" belongs to ${owners.join(", ")}, not to the project's own organization ${organizationName(live, own)}; consent does not transfer between organizations`,
          range,
          hint:
            match.close.length > 0
              ? `name a ${noun} of ${organizationName(live, own)} (did you mean ${match.close.map((c) => `"${c}"`).join(" or ")}?)`
              : `name a ${noun} of ${organizationName(live, own)}, or check the project's organization`,
        },
      };
    }
  }
  switch (match.kind) {
    case "found":
      return { id: match.entry.id, display: match.entry.display };
    case "missing":
      return {
        diagnostic: {
          severity: "error",
          code: "plan.reference-missing",
          message: `${spec.address}: no ${noun} is named or has the id "${reference}"`,
          range,
          hint:
            match.close.length > 0
              ? `did you mean ${match.close.map((c) => `"${c}"`).join(" or ")}?`
              : `check the spelling, or that the key can see this ${noun}`,
        },
      };
    case "ambiguous":
      return {
        diagnostic: {
          severity: "error",
          code: "plan.reference-ambiguous",
          message: `${spec.address}: ${match.entries.length} ${noun}s are named "${reference}": ${match.entries
            .map((e) => `${e.display} (${e.id})`)
            .join(", ")}`,
          range,
          hint: `write the id of the one you mean instead of the name`,
        },
      };
  }
}

/** Whether `entry` belongs to organization `id` (an entry of unknown organizations always does). */
export function belongsTo(entry: CatalogEntry, id: string): boolean {
  return (
    entry.organizations === undefined || entry.organizations.length === 0 || entry.organizations.includes(id)
  );
}

/** `"Name" (id)` of an organization the key can see, else the id. */
function organizationName(live: LiveState, id: string): string {
  const found = live.organizations.find((o) => o.id === id);
  return found === undefined ? id : `"${found.display_name}"`;
}

/** Why a record read by id (media, toll-free verification) is unknown, when its read failed. */
function readFailure(kind: ReferenceKind, live: LiveState, id: string): string | undefined {
  const read: LiveRead<unknown> | undefined =
    kind === "media"
      ? live.media.get(id)
      : kind === "toll_free_verification"
        ? live.tollFreeVerifications.get(id)
        : undefined;
  if (read === undefined) return undefined;
  switch (read.kind) {
    case "found":
    case "not-found":
      return undefined;
    case "forbidden":
      return `access denied (${read.message})`;
    case "error":
      return `${read.code}: ${read.message}`;
  }
}
