/** Contract records for the pure import tests: a small catalog world and a project builder. */
import type { Organization, Project } from "../../src/contract/resources.js";
import { buildCatalogs, type Catalogs } from "../../src/plan/catalogs.js";
import { contactList, liveProject, phoneNumber, tenDlcCampaign } from "../plan/builders.js";

const at = "2026-11-01T00:00:00.000Z";
export const ORG: Organization = {
  id: "org1",
  display_name: "Test Org",
  parent_org_name: null,
  status: "active",
  created_at: at,
};
/** The ids and names every record of this world shares. */
const owner = {
  brand_id: "b1",
  brand_name: "Brand One",
  org_id: "org1",
  org_name: "Test Org",
  created_at: at,
} as const;
const list = (id: string, name: string) => contactList(id, name, owner);
const campaign = tenDlcCampaign({ ...owner, id: "c1", name: "GOTV" });
const number = phoneNumber("n1", "+15035550101", { ...owner, campaign_id: "c1", campaign_name: "GOTV" });

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
  return liveProject({
    project_id: "p1",
    organization_id: "org1",
    brand_id: "b1",
    campaign_id: "c1",
    phone_number_ids: ["n1"],
    name: "Project One",
    message_text: "Hi {{first_name|friend}}. Reply STOP to opt out",
    contact_list_ids: ["l1"],
    total_recipients: 3,
    estimated_cost_cents: 3,
    created_at: at,
    updated_at: at,
    ...overrides,
  });
}
