/**
 * Contract records for the pure `import --template` tests: three county organizations whose lists,
 * registration and brand share names ("Likely Voters", "GOTV 2026", "County Democrats"), each with
 * its own ids, and the projects of one GOTV text in English and Spanish.
 */
import type { Organization, Project } from "../../src/contract/resources.js";
import { buildCatalogs, type Catalogs } from "../../src/plan/catalogs.js";
import type { LiveState } from "../../src/plan/live.js";
import { contactList, liveProject, phoneNumber, tenDlcCampaign } from "../plan/builders.js";

export const EN = "Hi {{first_name|friend}}, vote Tuesday at {{polling_place}}. Reply STOP to opt out";
export const ES =
  "Hola {{first_name|amigo}}, vote el martes en {{polling_place}}. Responde STOP para no recibir más";

const at = "2026-11-01T00:00:00.000Z";
export const COUNTIES = ["Adams", "Benton", "Clark"] as const;
export type County = (typeof COUNTIES)[number];
const orgId = (c: County) => `org-${c.toLowerCase()}`;

export const ORGANIZATIONS: Organization[] = COUNTIES.map((c) => ({
  id: orgId(c),
  display_name: `${c} County Democrats`,
  parent_org_name: "State Party",
  status: "active",
  created_at: at,
}));

function owner(c: County) {
  return {
    brand_id: `brand-${c}`,
    brand_name: "County Democrats",
    org_id: orgId(c),
    org_name: `${c} County Democrats`,
    created_at: at,
  };
}

export const RECORDS: Omit<LiveState, "projects"> = {
  organizations: ORGANIZATIONS,
  tenDlcCampaigns: COUNTIES.map((c) => tenDlcCampaign({ ...owner(c), id: `tcr-${c}`, name: "GOTV 2026" })),
  contactLists: COUNTIES.flatMap((c) => [
    contactList(`likely-${c}`, "Likely Voters", owner(c)),
    contactList(`dnt-${c}`, "Do Not Text", owner(c)),
    contactList(`ward3-${c}`, "Ward 3 Likely Voters", owner(c)),
  ]),
  phoneNumbers: COUNTIES.map((c, i) =>
    phoneNumber(`num-${c}`, `+1503555010${i}`, {
      ...owner(c),
      campaign_id: `tcr-${c}`,
      campaign_name: "GOTV 2026",
    }),
  ),
  media: new Map(),
  tollFreeVerifications: new Map(),
};

export const ALL_CATALOGS: Catalogs = buildCatalogs({ ...RECORDS, projects: new Map() });

/** A project of county `c` in one language; ids are `p-<county>-<lang>`. */
export function countyProject(c: County, language: "en" | "es", overrides: Partial<Project> = {}): Project {
  return liveProject({
    project_id: `p-${c.toLowerCase()}-${language}`,
    organization_id: orgId(c),
    brand_id: `brand-${c}`,
    campaign_id: `tcr-${c}`,
    phone_number_ids: [`num-${c}`],
    name: "GOTV Reminder",
    status: "draft",
    message_text: language === "en" ? EN : ES,
    contact_list_ids: [`likely-${c}`],
    suppression_list_ids: [`dnt-${c}`],
    opt_out_footer_enabled: false,
    created_at: at,
    updated_at: at,
    ...overrides,
  });
}
