/**
 * Pure parts of issue 26's keys per organization: the variable naming rule, finding keys in the
 * environment (never echoing one), `--target`/`--exclude` by template or organization, and names
 * resolved in the project's own organization.
 */
import { describe, expect, test } from "vitest";
import { organizationKeyEnv, organizationKeys, organizationSlug } from "../../src/api/organization-keys.js";
import { buildCatalogs } from "../../src/plan/catalogs.js";
import type { LiveState } from "../../src/plan/live.js";
import { resolveReferences } from "../../src/plan/resolve.js";
import { selectProjects } from "../../src/plan/select.js";
import { at, spec } from "../plan/builders.js";

describe("the naming rule", () => {
  test.each([
    ["Adams County Democrats", "CAMPAIGNCTL_API_KEY_ADAMS_COUNTY_DEMOCRATS"],
    ["  St. Mary's -- Parish Committee ", "CAMPAIGNCTL_API_KEY_ST_MARY_S_PARISH_COMMITTEE"],
    ["Peña County Democrats", "CAMPAIGNCTL_API_KEY_PENA_COUNTY_DEMOCRATS"],
    ["district 7", "CAMPAIGNCTL_API_KEY_DISTRICT_7"],
  ])("%s -> %s", (name, variable) => {
    expect(organizationKeyEnv(name)).toBe(variable);
  });

  test("a name without letters or digits has no variable", () => {
    expect(organizationSlug("--- ---")).toBe("");
    expect(organizationKeyEnv("---")).toBeNull();
  });

  test("keys are found by prefix; empty, non-slug and the default's variable are not keys", () => {
    const keys = organizationKeys(
      {
        CAMPAIGNCTL_API_KEY: "pc_live_default",
        CAMPAIGNCTL_API_KEY_ADAMS_COUNTY: " pc_live_adams ",
        CAMPAIGNCTL_API_KEY_BAKER: "",
        CAMPAIGNCTL_API_KEY_lower: "pc_live_lower",
        CAMPAIGNCTL_API_KEY_DOUBLE__UNDERSCORE: "pc_live_double",
        CAMPAIGNCTL_API_KEY_CI: "pc_live_ci",
        CAMPAIGNCTL_BASE_URL: "http://127.0.0.1:1/v1",
      },
      "CAMPAIGNCTL_API_KEY_CI",
    );
    expect([...keys.values()]).toEqual([
      { variable: "CAMPAIGNCTL_API_KEY_ADAMS_COUNTY", slug: "ADAMS_COUNTY", key: "pc_live_adams" },
    ]);
  });
});

describe("--target and --exclude by template or organization", () => {
  const origin = (template: string, instance: string) => ({
    template,
    instance,
    language: "en",
    templateRange: at(["templates", template]),
    instanceRange: at(["templates", template, "instances", instance]),
  });
  const projects = [
    spec({
      address: "adams-en",
      id: "p1",
      organization: "Adams County Democrats",
      origin: origin("gotv", "adams-en"),
    }),
    spec({
      address: "adams-es",
      id: "p2",
      organization: "Adams County Democrats",
      origin: origin("gotv", "adams-es"),
    }),
    spec({
      address: "baker-en",
      id: "p3",
      organization: "Baker County Democrats",
      origin: origin("gotv", "baker-en"),
    }),
    spec({ address: "baker-rally", id: "p4", organization: "Baker County Democrats" }),
  ];
  const selected = (targets: string[], excludes: string[] = []) =>
    [...selectProjects(projects, targets, excludes).selected].sort();

  test("a template name selects its instances; an organization its projects (case aside)", () => {
    expect(selected(["gotv"])).toEqual(["adams-en", "adams-es", "baker-en"]);
    expect(selected(["baker county democrats"])).toEqual(["baker-en", "baker-rally"]);
    expect(selected(["adams-es"])).toEqual(["adams-es"]);
    expect(selected([], ["Adams County Democrats"])).toEqual(["baker-en", "baker-rally"]);
    expect(selected(["gotv"], ["Baker County Democrats"])).toEqual(["adams-en", "adams-es"]);
  });

  test("a selector that names an address and a template (or an organization) is an error, never one of them", () => {
    const clash = [
      spec({ address: "adams-en", id: "p1", organization: "Adams", origin: origin("adams-en", "adams-en") }),
      spec({ address: "adams-es", id: "p2", organization: "Adams", origin: origin("adams-en", "adams-es") }),
      spec({ address: "baker-en", id: "p3", organization: "Baker", origin: origin("adams", "baker-en") }),
    ];
    const excluded = selectProjects(clash, [], ["adams-en"]);
    expect(excluded.diagnostics.map((d) => d.code)).toEqual(["plan.ambiguous-selector"]);
    expect(excluded.diagnostics[0]?.message).toContain("adams-en");
    const targeted = selectProjects(clash, ["adams"], []);
    expect(targeted.diagnostics.map((d) => d.code)).toEqual(["plan.ambiguous-selector"]);
    expect([...targeted.selected]).toEqual([]);
  });

  test("a near miss is an error with did-you-mean", () => {
    const { diagnostics } = selectProjects(projects, ["Adams County Democrat"], []);
    expect(diagnostics.map((d) => d.code)).toEqual(["plan.unknown-address"]);
    expect(diagnostics[0]?.hint).toContain("adams county democrats");
  });
});

describe("names resolve in the project's own organization", () => {
  const ADAMS = "0c000000-0000-4000-8000-000000000001";
  const BAKER = "0c000000-0000-4000-8000-000000000002";
  const list = (id: string, name: string, org: string, orgName: string) => ({
    id,
    name,
    brand_id: `brand-${org}`,
    brand_name: orgName,
    org_id: org,
    org_name: orgName,
    created_at: "2026-01-01T00:00:00Z",
  });
  const live: LiveState = {
    organizations: [
      { id: ADAMS, display_name: "Adams", parent_org_name: "State", status: "active", created_at: "" },
      { id: BAKER, display_name: "Baker", parent_org_name: "State", status: "active", created_at: "" },
    ],
    tenDlcCampaigns: [],
    contactLists: [
      list("l-adams", "Likely Voters", ADAMS, "Adams"),
      list("l-baker", "Likely Voters", BAKER, "Baker"),
      list("l-baker-only", "Baker Volunteers", BAKER, "Baker"),
    ],
    phoneNumbers: [],
    projects: new Map(),
    media: new Map(),
    tollFreeVerifications: new Map(),
  };

  test("a name two organizations share means the project's own organization's record", () => {
    const r = resolveReferences(
      spec({ phoneNumbers: undefined, contactLists: ["Likely Voters"] }),
      live,
      buildCatalogs(live),
      ADAMS,
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.refs.contactLists?.map((x) => x.id)).toEqual(["l-adams"]);
  });

  test("another organization's list, by name or by id, is refused at its line", () => {
    const r = resolveReferences(
      spec({ phoneNumbers: undefined, contactLists: ["Baker Volunteers"], suppressionLists: ["l-baker"] }),
      live,
      buildCatalogs(live),
      ADAMS,
    );
    expect(r.unresolved).toBe(true);
    expect(r.diagnostics.map((d) => [d.code, d.range?.start.line])).toEqual([
      ["plan.reference-other-organization", at(["contact_lists", 0]).start.line],
      ["plan.reference-other-organization", at(["suppression_lists", 0]).start.line],
    ]);
    expect(r.diagnostics[0]?.message).toContain(
      'belongs to "Baker", not to the project\'s own organization "Adams"',
    );
  });

  test("the file's organization wins over the live project's", () => {
    const r = resolveReferences(
      spec({ phoneNumbers: undefined, organization: "Baker", contactLists: ["Baker Volunteers"] }),
      live,
      buildCatalogs(live),
      ADAMS,
    );
    expect(r.diagnostics).toEqual([]);
  });
});
