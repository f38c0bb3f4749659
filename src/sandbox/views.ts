/** World records -> the contract's resource shapes (wire names, nulls where the contract has them). */
import type {
  ContactList,
  MediaFile,
  Organization,
  PhoneNumber,
  Project,
  TenDlcCampaign,
  TollFreeVerification,
} from "../contract/resources.js";
import type {
  ContactListRecord,
  MediaRecord,
  PhoneNumberRecord,
  ProjectRecord,
  TenDlcCampaignRecord,
  TollFreeVerificationRecord,
  World,
} from "./state/world.js";

const orgName = (w: World, id: string): string => w.organizations[id]?.name ?? "";
const brandName = (w: World, id: string): string => w.brands[id]?.name ?? "";

export function organizationView(w: World, id: string): Organization | undefined {
  const o = w.organizations[id];
  if (o === undefined) return undefined;
  return {
    id: o.id,
    display_name: o.name,
    parent_org_name: o.parent_id === null ? null : orgName(w, o.parent_id),
    status: o.status,
    created_at: o.created_at,
  };
}

/** GET /projects/{id}: the contract's fields plus `pause_reason` and `daily_cap_bypass`. */
export function projectView(p: ProjectRecord): Project {
  const { counters: _counters, completed_at: _completed, deleted: _deleted, ...wire } = p;
  return wire;
}

/** A number as its owner (or an ancestor of the owner) sees it. */
export function ownedPhoneView(w: World, n: PhoneNumberRecord): PhoneNumber {
  const campaign = n.campaign_id ? w.tenDlcCampaigns[n.campaign_id] : undefined;
  const tfv = n.toll_free_verification_id ? w.tollFreeVerifications[n.toll_free_verification_id] : undefined;
  return {
    id: n.id,
    number: n.number,
    channel: n.channel,
    owner_type: campaign ? "campaign" : tfv ? "toll_free_registration" : "unassigned",
    campaign_id: campaign?.id ?? null,
    campaign_name: campaign?.name ?? null,
    brand_id: campaign?.brand_id ?? null,
    brand_name: campaign ? brandName(w, campaign.brand_id) : null,
    toll_free_verification_id: tfv?.id ?? null,
    toll_free_registration_name: tfv?.name ?? null,
    tf_verification_status: tfv?.status ?? null,
    org_id: n.organization_id,
    org_name: orgName(w, n.organization_id),
    status: n.status,
    created_at: n.created_at,
    shared: false,
    nickname: null,
  };
}

/**
 * A number a parent shared with `sharee`: `shared: true`, the nickname, every owner-side name and
 * `brand_id` null; `org_id`/`org_name` name the organization it is shared with.
 */
export function sharedPhoneView(
  w: World,
  n: PhoneNumberRecord,
  sharee: string,
  nickname: string | null,
): PhoneNumber {
  return {
    ...ownedPhoneView(w, n),
    campaign_name: null,
    brand_id: null,
    brand_name: null,
    toll_free_registration_name: null,
    org_id: sharee,
    org_name: orgName(w, sharee),
    shared: true,
    nickname,
  };
}

export function tollFreeVerificationView(w: World, t: TollFreeVerificationRecord): TollFreeVerification {
  const numbers = Object.values(w.phoneNumbers).filter((n) => n.toll_free_verification_id === t.id);
  return {
    id: t.id,
    name: t.name,
    status: t.status,
    verification_request_id: t.verification_request_id,
    org_id: t.organization_id,
    org_name: orgName(w, t.organization_id),
    business_name: t.business_name,
    use_case: t.use_case,
    phone_number_count: numbers.length,
    phone_number_ids: numbers.map((n) => n.id),
    rejection_reason: t.rejection_reason,
    submitted_at: t.submitted_at,
    verified_at: t.verified_at,
    created_at: t.created_at,
    updated_at: t.updated_at,
  };
}

export function mediaView(m: MediaRecord): MediaFile {
  return {
    media_id: m.id,
    organization_id: m.organization_id,
    brand_id: m.brand_id,
    name: m.name,
    status: m.status,
    content_type: m.content_type,
    file_size_bytes: m.file_size_bytes,
    storage_key: m.storage_key,
    url: m.url,
    uploaded_via_api: m.uploaded_via_api,
    created_at: m.created_at,
    optimized_at: m.optimized_at,
  };
}

export function tenDlcCampaignView(w: World, c: TenDlcCampaignRecord): TenDlcCampaign {
  return {
    id: c.id,
    name: c.name,
    brand_id: c.brand_id,
    brand_name: brandName(w, c.brand_id),
    org_id: c.organization_id,
    org_name: orgName(w, c.organization_id),
    campaign_status: c.campaign_status,
    created_at: c.created_at,
  };
}

export function contactListView(w: World, l: ContactListRecord): ContactList {
  return {
    id: l.id,
    name: l.name,
    brand_id: l.brand_id,
    brand_name: brandName(w, l.brand_id),
    org_id: l.organization_id,
    org_name: orgName(w, l.organization_id),
    created_at: l.created_at,
  };
}
