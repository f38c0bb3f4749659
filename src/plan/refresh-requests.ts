/**
 * Request accounting of a refresh (`Plan.requests`): what was sent, from the client's statistics,
 * and what the naive refresh would have sent. Pure.
 */
import type { ApiClientStats } from "../api/index.js";
import type { Campaign } from "../campaign/model.js";
import type { RequestCount } from "./types.js";

/**
 * The naive refresh: one GET per project and one per distinct reference the files write
 * (organization, brand, 10DLC campaign, toll-free verification, phone numbers, media, contact and
 * suppression lists, tracking domain), each kind counted apart.
 */
export function naiveRequestCount(campaign: Campaign): number {
  const projects = new Set<string>();
  const references = new Set<string>();
  const add = (kind: string, values: readonly (string | undefined)[] | undefined): void => {
    for (const v of values ?? []) if (v !== undefined) references.add(`${kind}\u0000${v}`);
  };
  for (const p of campaign.projects) {
    projects.add(p.id);
    add("organization", [p.organization]);
    add("brand", [p.brand]);
    add("campaign", [p.tenDlcCampaign]);
    add("toll_free_verification", [p.tollFreeVerification]);
    add("phone_numbers", p.phoneNumbers);
    add("media", p.media);
    add("contact_lists", p.contactLists);
    add("suppression_lists", p.suppressionLists);
    add("tracking_domain", [p.linkTracking?.domain]);
  }
  return projects.size + references.size;
}

/** Every request a session made (its statistics since it opened), against `naive`. */
export function sessionRequests(stats: ApiClientStats, naive: number): RequestCount {
  return { total: stats.requests, by_endpoint: { ...stats.byEndpoint }, naive };
}

/** Requests made between two snapshots of the same client's statistics (retries included). */
export function requestDelta(before: ApiClientStats, after: ApiClientStats, naive: number): RequestCount {
  const byEndpoint: Record<string, number> = {};
  for (const [route, n] of Object.entries(after.byEndpoint)) {
    const delta = n - (before.byEndpoint[route] ?? 0);
    if (delta > 0) byEndpoint[route] = delta;
  }
  return { total: after.requests - before.requests, by_endpoint: byEndpoint, naive };
}
