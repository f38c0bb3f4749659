/**
 * Hand-built campaigns and live states for planner tests. The default world is consistent: a
 * project built by `spec()` matches the live project built by `liveProject()` (no drift), and every
 * precondition holds. `spec().locate(path)` answers a range on line `LINES[path]` (distinct per
 * path; 1 when not listed), so a test can assert where a diagnostic points with `at(path)`.
 */
import type { Campaign, ProjectSpec, SpecPath } from "../../src/campaign/model.js";
import type {
  ContactList,
  MediaFile,
  Organization,
  PhoneNumber,
  Project,
  TenDlcCampaign,
  TollFreeVerification,
} from "../../src/contract/resources.js";
import type { SourceRange } from "../../src/diagnostics/diagnostic.js";
import type { AssembleInput } from "../../src/plan/assemble.js";
import type { LiveRead, LiveState } from "../../src/plan/live.js";

export const FILE = "gotv.yaml";
export const NOW = new Date("2026-11-01T12:00:00.000Z");
export const ORG = "0b6f3c1e-5d2a-4c41-9a8e-2f1d7c9e0a01";
export const BRAND = "b1a2c3d4-0000-4000-8000-000000000001";
export const TCR = "c1a2c3d4-0000-4000-8000-000000000001";
export const TFV = "7f1a2c3d-0000-4000-8000-000000000001";
export const PHONE_1 = "a1000000-0000-4000-8000-000000000001";
export const PHONE_2 = "a1000000-0000-4000-8000-000000000002";
export const PHONE_TF = "a1000000-0000-4000-8000-000000000003";
export const LIST_WARD = "e1000000-0000-4000-8000-000000000001";
export const LIST_VOL = "e1000000-0000-4000-8000-000000000002";
export const LIST_DNT = "e1000000-0000-4000-8000-000000000003";
export const MEDIA = "f1000000-0000-4000-8000-000000000001";
export const DOMAIN = "d1000000-0000-4000-8000-000000000001";
export const PROJECT_ID = "9a000000-0000-4000-8000-000000000001";
export const UPDATED_AT = "2026-10-30T09:00:00.000Z";
export const MESSAGE = "Hi {{first_name|friend}}, vote Tuesday! Reply STOP to opt out";

const LINES: Readonly<Record<string, number>> = {
  id: 2,
  organization: 3,
  name: 4,
  type: 5,
  channel: 6,
  brand: 7,
  campaign: 8,
  toll_free_verification: 9,
  phone_numbers: 10,
  "phone_numbers.0": 11,
  "phone_numbers.1": 12,
  message: 13,
  media: 14,
  "media.0": 15,
  contact_lists: 16,
  "contact_lists.0": 17,
  "contact_lists.1": 18,
  suppression_lists: 19,
  "suppression_lists.0": 20,
  link_tracking: 21,
  "link_tracking.domain": 22,
  opt_out_footer: 23,
  state: 24,
  test: 25,
  schedule: 26,
  "schedule.at": 27,
  after: 28,
  "after.0": 29,
  guard: 30,
};

/** The range `spec().locate(path)` answers. */
export function at(path: SpecPath): SourceRange {
  const line = LINES[path.join(".")] ?? 1;
  return {
    file: FILE,
    start: { line, column: 3, offset: line * 100 },
    end: { line, column: 9, offset: line * 100 + 6 },
  };
}

export type SpecOverrides = Partial<Omit<ProjectSpec, "locate" | "locateInMessage" | "range">>;

export function spec(overrides: SpecOverrides = {}): ProjectSpec {
  return {
    address: "gotv-reminder",
    file: FILE,
    id: PROJECT_ID,
    type: "broadcast",
    message: MESSAGE,
    // The describe rule: a project that sends describes its live phone numbers (src/plan/undescribed.ts).
    phoneNumbers: [PHONE_1],
    state: "draft",
    after: [],
    mergeDefaults: {},
    fields: [],
    range: at([]),
    locate: at,
    locateInMessage: () => at(["message"]),
    ...overrides,
  };
}

export function liveProject(overrides: Partial<Project> = {}): Project {
  return {
    project_id: PROJECT_ID,
    organization_id: ORG,
    channel: "10dlc",
    brand_id: BRAND,
    campaign_id: TCR,
    toll_free_verification_id: null,
    phone_number_ids: [PHONE_1],
    name: "GOTV reminder",
    status: "draft",
    type: "broadcast",
    protocol: "sms",
    message_text: MESSAGE,
    contact_list_ids: [LIST_WARD],
    suppression_list_ids: [],
    media_ids: [],
    media_urls: [],
    link_tracking_enabled: false,
    link_tracking_destination_url: "",
    link_tracking_domain_id: "",
    link_tracking_param_field: "",
    link_tracking_fallback_url: null,
    opt_out_footer_enabled: false,
    ai_survey_analysis_enabled: false,
    total_recipients: 40,
    estimated_cost_cents: 120,
    scheduled_at: null,
    scheduled_timezone: null,
    created_via_api: false,
    created_at: "2026-10-01T09:00:00.000Z",
    updated_at: UPDATED_AT,
    ...overrides,
  };
}

export const organization: Organization = {
  id: ORG,
  display_name: "Riverside Democrats",
  parent_org_name: null,
  status: "active",
  created_at: "2026-01-01T00:00:00.000Z",
};

export function tenDlcCampaign(overrides: Partial<TenDlcCampaign> = {}): TenDlcCampaign {
  return {
    id: TCR,
    name: "GOTV 2026",
    brand_id: BRAND,
    brand_name: "Riverside Democrats",
    org_id: ORG,
    org_name: "Riverside Democrats",
    campaign_status: "MNO_PROVISIONED",
    created_at: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}

export function contactList(id: string, name: string, overrides: Partial<ContactList> = {}): ContactList {
  return {
    id,
    name,
    brand_id: BRAND,
    brand_name: "Riverside Democrats",
    org_id: ORG,
    org_name: "Riverside Democrats",
    created_at: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}

export function phoneNumber(id: string, number: string, overrides: Partial<PhoneNumber> = {}): PhoneNumber {
  return {
    id,
    number,
    channel: "10dlc",
    owner_type: "campaign",
    campaign_id: TCR,
    campaign_name: "GOTV 2026",
    brand_id: BRAND,
    brand_name: "Riverside Democrats",
    toll_free_verification_id: null,
    toll_free_registration_name: null,
    tf_verification_status: null,
    org_id: ORG,
    org_name: "Riverside Democrats",
    status: "active",
    created_at: "2026-01-01T00:00:00.000Z",
    shared: false,
    nickname: null,
    ...overrides,
  };
}

export const tollFreeNumber = phoneNumber(PHONE_TF, "+18445550103", {
  channel: "toll-free",
  owner_type: "toll_free_registration",
  campaign_id: null,
  campaign_name: null,
  brand_id: null,
  brand_name: null,
  toll_free_verification_id: TFV,
  toll_free_registration_name: "Volunteer Line",
  tf_verification_status: "Verified",
});

export function tollFreeVerification(overrides: Partial<TollFreeVerification> = {}): TollFreeVerification {
  return {
    id: TFV,
    name: "Volunteer Line",
    status: "Verified",
    verification_request_id: "vr-1",
    org_id: ORG,
    org_name: "Riverside Democrats",
    business_name: "Riverside Democrats",
    use_case: "political",
    phone_number_count: 1,
    phone_number_ids: [PHONE_TF],
    rejection_reason: null,
    submitted_at: "2026-01-01T00:00:00.000Z",
    verified_at: "2026-01-02T00:00:00.000Z",
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-02T00:00:00.000Z",
    ...overrides,
  };
}

export function mediaFile(overrides: Partial<MediaFile> = {}): MediaFile {
  return {
    media_id: MEDIA,
    organization_id: ORG,
    brand_id: BRAND,
    name: "rally-flyer.png",
    status: "ready",
    content_type: "image/png",
    file_size_bytes: 1000,
    storage_key: "k",
    url: "https://cdn.example/rally-flyer.png",
    uploaded_via_api: false,
    created_at: "2026-01-01T00:00:00.000Z",
    optimized_at: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}

export function found<T>(value: T): LiveRead<T> {
  return { kind: "found", value };
}

export interface WorldOverrides extends Partial<Omit<LiveState, "projects">> {
  readonly projects?: readonly Project[];
  readonly reads?: ReadonlyMap<string, LiveRead<Project>>;
}

/** The example world; `projects` become found reads by id, `reads` add other outcomes. */
export function world(overrides: WorldOverrides = {}): LiveState {
  const projects = new Map<string, LiveRead<Project>>();
  for (const p of overrides.projects ?? [liveProject()]) projects.set(p.project_id, found(p));
  for (const [id, read] of overrides.reads ?? []) projects.set(id, read);
  return {
    organizations: overrides.organizations ?? [organization],
    tenDlcCampaigns: overrides.tenDlcCampaigns ?? [tenDlcCampaign()],
    contactLists: overrides.contactLists ?? [
      contactList(LIST_WARD, "Ward 3 Likely Voters"),
      contactList(LIST_VOL, "Volunteer Prospects"),
      contactList(LIST_DNT, "Do Not Text"),
    ],
    phoneNumbers: overrides.phoneNumbers ?? [
      phoneNumber(PHONE_1, "+15035550101"),
      phoneNumber(PHONE_2, "+15035550102"),
      tollFreeNumber,
    ],
    projects,
    media: overrides.media ?? new Map([[MEDIA, found(mediaFile())]]),
    tollFreeVerifications: overrides.tollFreeVerifications ?? new Map([[TFV, found(tollFreeVerification())]]),
  };
}

export function campaignOf(...projects: ProjectSpec[]): Campaign {
  return { files: [{ path: FILE, text: "", sha256: "0".repeat(64) }], projects };
}

export function input(
  campaign: Campaign,
  live: LiveState,
  overrides: Partial<AssembleInput> = {},
): AssembleInput {
  return {
    campaign,
    live,
    now: NOW,
    baseUrl: "http://127.0.0.1:4010/v1",
    toolVersion: "0.1.0-test",
    organizationId: ORG,
    targets: [],
    excludes: [],
    requests: { total: 0, by_endpoint: {}, naive: 0 },
    ...overrides,
  };
}

export const TEST_BLOCK = {
  contacts: [{ phone: "+15035550199", mergeValues: { first_name: "Ana" } }],
} as const;
export const SCHEDULE = {
  at: "2026-11-03T10:00:00-06:00",
  timezone: "America/Chicago",
  dailyCapBypass: false,
} as const;
