/**
 * What a run reads or writes, with the organization its file names: the owners routing gives a key
 * (route-owners.ts). Structural, so a campaign file's project or email entry is one as it is.
 */
import type { SourceRange } from "../../diagnostics/diagnostic.js";

/** A project of the files (or one `import` names): its requests go with its organization's key. */
export interface ProjectOwner {
  readonly kind: "project";
  readonly id: string;
  readonly address: string;
  /** The organization as written (name or id); undefined: the file names none. */
  readonly organization?: string;
  /** Where a key of the entry is written (for `api.no-organization-key` at its `organization` line). */
  readonly locate?: (path: readonly (string | number)[]) => SourceRange;
}

/** An email list of the files: its upserts go with its organization's key (the file's `organization`). */
export interface EmailListOwner {
  readonly kind: "email-list";
  /** The live email list's id. */
  readonly id: string;
  readonly address: string;
  readonly organization?: string;
  readonly range?: SourceRange;
}

/** An email campaign of the files: read with its organization's key (merged with the others'). */
export interface EmailCampaignOwner {
  readonly kind: "email-campaign";
  readonly address: string;
  readonly organization?: string;
  readonly range?: SourceRange;
}

export type Owner = ProjectOwner | EmailListOwner | EmailCampaignOwner;

/** The projects of the files as owners. */
export function projectOwners(
  projects: readonly {
    readonly id: string;
    readonly address: string;
    readonly organization?: string;
    readonly locate?: ProjectOwner["locate"];
  }[],
): ProjectOwner[] {
  return projects.map((p) => ({
    kind: "project",
    id: p.id,
    address: p.address,
    ...(p.organization === undefined ? {} : { organization: p.organization }),
    ...(p.locate === undefined ? {} : { locate: p.locate }),
  }));
}

/** The email lists and campaigns of the files as owners. */
export function emailOwners(email: {
  readonly lists: readonly {
    readonly id: string;
    readonly address: string;
    readonly organization?: string;
    readonly range?: SourceRange;
  }[];
  readonly campaigns: readonly {
    readonly address: string;
    readonly organization?: string;
    readonly range?: SourceRange;
  }[];
}): Owner[] {
  const optional = (o: { readonly organization?: string; readonly range?: SourceRange }) => ({
    ...(o.organization === undefined ? {} : { organization: o.organization }),
    ...(o.range === undefined ? {} : { range: o.range }),
  });
  return [
    ...email.lists.map((l): Owner => ({ kind: "email-list", id: l.id, address: l.address, ...optional(l) })),
    ...email.campaigns.map((c): Owner => ({ kind: "email-campaign", address: c.address, ...optional(c) })),
  ];
}

/** Where `api.no-organization-key` (and a name mismatch) points for `owner`: its `organization` line. */
export function ownerRange(owner: Owner): SourceRange | undefined {
  return owner.kind === "project" ? owner.locate?.(["organization"]) : owner.range;
}

/** How messages name `owner`. */
export function ownerLabel(owner: Owner): string {
  switch (owner.kind) {
    case "project":
      return owner.address;
    case "email-list":
      return `email list ${owner.address}`;
    case "email-campaign":
      return `email campaign ${owner.address}`;
  }
}
