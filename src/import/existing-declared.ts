/**
 * What the campaign files already under `--out` declare, read by the one campaign loader
 * (`assembleCampaign`), so that import sees every project they describe: a plain project under
 * `projects:` and a template's instance alike. Pure.
 */
import { parse } from "yaml";
import { assembleCampaign } from "../campaign/assemble.js";
import { sha256Hex } from "../campaign/decode.js";
import type { Catalogs } from "../plan/catalogs.js";
import { resolvedId } from "./names.js";

/**
 * Where a live project is already described. `template` is set when a template's instance describes
 * it: import leaves it as it is (it does not edit templates; `import --template` writes them).
 */
export interface Home {
  readonly path: string;
  readonly address: string;
  readonly template?: string;
}

/**
 * Invariants: `homes` holds every project id the files describe (first description first; the files
 * load without errors, so there is one); `addresses` every address they declare (projects,
 * instances, template names), which no new project may take.
 */
export interface Declared {
  readonly homes: ReadonlyMap<string, Home>;
  readonly addresses: ReadonlySet<string>;
  /** By file path: the organization id its top-level `organization` names, when it names one. */
  readonly organizations: ReadonlyMap<string, string>;
}

export function declaredIn(
  files: readonly { readonly path: string; readonly text: string }[],
  catalogs: Catalogs,
): Declared {
  const loaded = assembleCampaign(
    files.map((f) => ({ path: f.path, text: f.text, sha256: sha256Hex(new TextEncoder().encode(f.text)) })),
  );
  const homes = new Map<string, Home>();
  for (const spec of loaded.campaign.projects)
    if (spec.id !== "" && !homes.has(spec.id))
      homes.set(spec.id, {
        path: spec.file,
        address: spec.address,
        ...(spec.origin === undefined ? {} : { template: spec.origin.template }),
      });
  const addresses = new Set([...loaded.addresses, ...(loaded.campaign.templates ?? []).map((t) => t.name)]);
  const organizations = new Map<string, string>();
  for (const file of files) {
    const org = fileOrganization(file.text, catalogs);
    if (org !== undefined) organizations.set(file.path, org);
  }
  return { homes, addresses, organizations };
}

/** The organization a file's top-level `organization` names, by id (a file without one: undefined). */
function fileOrganization(text: string, catalogs: Catalogs): string | undefined {
  const raw = parse(text) as { organization?: unknown } | null;
  return typeof raw?.organization === "string"
    ? resolvedId(catalogs, "organization", raw.organization)
    : undefined;
}
