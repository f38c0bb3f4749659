/**
 * The offline snapshot (src/plan/snapshot.ts), pure: built per organization from what a run read
 * (each organization gets only its own lists, numbers, brands and registrations), merged into the
 * one on disk per organization, and found for a file by the organization it names.
 */
import { describe, expect, test } from "vitest";
import type { ContactList, Organization, PhoneNumber, TenDlcCampaign } from "../../src/contract/resources.js";
import { mergeSnapshots, organizationIn, snapshotOf } from "../../src/plan/snapshot.js";
import { schemaErrors } from "../helpers/schemas.js";

const AT = new Date("2026-11-01T00:00:00Z");
const org = (id: string, name: string): Organization => ({
  id,
  display_name: name,
  parent_org_name: null,
  status: "active",
  created_at: "2026-01-01T00:00:00Z",
});
const list = (id: string, name: string, orgId: string): ContactList => ({
  id,
  name,
  brand_id: `brand-${orgId}`,
  brand_name: `Brand of ${orgId}`,
  org_id: orgId,
  org_name: orgId,
  created_at: "2026-01-01T00:00:00Z",
});
const number = (id: string, e164: string, orgId: string): PhoneNumber =>
  ({
    id,
    number: e164,
    channel: "10dlc",
    owner_type: "campaign",
    campaign_id: `c-${orgId}`,
    campaign_name: "GOTV",
    brand_id: `brand-${orgId}`,
    brand_name: `Brand of ${orgId}`,
    toll_free_verification_id: null,
    toll_free_registration_name: null,
    tf_verification_status: null,
    org_id: orgId,
    org_name: orgId,
    status: "active",
    created_at: "2026-01-01T00:00:00Z",
    shared: false,
    nickname: null,
  }) as PhoneNumber;
const tenDlc = (id: string, orgId: string): TenDlcCampaign => ({
  id,
  name: "GOTV",
  brand_id: `brand-${orgId}`,
  brand_name: `Brand of ${orgId}`,
  org_id: orgId,
  org_name: orgId,
  campaign_status: "MNO_PROVISIONED",
  created_at: "2026-01-01T00:00:00Z",
});

function read(orgs: Organization[]) {
  return snapshotOf(
    {
      organizations: orgs,
      tenDlcCampaigns: orgs.map((o) => tenDlc(`c-${o.id}`, o.id)),
      contactLists: orgs.flatMap((o) => [
        list(`l1-${o.id}`, "Voters", o.id),
        list(`l2-${o.id}`, "Do Not Text", o.id),
      ]),
      phoneNumbers: orgs.map((o, i) => number(`n-${o.id}`, `+1503555010${i}`, o.id)),
      projects: [],
      tollFreeVerifications: [],
    },
    "plan",
    AT,
  );
}

describe("the offline snapshot", () => {
  test("each organization gets its own names, sorted, and the document is valid", () => {
    const snapshot = read([org("o1", "Adams County Democrats"), org("o2", "Baker County Democrats")]);
    expect(schemaErrors("snapshot", snapshot)).toEqual([]);
    const adams = organizationIn(snapshot, "Adams County Democrats");
    expect(adams?.contact_lists).toEqual([
      { id: "l2-o1", name: "Do Not Text" },
      { id: "l1-o1", name: "Voters" },
    ]);
    expect(adams?.phone_numbers.map((n) => n.number)).toEqual(["+15035550100"]);
    expect(adams?.brands).toEqual([{ id: "brand-o1", name: "Brand of o1" }]);
    expect(adams?.registrations).toEqual([
      { id: "c-o1", name: "GOTV", kind: "10dlc", status: "MNO_PROVISIONED" },
    ]);
    expect(adams?.merge_fields).toContain("first_name");
    expect(organizationIn(snapshot, "o2")?.name).toBe("Baker County Democrats");
    // Two organizations and no `organization:` in the file: which one is not guessed.
    expect(organizationIn(snapshot, undefined)).toBeUndefined();
  });

  test("a run with one organization's key replaces that organization and keeps the others", () => {
    const both = read([org("o1", "Adams"), org("o2", "Baker")]);
    const adamsAgain = snapshotOf(
      {
        organizations: [org("o1", "Adams")],
        tenDlcCampaigns: [],
        contactLists: [list("l9", "New List", "o1")],
        phoneNumbers: [],
        projects: [],
        tollFreeVerifications: [],
      },
      "import",
      AT,
    );
    const merged = mergeSnapshots(both, adamsAgain);
    expect(merged.written_by).toBe("import");
    expect(merged.organizations.map((o) => o.name)).toEqual(["Adams", "Baker"]);
    expect(organizationIn(merged, "Adams")?.contact_lists).toEqual([{ id: "l9", name: "New List" }]);
    expect(organizationIn(merged, "Baker")?.contact_lists).toHaveLength(2);
    expect(organizationIn(adamsAgain, undefined)?.name).toBe("Adams");
  });
});
