/**
 * Link tracking as described vs live. Pure. A described `link_tracking` block means tracking is on,
 * with the destination it names; the domain, parameter field and fallback are compared only when
 * the file gives them. The API has no tracking-domain read, so a domain is compared by id only: a
 * value that looks like a host name (it has a dot, as `go.riverside.vote`) is a name and cannot be
 * checked; anything else is taken as an id.
 */
import type { LinkTrackingSpec } from "../campaign/model.js";
import type { Project } from "../contract/resources.js";

/** The compared members; absent ones were not described. */
export interface LinkTrackingValue {
  readonly enabled: boolean;
  readonly destination_url: string;
  readonly domain_id?: string;
  readonly param_field?: string;
  readonly fallback_url?: string | null;
}

export interface LinkTrackingComparison {
  readonly differs: boolean;
  readonly before: LinkTrackingValue;
  readonly after: LinkTrackingValue;
  readonly beforeText: string;
  readonly afterText: string;
  /** The domain as written, when it is a name that cannot be compared. */
  readonly uncheckedDomain?: string;
}

/** A tracking domain written as a host name rather than an id. */
export function isDomainName(value: string): boolean {
  return /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(value);
}

export function compareLinkTracking(spec: LinkTrackingSpec, project: Project): LinkTrackingComparison {
  const domainIsName = spec.domain !== undefined && isDomainName(spec.domain);
  const compareDomain = spec.domain !== undefined && !domainIsName;
  const after: LinkTrackingValue = {
    enabled: true,
    destination_url: spec.destinationUrl,
    ...(compareDomain && spec.domain !== undefined ? { domain_id: spec.domain } : {}),
    ...(spec.paramField !== undefined ? { param_field: spec.paramField } : {}),
    ...(spec.fallbackUrl !== undefined ? { fallback_url: spec.fallbackUrl } : {}),
  };
  const before: LinkTrackingValue = {
    enabled: project.link_tracking_enabled,
    destination_url: project.link_tracking_destination_url,
    ...(compareDomain ? { domain_id: project.link_tracking_domain_id } : {}),
    ...(spec.paramField !== undefined ? { param_field: project.link_tracking_param_field } : {}),
    ...(spec.fallbackUrl !== undefined ? { fallback_url: project.link_tracking_fallback_url } : {}),
  };
  const differs =
    before.enabled !== after.enabled ||
    before.destination_url !== after.destination_url ||
    before.domain_id !== after.domain_id ||
    before.param_field !== after.param_field ||
    before.fallback_url !== after.fallback_url;
  return {
    differs,
    before,
    after,
    beforeText: describe(before),
    afterText: describe(after),
    ...(domainIsName && spec.domain !== undefined ? { uncheckedDomain: spec.domain } : {}),
  };
}

/** "on: https://x (domain d1, param field zip, fallback https://y)" or "off". */
export function describe(value: LinkTrackingValue): string {
  if (!value.enabled) return "off";
  const extras = [
    value.domain_id === undefined ? undefined : `domain ${value.domain_id || "(none)"}`,
    value.param_field === undefined ? undefined : `param field ${value.param_field || "(none)"}`,
    value.fallback_url === undefined ? undefined : `fallback ${value.fallback_url ?? "(none)"}`,
  ].filter((e) => e !== undefined);
  return `on: ${value.destination_url}${extras.length > 0 ? ` (${extras.join(", ")})` : ""}`;
}
