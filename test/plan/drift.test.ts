import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Project } from "../../src/contract/resources.js";
import { assemblePlan } from "../../src/plan/assemble.js";
import type { DriftField } from "../../src/plan/types.js";
import { UNDESCRIBED_RULES } from "../../src/plan/undescribed.js";
import {
  at,
  BRAND,
  campaignOf,
  DOMAIN,
  input,
  LIST_DNT,
  LIST_VOL,
  LIST_WARD,
  liveProject,
  MEDIA,
  MESSAGE,
  PHONE_1,
  PHONE_2,
  type SpecOverrides,
  spec,
  TCR,
  tenDlcCampaign,
  world,
} from "./builders.js";

function planOf(specOverrides: SpecOverrides, live: Partial<Project> = {}) {
  const p = assemblePlan(input(campaignOf(spec(specOverrides)), world({ projects: [liveProject(live)] })));
  const project = p.projects[0];
  if (project === undefined) throw new Error("no project plan");
  return project;
}

const LINK = {
  destinationUrl: "https://riverside.vote/polls",
  paramField: "zip",
  fallbackUrl: "https://riverside.vote",
};
const LIVE_LINK: Partial<Project> = {
  link_tracking_enabled: true,
  link_tracking_destination_url: "https://riverside.vote/polls",
  link_tracking_domain_id: DOMAIN,
  link_tracking_param_field: "zip",
  link_tracking_fallback_url: "https://riverside.vote",
};

/** [field, file, live, before_text, after_text] */
const KINDS: readonly [DriftField, SpecOverrides, Partial<Project>, string, string][] = [
  ["name", { name: "GOTV" }, {}, '"GOTV reminder"', '"GOTV"'],
  ["type", { type: "survey" }, {}, '"broadcast"', '"survey"'],
  ["channel", { channel: "toll-free" }, {}, '"10dlc"', '"toll-free"'],
  ["message", { message: "Vote!" }, {}, MESSAGE, "Vote!"],
  [
    "contact_lists",
    { contactLists: ["Volunteer Prospects"] },
    {},
    "Ward 3 Likely Voters",
    "Volunteer Prospects",
  ],
  ["suppression_lists", { suppressionLists: [LIST_DNT] }, {}, "(none)", "Do Not Text"],
  ["media", { media: ["rally-flyer.png"] }, {}, "(none)", "rally-flyer.png"],
  ["phone_numbers", { phoneNumbers: ["+15035550102"] }, {}, "+15035550101", "+15035550102"],
  ["brand", { brand: "Riverside Democrats" }, { brand_id: "b-other" }, "b-other", "Riverside Democrats"],
  ["campaign", { tenDlcCampaign: "GOTV 2026" }, { campaign_id: "c-other" }, "c-other", "GOTV 2026"],
  ["toll_free_verification", { tollFreeVerification: "Volunteer Line" }, {}, "(none)", "Volunteer Line"],
  [
    "link_tracking",
    { linkTracking: LINK },
    {},
    "off",
    "on: https://riverside.vote/polls (param field zip, fallback https://riverside.vote)",
  ],
  ["opt_out_footer", { optOutFooter: true }, {}, "off", "on"],
];

describe("drift", () => {
  it.each(KINDS)("%s", (field, file, live, beforeText, afterText) => {
    const project = planOf(
      { state: "tested", test: { contacts: [{ phone: "+15035550199" }] }, phoneNumbers: [PHONE_1], ...file },
      live,
    );
    expect(project.drift.map((d) => [d.field, d.before_text, d.after_text])).toEqual([
      [field, beforeText, afterText],
    ]);
    expect(project.drift[0]?.fix).toBe("edit the file to match, or change the project in the dashboard");
    const diagnostic = project.diagnostics.find((d) => d.code === "plan.drift");
    expect(diagnostic?.severity).toBe("error");
    expect(diagnostic?.range).toEqual(at([field]));
    expect(project.actions.map((a) => [a.kind, a.status])).toEqual([["test", "blocked"]]);
    expect(project.actions[0]?.block?.codes).toContain("plan.drift");
  });

  it("covers every drift kind", () => {
    expect(new Set(KINDS.map(([field]) => field)).size).toBe(13);
  });

  it("before/after are ids (sorted sets) and the display uses names", () => {
    const project = planOf(
      { contactLists: ["Volunteer Prospects", LIST_WARD] },
      { contact_list_ids: [LIST_WARD] },
    );
    expect(project.drift[0]).toMatchObject({
      before: [LIST_WARD],
      after: [LIST_VOL, LIST_WARD].sort(),
      before_text: "Ward 3 Likely Voters",
    });
  });

  it("lists compare as sets: order and repetition do not matter", () => {
    const project = planOf(
      { phoneNumbers: ["+15035550102", PHONE_1] },
      { phone_number_ids: [PHONE_1, PHONE_2], contact_list_ids: [LIST_WARD] },
    );
    expect(project.drift).toEqual([]);
  });

  it("fields the file does not describe are not compared", () => {
    const project = planOf(
      { message: undefined, name: undefined },
      { name: "other", message_text: "other", media_ids: [MEDIA], link_tracking_enabled: true },
    );
    expect(project.drift).toEqual([]);
  });

  it("a matching project has no drift", () => {
    const project = planOf(
      {
        name: "GOTV reminder",
        channel: "10dlc",
        brand: BRAND,
        tenDlcCampaign: TCR,
        contactLists: ["Ward 3 Likely Voters"],
        phoneNumbers: [PHONE_1],
        linkTracking: { ...LINK, domain: DOMAIN },
        optOutFooter: true,
      },
      { ...LIVE_LINK, opt_out_footer_enabled: true },
    );
    expect(project.drift).toEqual([]);
    expect(project.diagnostics).toEqual([]);
  });

  it.each([
    ["destination", { destinationUrl: "https://riverside.vote/other" }],
    ["param field", { paramField: "city" }],
    ["fallback", { fallbackUrl: "https://other.vote" }],
    ["domain id", { domain: "d-other" }],
  ])("link tracking: a different %s is drift", (_, change) => {
    const project = planOf({ linkTracking: { ...LINK, ...change } }, LIVE_LINK);
    expect(project.drift.map((d) => d.field)).toEqual(["link_tracking"]);
  });

  it("link tracking: a domain name cannot be checked, which is an info, not drift", () => {
    const project = planOf({ linkTracking: { ...LINK, domain: "go.riverside.vote" } }, LIVE_LINK);
    expect(project.drift).toEqual([]);
    const info = project.diagnostics.find((d) => d.code === "plan.tracking-domain-unchecked");
    expect(info?.severity).toBe("info");
    expect(info?.range).toEqual(at(["link_tracking", "domain"]));
  });

  it("drift blocks test and schedule, not pause, and the pause says why it is safe", () => {
    const project = planOf({ state: "paused", message: "changed" }, { status: "scheduled" });
    expect(project.actions.map((a) => [a.kind, a.status])).toEqual([["pause", "planned"]]);
    expect(project.actions[0]?.reason).toContain("pausing is safe even though the project drifted");
  });

  it("desired draft: drift is reported, nothing is planned", () => {
    const project = planOf({ state: "draft", name: "x" });
    expect(project.drift).toHaveLength(1);
    expect(project.actions).toEqual([]);
  });

  it("a survey compares its intro only, and says the questions are not compared", () => {
    const project = planOf(
      { type: "survey", message: "Q1?" },
      { type: "survey", message_text: "Q1?", questions: [{}] },
    );
    expect(project.drift).toEqual([]);
    expect(project.notes).toContain("survey questions are not compared");
  });

  it("a reference that does not resolve is not compared (the reference error says it)", () => {
    const project = planOf({ tenDlcCampaign: "GOTV 2025" });
    expect(project.drift).toEqual([]);
    expect(project.diagnostics.map((d) => d.code)).toEqual(["plan.reference-missing"]);
  });

  it("brand display uses the name the lists carry", () => {
    const live = world({ projects: [liveProject({ brand_id: "b-2" })], tenDlcCampaigns: [tenDlcCampaign()] });
    const p = assemblePlan(input(campaignOf(spec({ brand: BRAND })), live));
    expect(p.projects[0]?.drift[0]).toMatchObject({ field: "brand", after: BRAND, before: "b-2" });
  });
});

/** The describe rule, one row per field of UNDESCRIBED_RULES: [field, live value, before_text]. */
const UNDESCRIBED: readonly [DriftField, Partial<Project>, string][] = [
  ["media", { media_ids: [MEDIA] }, "rally-flyer.png"],
  ["link_tracking", LIVE_LINK, "on: https://riverside.vote/polls"],
  ["opt_out_footer", { opt_out_footer_enabled: true }, "on"],
  ["suppression_lists", { suppression_list_ids: [LIST_DNT] }, "Do Not Text"],
  ["phone_numbers", { phone_number_ids: [PHONE_1] }, "+15035550101"],
];

/** A file that describes everything the rule judges, with neutral live values. */
const DESCRIBED_ALL: SpecOverrides = {
  phoneNumbers: [PHONE_1],
  media: [],
  suppressionLists: [],
  optOutFooter: false,
};
/** The builder's live project has one phone number and neutral everything else. */
const NEUTRAL_LIVE = (field: DriftField): Partial<Project> =>
  field === "phone_numbers" ? { phone_number_ids: [] } : {};

describe("describe rule: undescribed live content of a project that sends", () => {
  const SENDING = { state: "tested" as const, test: { contacts: [{ phone: "+15035550199" }] } };
  const KEY: Record<string, keyof SpecOverrides> = {
    media: "media",
    link_tracking: "linkTracking",
    opt_out_footer: "optOutFooter",
    suppression_lists: "suppressionLists",
    phone_numbers: "phoneNumbers",
  };

  it("has one case per rule of the table", () => {
    expect(UNDESCRIBED.map(([field]) => field)).toEqual(UNDESCRIBED_RULES.map((r) => r.field));
  });

  it("docs/campaign-files.md shows exactly the table's rows", () => {
    const page = readFileSync(new URL("../../docs/campaign-files.md", import.meta.url), "utf8");
    const rows = page.split("\n").filter((l) => /^\| `[a-z_]+` \| `[a-z_]+` \| /.test(l));
    expect(rows).toEqual(UNDESCRIBED_RULES.map((r) => `| \`${r.key}\` | \`${r.live}\` | ${r.neutral} |`));
  });

  it.each(UNDESCRIBED)(
    "%s: not described and not neutral live is drift, blocking the test",
    (field, live, text) => {
      const file: SpecOverrides = { ...SENDING, ...DESCRIBED_ALL, [KEY[field] as string]: undefined };
      const project = planOf(file, live);
      expect(project.drift.map((d) => [d.field, d.before_text, d.after_text, d.after])).toEqual([
        [field, text, "not described", null],
      ]);
      const diagnostic = project.diagnostics.find((d) => d.code === "plan.drift");
      expect(diagnostic?.severity).toBe("error");
      expect(diagnostic?.range).toEqual(at([]));
      expect(diagnostic?.message).toContain("the file does not describe it");
      expect(project.actions.map((a) => [a.kind, a.status])).toEqual([["test", "blocked"]]);
    },
  );

  it.each(UNDESCRIBED)("%s: not described and neutral live is fine", (field) => {
    const file: SpecOverrides = { ...SENDING, ...DESCRIBED_ALL, [KEY[field] as string]: undefined };
    const project = planOf(file, NEUTRAL_LIVE(field));
    expect(project.drift).toEqual([]);
  });

  it.each(UNDESCRIBED)(
    "%s: not judged when the desired state does not send (draft, paused)",
    (field, live) => {
      const file: SpecOverrides = { ...DESCRIBED_ALL, [KEY[field] as string]: undefined };
      expect(planOf({ ...file, state: "draft" }, live).drift).toEqual([]);
      const paused = planOf({ ...file, state: "paused" }, { ...live, status: "scheduled" });
      expect(paused.drift).toEqual([]);
      expect(paused.actions.map((a) => [a.kind, a.status])).toEqual([["pause", "planned"]]);
    },
  );

  it("a state scheduled is judged too, and every undescribed field is listed", () => {
    const project = planOf(
      {
        state: "scheduled",
        phoneNumbers: undefined,
        contactLists: [LIST_WARD],
        schedule: { at: "2026-11-05T10:00:00-06:00", timezone: "America/Chicago", dailyCapBypass: false },
      },
      { status: "ready", media_ids: [MEDIA], opt_out_footer_enabled: true },
    );
    expect(project.drift.map((d) => d.field)).toEqual(["media", "opt_out_footer", "phone_numbers"]);
    expect(project.actions.map((a) => [a.kind, a.status])).toEqual([["schedule", "blocked"]]);
  });
});
