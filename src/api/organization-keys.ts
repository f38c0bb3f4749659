/**
 * Keys per organization (issue 26, SPEC-26.md): the key of organization O lives in the environment
 * variable `CAMPAIGNCTL_API_KEY_<SLUG>`, SLUG being O's name upper-cased with every run of
 * non-alphanumerics replaced by `_`, trimmed of `_`. `CAMPAIGNCTL_API_KEY` stays the one key of a
 * single organization (or a parent's key, which may read for its descendants). Pure: the
 * environment is passed in; nothing here ever returns or prints a value read from it except as the
 * `key` of an {@link OrganizationKey}, which only the client may see.
 */
import { API_KEY_ENV, type Env, isEnvName } from "./config.js";

/** The prefix of every per-organization key variable. */
export const ORGANIZATION_KEY_PREFIX = `${API_KEY_ENV}_`;

/**
 * The slug of an organization name: upper case, runs of non-alphanumerics as one `_`, no leading
 * or trailing `_` (`Adams County Democrats` -> `ADAMS_COUNTY_DEMOCRATS`). Empty when the name has
 * no ASCII letter or digit (such an organization can only use the default key).
 */
export function organizationSlug(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/** The variable holding organization `name`'s key, or null when its slug is empty. */
export function organizationKeyEnv(name: string): string | null {
  const slug = organizationSlug(name);
  return slug === "" ? null : `${ORGANIZATION_KEY_PREFIX}${slug}`;
}

/**
 * One per-organization key found in the environment. Invariants: `variable` is
 * `CAMPAIGNCTL_API_KEY_<slug>` with a non-empty slug; `key` is trimmed and non-empty; never print
 * `key`, only `variable`.
 */
export interface OrganizationKey {
  readonly variable: string;
  readonly slug: string;
  readonly key: string;
}

/**
 * Every per-organization key variable set (non-empty) in `env`, by slug, in name order. `exclude`
 * names a variable that is not one (the default key's, when `--api-key-env` points at a variable
 * with the prefix). Variables whose suffix is not a slug (lower case, `__`) are ignored: they could
 * not be the key of any organization name.
 */
export function organizationKeys(env: Env, exclude?: string): ReadonlyMap<string, OrganizationKey> {
  const found = new Map<string, OrganizationKey>();
  for (const variable of Object.keys(env).sort()) {
    if (!variable.startsWith(ORGANIZATION_KEY_PREFIX) || variable === exclude || !isEnvName(variable))
      continue;
    const slug = variable.slice(ORGANIZATION_KEY_PREFIX.length);
    if (slug === "" || organizationSlug(slug) !== slug) continue;
    const key = env[variable]?.trim() ?? "";
    if (key !== "") found.set(slug, { variable, slug, key });
  }
  return found;
}
