/**
 * A compact builder of sandbox fixtures and matching campaign files, for the plan command's tests.
 * One small world (an organization, a brand, a 10DLC campaign, a toll-free verification, numbers,
 * lists, media, a tracking domain); a live project and a file project that agree by default, so
 * each case changes only what it is about.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { DateTime } from "luxon";
import { stringify } from "yaml";
import type { FixtureProject } from "../../src/sandbox/fixture/types.js";
import type { Fixture } from "../../src/sandbox/index.js";

export const ORG = "00000000-0000-4000-8000-0000000000a1";
export const ORG_NAME = "Test Democrats";
export const KEY = "pc_live_test_plan_key_Zq81Xw03Lm";
export const BRAND = "00000000-0000-4000-8000-0000000000b1";
export const TEN_DLC = "00000000-0000-4000-8000-0000000000c1";
export const TFV = "00000000-0000-4000-8000-0000000000d1";
export const NUM1 = "00000000-0000-4000-8000-0000000000e1";
export const NUM2 = "00000000-0000-4000-8000-0000000000e2";
export const NUM_TF = "00000000-0000-4000-8000-0000000000e3";
export const LIST = "00000000-0000-4000-8000-0000000000f1";
export const LIST2 = "00000000-0000-4000-8000-0000000000f2";
export const SUPPRESS = "00000000-0000-4000-8000-0000000000f3";
export const MEDIA = "00000000-0000-4000-8000-000000000101";
export const MEDIA2 = "00000000-0000-4000-8000-000000000102";
export const DOMAIN = "00000000-0000-4000-8000-000000000201";
export const BRAND2 = "00000000-0000-4000-8000-0000000000b2";
export const TEN_DLC2 = "00000000-0000-4000-8000-0000000000c2";
export const TFV2 = "00000000-0000-4000-8000-0000000000d2";
export const OTHER_ORG = "00000000-0000-4000-8000-0000000000a2";
export const OTHER_LIST = "00000000-0000-4000-8000-0000000000f9";

export const MESSAGE = "Hi {{first_name|friend}}, polls are open 7am-7pm. Reply STOP to opt out";

/** Project ids: `pid(1)` ... */
export function pid(n: number): string {
  return `00000000-0000-4000-9000-${n.toString(16).padStart(12, "0")}`;
}

export interface WorldOptions {
  /** The sandbox's start (and the projects' times are relative to it). */
  readonly now: Date;
  readonly tenDlcStatus?: string;
  readonly tollFreeStatus?: string;
  readonly mediaStatus?: string;
  readonly numberStatus?: string;
  /** Number 2 registered to no 10DLC campaign (an unassigned purchase). */
  readonly number2Unregistered?: boolean;
}

const iso = (d: Date, days: number): string => new Date(d.getTime() + days * 86_400_000).toISOString();

/** The world, with `projects` in it. Lists and media are visible to the key unless moved. */
export function world(projects: readonly FixtureProject[], o: WorldOptions): Fixture {
  const created = iso(o.now, -200);
  const org = ORG;
  const list = (id: string, name: string, phones: readonly string[]) => ({
    id,
    name,
    organization_id: org,
    brand_id: BRAND,
    created_at: created,
    contacts: phones.map((phone, i) => ({ phone, fields: { first_name: `Contact${i}` } })),
  });
  return {
    version: 1,
    clock: { start: o.now.toISOString() },
    organizations: [
      { id: org, name: ORG_NAME, created_at: created, balance_cents: 100_000 },
      { id: OTHER_ORG, name: "Someone Else", created_at: created },
    ],
    api_keys: [
      {
        id: "key_test",
        key: KEY,
        organization_id: org,
        type: "read-write",
        scopes: ["public:read", "public:write"],
      },
    ],
    brands: [
      { id: BRAND, name: "Test Brand", organization_id: org, created_at: created },
      { id: BRAND2, name: "Other Brand", organization_id: org, created_at: created },
    ],
    ten_dlc_campaigns: [
      {
        id: TEN_DLC,
        name: "GOTV",
        brand_id: BRAND,
        campaign_status: o.tenDlcStatus ?? "MNO_PROVISIONED",
        created_at: created,
      },
      { id: TEN_DLC2, name: "Other 10DLC", brand_id: BRAND2, created_at: created },
    ],
    toll_free_verifications: [
      {
        id: TFV,
        name: "Volunteer Line",
        organization_id: org,
        status: o.tollFreeStatus ?? "Verified",
        created_at: created,
      },
      { id: TFV2, name: "Other Line", organization_id: org, created_at: created },
    ],
    phone_numbers: [
      {
        id: NUM1,
        number: "+15035550101",
        organization_id: org,
        channel: "10dlc",
        campaign_id: TEN_DLC,
        status: o.numberStatus ?? "active",
        created_at: created,
      },
      o.number2Unregistered === true
        ? { id: NUM2, number: "+15035550102", organization_id: org, channel: "10dlc", created_at: created }
        : {
            id: NUM2,
            number: "+15035550102",
            organization_id: org,
            channel: "10dlc",
            campaign_id: TEN_DLC,
            created_at: created,
          },
      {
        id: NUM_TF,
        number: "+18445550103",
        organization_id: org,
        channel: "toll-free",
        toll_free_verification_id: TFV,
        created_at: created,
      },
    ],
    tracking_domains: [{ id: DOMAIN, domain: "go.test.vote", organization_id: org }],
    media: [
      {
        id: MEDIA,
        name: "poster.png",
        organization_id: org,
        brand_id: BRAND,
        status: o.mediaStatus ?? "ready",
        created_at: created,
      },
      {
        id: MEDIA2,
        name: "flyer.png",
        organization_id: org,
        brand_id: BRAND,
        status: "ready",
        created_at: created,
      },
    ],
    contact_lists: [
      list(LIST, "Voters", ["+15035550110", "+15035550111", "+15035550112"]),
      list(LIST2, "Volunteers", ["+15035550120"]),
      {
        ...list(OTHER_LIST, "Their List", ["+15035550130"]),
        organization_id: OTHER_ORG,
        brand_id: undefined,
      },
    ],
    suppression_lists: [list(SUPPRESS, "Do Not Text", ["+15035550112"])],
    projects: [...projects],
  };
}

/** A live 10DLC project agreeing with {@link fileProject}'s defaults. */
export function liveProject(n: number, now: Date, overrides: Partial<FixtureProject> = {}): FixtureProject {
  return {
    project_id: pid(n),
    organization_id: ORG,
    name: `Project ${n}`,
    channel: "10dlc",
    brand_id: BRAND,
    campaign_id: TEN_DLC,
    phone_number_ids: [NUM1],
    status: "draft",
    message_text: MESSAGE,
    contact_list_ids: [LIST],
    suppression_list_ids: [],
    media_ids: [],
    opt_out_footer_enabled: false,
    total_recipients: 3,
    created_at: iso(now, -3),
    updated_at: iso(now, -1),
    ...overrides,
  };
}

/** A file project (campaign-file keys) agreeing with {@link liveProject}'s defaults. */
export function fileProject(n: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: pid(n),
    name: `Project ${n}`,
    channel: "10dlc",
    brand: "Test Brand",
    campaign: "GOTV",
    phone_numbers: ["+15035550101"],
    message: MESSAGE,
    contact_lists: ["Voters"],
    opt_out_footer: false,
    ...overrides,
  };
}

/** A test block with one contact. */
export const TEST_BLOCK = { contacts: [{ phone: "+15035550150", merge_values: { first_name: "Maria" } }] };

/** A schedule `days` after `now`, written in Chicago time with its offset. */
export function scheduleAt(now: Date, days: number): { at: string; timezone: string } {
  const at = DateTime.fromMillis(now.getTime() + days * 86_400_000, { zone: "America/Chicago" })
    .startOf("minute")
    .toISO({ suppressMilliseconds: true });
  return { at: at ?? "", timezone: "America/Chicago" };
}

/** A campaign file's text holding `projects` (address to file keys). */
export function campaignFile(projects: Record<string, Record<string, unknown>>): string {
  return stringify({ version: 1, organization: ORG_NAME, projects });
}

/** A fresh temp directory holding `files` (relative path to text). */
export function tempDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "cc-plan-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
