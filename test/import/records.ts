/** Contract records for the pure import tests: a small catalog world and a project builder. */
import type {
  ContactList,
  Organization,
  PhoneNumber,
  Project,
  TenDlcCampaign,
} from "../../src/contract/resources.js";
import { buildCatalogs, type Catalogs } from "../../src/plan/catalogs.js";

const at = "2026-11-01T00:00:00.000Z";
export const ORG: Organization = {
  id: "org1",
  display_name: "Test Org",
  parent_org_name: null,
  status: "active",
  created_at: at,
};
const list = (id: string, name: string): ContactList => ({
  id,
  name,
  brand_id: "b1",
  brand_name: "Brand One",
  org_id: "org1",
  org_name: "Test Org",
  created_at: at,
});
const campaign: TenDlcCampaign = {
  id: "c1",
  name: "GOTV",
  brand_id: "b1",
  brand_name: "Brand One",
  org_id: "org1",
  org_name: "Test Org",
  campaign_status: "MNO_PROVISIONED",
  created_at: at,
};
const number: PhoneNumber = {
  id: "n1",
  number: "+15035550101",
  channel: "10dlc",
  owner_type: "campaign",
  campaign_id: "c1",
  campaign_name: "GOTV",
  brand_id: "b1",
  brand_name: "Brand One",
  toll_free_verification_id: null,
  toll_free_registration_name: null,
  tf_verification_status: null,
  org_id: "org1",
  org_name: "Test Org",
  status: "active",
  created_at: at,
  shared: false,
  nickname: null,
};

/** Lists: l1 "Voters", l2 and l3 both "Twins", l4 named like list l1's id. */
export const CATALOGS: Catalogs = buildCatalogs({
  organizations: [ORG],
  tenDlcCampaigns: [campaign],
  contactLists: [list("l1", "Voters"), list("l2", "Twins"), list("l3", "Twins"), list("l4", "l1")],
  phoneNumbers: [number],
  projects: new Map(),
  media: new Map(),
  tollFreeVerifications: new Map(),
});

export function project(overrides: Partial<Project> = {}): Project {
  return {
    project_id: "p1",
    organization_id: "org1",
    channel: "10dlc",
    brand_id: "b1",
    campaign_id: "c1",
    toll_free_verification_id: null,
    phone_number_ids: ["n1"],
    name: "Project One",
    status: "draft",
    type: "broadcast",
    protocol: "sms",
    message_text: "Hi {{first_name|friend}}. Reply STOP to opt out",
    contact_list_ids: ["l1"],
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
    total_recipients: 3,
    estimated_cost_cents: 3,
    scheduled_at: null,
    scheduled_timezone: null,
    created_via_api: false,
    created_at: at,
    updated_at: at,
    ...overrides,
  };
}
