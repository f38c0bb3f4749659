/** Where `importFiles` puts projects: per organization, into existing files by id, and conflicts. */
import { describe, expect, test } from "vitest";
import type { Organization } from "../../src/contract/resources.js";
import { importFiles } from "../../src/import/import-files.js";
import { lintImported } from "../../src/import/lint-result.js";
import { verifyFiles } from "../../src/import/verify.js";
import { buildCatalogs } from "../../src/plan/catalogs.js";
import { ORG, project } from "./records.js";

const ORG2: Organization = { ...ORG, id: "org2", display_name: "Youth Wing", parent_org_name: "Test Org" };
const CATALOGS = buildCatalogs({
  organizations: [ORG, ORG2],
  tenDlcCampaigns: [],
  contactLists: [],
  phoneNumbers: [],
  projects: new Map(),
  media: new Map(),
  tollFreeVerifications: new Map(),
});
// References the key cannot see are left out, so these projects carry only names and messages.
const base = { brand_id: "", campaign_id: "", phone_number_ids: [], contact_list_ids: [] };
const A1 = project({ ...base, project_id: "a1", name: "Alpha" });
const A2 = project({ ...base, project_id: "a2", name: "Alpha" });
const B1 = project({ ...base, project_id: "b1", organization_id: "org2", name: "Beta" });
const NOW = new Date("2026-12-01T00:00:00Z");

/** `importFiles` of `projects` over the two organizations' catalogs, into `campaigns/` unless `target` says otherwise. */
function importInto(
  projects: Parameters<typeof importFiles>[0]["projects"],
  existing: Parameters<typeof importFiles>[0]["existing"] = [],
  target: Parameters<typeof importFiles>[0]["target"] = { kind: "dir", dir: "campaigns" },
) {
  return importFiles({
    projects,
    organizations: [ORG, ORG2],
    catalogs: CATALOGS,
    existing,
    target,
    now: NOW,
  });
}

describe("importFiles", () => {
  test("--out DIR: one new file per organization, named after it; shared names get id suffixes", () => {
    const out = importInto([A1, A2, B1]);
    if (!out.ok) throw new Error(JSON.stringify(out.diagnostics));
    expect(out.files.map((f) => [f.path, f.before, f.changed])).toEqual([
      ["campaigns/test-org.yaml", undefined, true],
      ["campaigns/youth-wing.yaml", undefined, true],
    ]);
    expect(out.projects.map((p) => [p.id, p.address, p.file, p.change])).toEqual([
      ["a1", "alpha-a1", "campaigns/test-org.yaml", "added"],
      ["a2", "alpha-a2", "campaigns/test-org.yaml", "added"],
      ["b1", "beta", "campaigns/youth-wing.yaml", "added"],
    ]);
    expect(out.files[1]?.text).toContain("organization: Youth Wing\n");
  });

  test("an existing file keeps its projects' addresses; a new project of its organization joins it", () => {
    const existing = [
      {
        path: "campaigns/ours.yaml",
        text: "version: 1\norganization: org1 # by id\nprojects:\n  first:\n    id: a1\n    name: Alpha\n    message: Hi {{first_name|friend}}. Reply STOP to opt out\n    opt_out_footer: false\n    media: []\n    contact_lists: []\n    suppression_lists: []\n    channel: 10dlc\n    state: draft\n",
      },
    ];
    const out = importInto([A1, { ...A2, name: "Gamma" }], existing);
    if (!out.ok) throw new Error(JSON.stringify(out.diagnostics));
    expect(out.projects.map((p) => [p.address, p.file, p.change])).toEqual([
      ["first", "campaigns/ours.yaml", "unchanged"],
      ["gamma", "campaigns/ours.yaml", "added"],
    ]);
    expect(out.files[0]?.text.startsWith(existing[0]?.text ?? "")).toBe(true);
  });

  test("a project a template instance already describes is not added again (import then --check agree)", () => {
    // The template's instances are read by the loader: `a1` is described once, by `gotv-en`.
    const template = [
      "version: 1",
      "templates:",
      "  gotv:",
      "    message:",
      "      en: Hi {{first_name|friend}}. Reply STOP to opt out",
      "    opt_out_footer: false",
      "    instances:",
      "      gotv-en:",
      "        organization: Test Org",
      "        id: a1",
      "        language: en",
      "",
    ].join("\n");
    const existing = [{ path: "campaigns/gotv.yaml", text: template }];
    const out = importInto([A1, { ...A2, name: "Gamma" }], existing);
    if (!out.ok) throw new Error(JSON.stringify(out.diagnostics));
    expect(out.projects.map((p) => [p.id, p.address, p.file, p.change])).toEqual([
      ["a1", "gotv-en", "campaigns/gotv.yaml", "unchanged"],
      ["a2", "gamma", "campaigns/test-org.yaml", "added"],
    ]);
    expect(out.files.map((f) => [f.path, f.changed])).toEqual([
      ["campaigns/gotv.yaml", false],
      ["campaigns/test-org.yaml", true],
    ]);
    expect(out.files[0]?.text).toBe(template);
    expect(out.files[1]?.text).not.toContain("id: a1");
  });

  test("a new project's address never takes a template instance's address", () => {
    const existing = [
      {
        path: "campaigns/gotv.yaml",
        text: "version: 1\ntemplates:\n  gotv:\n    message:\n      en: Hi. Reply STOP to opt out\n    instances:\n      gamma:\n        organization: Test Org\n        id: zz\n        language: en\n",
      },
    ];
    const out = importInto([{ ...A2, name: "Gamma" }], existing);
    if (!out.ok) throw new Error(JSON.stringify(out.diagnostics));
    expect(out.projects.map((p) => [p.address, p.change])).toEqual([["gamma-a2", "added"]]);
  });

  test("read back, a written file that describes a project a file left alone describes too is refused", () => {
    // The duplicate is reported at the later file (the one left alone): it names the written one.
    const project = (id: string) =>
      `version: 1\norganization: Test Org\nprojects:\n  p-${id}:\n    id: shared\n    message: Hi. Reply STOP to opt out\n    state: draft\n`;
    const found = verifyFiles(
      [
        { path: "a.yaml", text: project("a"), written: true, placements: [] },
        { path: "b.yaml", text: project("b"), written: false, placements: [] },
      ],
      CATALOGS,
    );
    expect(found.map((d) => [d.code, d.range?.file])).toEqual([["import.verify-failed", "b.yaml"]]);
    expect(found[0]?.message).toContain("both describe live project shared");
  });

  test("a Spanish plain project is judged by Spanish opt-out wording, not English's STOP", () => {
    const spanish = {
      ...A1,
      message_text: "Hola {{first_name|amigo}}, vota el martes. Envía BAJA para no recibir más",
    };
    const out = importInto([spanish, { ...A2, message_text: "Hola, vota el martes. Gracias" }]);
    if (!out.ok) throw new Error(JSON.stringify(out.diagnostics));
    // Only the project with no opt-out wording in any language is said to break the rule.
    const found = lintImported(out.files, new Set(out.files.map((f) => f.path)), NOW);
    expect(found.map((d) => [d.code, d.severity, d.message.split(":")[0]])).toEqual([
      ["lint.opt-out-missing", "warning", "alpha-a2"],
    ]);
  });

  test("--out FILE of one organization and a project of another: import.organization-conflict", () => {
    const out = importInto(
      [B1],
      [{ path: "one.yaml", text: "version: 1\norganization: Test Org\nprojects: {}\n" }],
      { kind: "file", path: "one.yaml" },
    );
    expect(out.ok ? [] : out.diagnostics.map((d) => d.code)).toEqual(["import.organization-conflict"]);
  });
});
