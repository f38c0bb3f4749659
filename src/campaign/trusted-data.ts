/**
 * What of a campaign file can still be trusted when its schema check failed: the data without the
 * keys the errors make untrusted, checked again. Pure.
 */

import { hasName, nameMap, nameMapFrom } from "../text/names.js";
import { type KeyTrust, keyTrust, projectKeys, type Untrusted } from "./key-trust.js";
import type { RawCampaignDocument } from "./raw.js";
import { validateCampaignData } from "./schema.js";

/** A copy of a map without `untrusted` keys and keys the schema does not know; undefined for "all". */
function withoutKeys(value: unknown, untrusted: Untrusted, known: readonly string[]): object | undefined {
  if (untrusted === "all" || typeof value !== "object" || value === null || Array.isArray(value))
    return undefined;
  return nameMapFrom(Object.entries(value).filter(([key]) => known.includes(key) && !untrusted.has(key)));
}

/**
 * The file's data without the keys its schema errors make untrusted: each project without its own,
 * `defaults` without its, the top level without its. Checked again: projects that are still not
 * schema-valid are left out, and undefined when the top level is not.
 */
export function trustedData(data: unknown, trust: KeyTrust): RawCampaignDocument | undefined {
  const top = data as Record<string, unknown>;
  const projects = nameMap<object>();
  const rawProjects = top.projects;
  if (typeof rawProjects === "object" && rawProjects !== null)
    for (const [address, value] of Object.entries(rawProjects)) {
      const project = withoutKeys(value, trust.projects.get(address) ?? new Set(), projectKeys());
      if (project !== undefined && hasName(project, "id")) projects[address] = project;
    }
  const kept: Record<string, unknown> = { version: top.version, projects };
  for (const key of ["organization", "merge_defaults", "fields", "capacity"])
    if (hasName(top, key) && !trust.file.has(key)) kept[key] = top[key];
  const defaults = withoutKeys(top.defaults, trust.defaults, projectKeys());
  if (defaults !== undefined) kept.defaults = defaults;
  const templates = trustedTemplates(top.templates, trust);
  if (templates !== undefined) kept.templates = templates;
  const again = keyTrust(validateCampaignData(kept).map((e) => ({ ...e, propertyName: propertyNameOf(e) })));
  if (again.outsideProjects || again.fileWide) return undefined;
  for (const address of again.projects.keys()) delete projects[address];
  // A template still in error after its untrusted parts were left out is left out whole.
  if (templates !== undefined)
    for (const name of again.templates.keys())
      if (name === "*") delete kept.templates;
      else delete templates[name];
  return kept as unknown as RawCampaignDocument;
}

/** The templates without those (and the instances) with schema errors; undefined for none. */
function trustedTemplates(value: unknown, trust: KeyTrust): Record<string, unknown> | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value) || trust.templates.has("*"))
    return undefined;
  const out = nameMap<unknown>();
  for (const [name, template] of Object.entries(value)) {
    const untrusted = trust.templates.get(name);
    if (untrusted === "all" || typeof template !== "object" || template === null) continue;
    const instances = nameMapFrom(
      Object.entries((template as { instances?: object }).instances ?? {}).filter(
        ([address]) => untrusted?.has(address) !== true,
      ),
    );
    if (Object.keys(instances).length > 0) out[name] = { ...template, instances };
  }
  return out;
}

/** The property an ajv error names (`additionalProperties`, `required`), when it names one. */
export function propertyNameOf(error: object): string | undefined {
  return "propertyName" in error && typeof error.propertyName === "string" ? error.propertyName : undefined;
}
