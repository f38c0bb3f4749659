/**
 * The catalogs of every reference kind, built once per plan from live state. Pure.
 *
 * - Brands have no endpoint: a brand is known by the `brand_id`/`brand_name` pairs that 10DLC
 *   campaigns, contact lists and phone numbers carry.
 * - Toll-free verifications are known from the records read by id (`live.tollFreeVerifications`)
 *   and from the `toll_free_registration_name` of toll-free phone numbers.
 * - Media are known from the records read by id (`live.media`).
 * - Contact lists and suppression lists are both `live.contactLists`.
 */

import { type CatalogEntry, catalogOf } from "./catalog.js";
import type { LiveState } from "./live.js";

/** The kinds of reference a campaign file may write by name or id (tracking domains are not resolvable). */
export type ReferenceKind =
  | "organization"
  | "brand"
  | "campaign"
  | "toll_free_verification"
  | "phone_numbers"
  | "media"
  | "contact_lists"
  | "suppression_lists";

/** What people call each kind, for messages. */
export const REFERENCE_NOUN: Readonly<Record<ReferenceKind, string>> = {
  organization: "organization",
  brand: "brand",
  campaign: "10DLC campaign",
  toll_free_verification: "toll-free verification",
  phone_numbers: "phone number",
  media: "media file",
  contact_lists: "contact list",
  suppression_lists: "suppression list",
};

export type Catalogs = Readonly<Record<ReferenceKind, readonly CatalogEntry[]>>;

export function buildCatalogs(live: LiveState): Catalogs {
  const lists = catalogOf(
    live.contactLists.map((l) => ({
      id: l.id,
      labels: [l.name],
      display: l.name,
      organizations: [l.org_id],
    })),
  );
  const brandPairs: CatalogEntry[] = [];
  const addBrand = (id: string | null, name: string | null, organization: string): void => {
    if (id !== null && id !== "")
      brandPairs.push({
        id,
        labels: name === null ? [] : [name],
        display: name ?? id,
        organizations: [organization],
      });
  };
  for (const c of live.tenDlcCampaigns) addBrand(c.brand_id, c.brand_name, c.org_id);
  for (const l of live.contactLists) addBrand(l.brand_id, l.brand_name, l.org_id);
  for (const n of live.phoneNumbers) if (!n.shared) addBrand(n.brand_id, n.brand_name, n.org_id);

  const tollFree: CatalogEntry[] = [];
  for (const read of live.tollFreeVerifications.values())
    if (read.kind === "found")
      tollFree.push({
        id: read.value.id,
        labels: [read.value.name],
        display: read.value.name,
        organizations: [read.value.org_id],
      });
  for (const n of live.phoneNumbers) {
    const id = n.toll_free_verification_id;
    const name = n.toll_free_registration_name;
    if (id !== null && id !== "")
      tollFree.push({
        id,
        labels: name === null ? [] : [name],
        display: name ?? id,
        organizations: [n.org_id],
      });
  }

  const media: CatalogEntry[] = [];
  for (const read of live.media.values())
    if (read.kind === "found")
      media.push({
        id: read.value.media_id,
        labels: [read.value.name],
        display: read.value.name,
        organizations: [read.value.organization_id],
      });

  return {
    organization: catalogOf(
      live.organizations.map((o) => ({ id: o.id, labels: [o.display_name], display: o.display_name })),
    ),
    brand: catalogOf(brandPairs),
    campaign: catalogOf(
      live.tenDlcCampaigns.map((c) => ({
        id: c.id,
        labels: [c.name],
        display: c.name,
        organizations: [c.org_id],
      })),
    ),
    toll_free_verification: catalogOf(tollFree),
    phone_numbers: catalogOf(
      live.phoneNumbers.map((n) => ({
        id: n.id,
        labels: n.nickname === null ? [n.number] : [n.number, n.nickname],
        display: n.nickname === null ? n.number : `${n.number} (${n.nickname})`,
        organizations: [n.org_id],
      })),
    ),
    media: catalogOf(media),
    contact_lists: lists,
    suppression_lists: lists,
  };
}
