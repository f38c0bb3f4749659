/**
 * A small world of several organizations for the keys-per-organization tests (issue 26): a parent
 * organization (with its own read-write key) and `orgs` county organizations under it, each with a
 * read-write key, a brand, a 10DLC registration, one number, a list "Likely Voters" (same name in
 * every organization), a suppression list "Do Not Text" and `projects` ready projects; and one
 * campaign file per organization (file-level `organization:`) that describes them without drift,
 * every project `state: scheduled`.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import type { Fixture, FixtureProject } from "../../src/sandbox/fixture/types.js";

export const PARENT_ORG = "0c000000-0000-4000-8000-000000000000";
export const PARENT_KEY = "pc_live_sbx_parent_rw_0000";
export const SCHEDULE_AT = "2026-12-07T10:00:00-06:00";

export interface OrgWorldOrg {
  readonly index: number;
  readonly id: string;
  readonly name: string;
  readonly key: string;
  readonly keyId: string;
  /** `CAMPAIGNCTL_API_KEY_<SLUG>` of this organization. */
  readonly variable: string;
  readonly listId: string;
  readonly suppressionId: string;
  readonly file: string;
  readonly projects: readonly { readonly address: string; readonly id: string }[];
}

export interface OrgWorld {
  readonly fixture: Fixture;
  readonly dir: string;
  readonly orgs: readonly OrgWorldOrg[];
}

const NAMES = [
  "Adams County Democrats",
  "Baker County Democrats",
  "Clark County Democrats",
  "Dane County Democrats",
];
const pad = (n: number, width = 12) => String(n).padStart(width, "0");
const MESSAGE = "Hi {{first_name|friend}}, vote Tuesday. Reply STOP to opt out";

export function buildOrgWorld(orgCount: number, projectsPerOrg: number): OrgWorld {
  const fixture: Fixture = {
    version: 1,
    clock: { start: "2026-12-01T15:00:00Z" },
    organizations: [
      { id: PARENT_ORG, name: "State Party", created_at: "2025-01-01T00:00:00Z", balance_cents: 500000 },
    ],
    api_keys: [
      {
        id: "key_parent",
        key: PARENT_KEY,
        name: "State Party (read-write)",
        organization_id: PARENT_ORG,
        type: "read-write",
        scopes: ["public:read", "public:write"],
      },
    ],
    brands: [],
    ten_dlc_campaigns: [],
    phone_numbers: [],
    contact_lists: [],
    suppression_lists: [],
    projects: [],
  } as unknown as Fixture;
  const f = fixture as unknown as Record<string, Record<string, unknown>[]>;
  const orgs: OrgWorldOrg[] = [];
  for (let i = 1; i <= orgCount; i++) {
    const name = NAMES[i - 1] ?? `County ${i} Democrats`;
    const id = `0c000000-0000-4000-8000-${pad(i)}`;
    const brandId = `0b000000-0000-4000-8000-${pad(i)}`;
    const campaignId = `0d000000-0000-4000-8000-${pad(i)}`;
    const numberId = `0a000000-0000-4000-8000-${pad(i)}`;
    const listId = `0e000000-0000-4000-8000-${pad(i)}`;
    const suppressionId = `0e000000-0000-4000-8001-${pad(i)}`;
    const number = `+1503555${pad(i, 4)}`;
    const key = `pc_live_sbx_o${pad(i, 2)}_rw_${pad(i, 6)}`;
    f.organizations?.push({
      id,
      name,
      parent_id: PARENT_ORG,
      created_at: "2025-02-01T00:00:00Z",
      balance_cents: 100000,
    });
    f.api_keys?.push({
      id: `key_o${pad(i, 2)}`,
      key,
      name: `${name} (read-write)`,
      organization_id: id,
      type: "read-write",
      scopes: ["public:read", "public:write"],
    });
    f.brands?.push({
      id: brandId,
      name,
      organization_id: id,
      daily_cap: 2000,
      created_at: "2025-02-02T00:00:00Z",
    });
    f.ten_dlc_campaigns?.push({
      id: campaignId,
      name: "GOTV 2026",
      brand_id: brandId,
      campaign_status: "MNO_PROVISIONED",
      created_at: "2026-03-01T00:00:00Z",
    });
    f.phone_numbers?.push({
      id: numberId,
      number,
      organization_id: id,
      channel: "10dlc",
      campaign_id: campaignId,
      created_at: "2026-03-02T00:00:00Z",
    });
    f.contact_lists?.push({
      id: listId,
      name: "Likely Voters",
      organization_id: id,
      brand_id: brandId,
      created_at: "2026-11-10T00:00:00Z",
      contacts: [
        { phone: `+1971555${pad(i, 2)}01`, fields: { first_name: "Ana" } },
        { phone: `+1971555${pad(i, 2)}02`, fields: { first_name: "Ben" } },
      ],
    });
    f.suppression_lists?.push({
      id: suppressionId,
      name: "Do Not Text",
      organization_id: id,
      brand_id: brandId,
      created_at: "2026-11-10T00:00:00Z",
      contacts: [{ phone: `+1971555${pad(i, 2)}99`, fields: { first_name: "Cy" } }],
    });
    const projects: { address: string; id: string }[] = [];
    for (let j = 1; j <= projectsPerOrg; j++) {
      const projectId = `9c000000-0000-4000-8000-${pad(i * 1000 + j)}`;
      const address = `o${i}-gotv-${j}`;
      projects.push({ address, id: projectId });
      const record: FixtureProject = {
        project_id: projectId,
        organization_id: id,
        name: `GOTV ${j}`,
        status: "ready",
        channel: "10dlc",
        brand_id: brandId,
        campaign_id: campaignId,
        phone_number_ids: [numberId],
        message_text: MESSAGE,
        contact_list_ids: [listId],
        suppression_list_ids: [suppressionId],
        opt_out_footer_enabled: false,
        created_at: "2026-11-24T17:40:00.000Z",
        updated_at: `2026-11-24T18:${pad(i, 2)}:${pad(j, 2)}.000Z`,
      } as FixtureProject;
      f.projects?.push(record as unknown as Record<string, unknown>);
    }
    const slug = name.toUpperCase().replace(/[^A-Z0-9]+/g, "_");
    orgs.push({
      index: i,
      id,
      name,
      key,
      keyId: `key_o${pad(i, 2)}`,
      variable: `CAMPAIGNCTL_API_KEY_${slug}`,
      listId,
      suppressionId,
      file: join("campaign", `org-${i}.yaml`),
      projects,
    });
  }
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-orgs-"));
  mkdirSync(join(dir, "campaign"));
  for (const org of orgs) writeCampaignFile(dir, org);
  return { fixture, dir, orgs };
}

/** Writes `org`'s campaign file, letting `edit` change the document (a list of another organization, ...). */
export function writeCampaignFile(
  dir: string,
  org: OrgWorldOrg,
  edit: (doc: Record<string, unknown>) => void = () => {},
): void {
  const doc: Record<string, unknown> = {
    version: 1,
    organization: org.name,
    merge_defaults: { first_name: "friend" },
    defaults: {
      channel: "10dlc",
      brand: org.name,
      campaign: "GOTV 2026",
      phone_numbers: [`+1503555${pad(org.index, 4)}`],
      contact_lists: ["Likely Voters"],
      suppression_lists: ["Do Not Text"],
      message: MESSAGE,
    },
    projects: Object.fromEntries(
      org.projects.map((p, j) => [
        p.address,
        {
          id: p.id,
          name: `GOTV ${j + 1}`,
          state: "scheduled",
          schedule: { at: SCHEDULE_AT, timezone: "America/Chicago" },
        },
      ]),
    ),
  };
  edit(doc);
  writeFileSync(join(dir, org.file), stringify(doc));
}
