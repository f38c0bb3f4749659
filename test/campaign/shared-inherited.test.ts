import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { findPath } from "../../src/campaign/yaml-path.js";
import { campaignFile } from "./helpers.js";

const TEXT = `version: 1
defaults:
  channel: 10dlc
  brand: B
  campaign: C
  phone_numbers: ["+15035550101"]
  contact_lists: [L]
  state: scheduled
  schedule: {at: "2027-03-02T14:00:00-05:00", timezone: America/New_York}
  test:
    contacts:
      - {phone: "+15035550150", merge_values: {first_name: Ana}}
projects:
  a: {id: 9b000001-0000-4000-8000-000000000021, name: A, message: "Hi. Reply STOP to opt out"}
  b: {id: 9b000001-0000-4000-8000-000000000022, name: B, message: "Hi. Reply STOP to opt out"}
  c:
    id: 9b000001-0000-4000-8000-000000000023
    name: C
    message: "Hi. Reply STOP to opt out"
    schedule: {at: "2027-03-02T14:00:00-05:00", timezone: America/New_York}
    test: {contacts: [{phone: "+15035550150", merge_values: {first_name: Ana}}]}
`;

describe("what projects inherit from defaults (issue 36: built once per file)", () => {
  it("projects inheriting schedule and test share one object; a project's own is its own, equal in value", () => {
    const { campaign, diagnostics } = assembleCampaign([campaignFile("s.yaml", TEXT)]);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const [a, b, c] = campaign.projects;
    expect(a?.schedule).toBe(b?.schedule);
    expect(a?.test).toBe(b?.test);
    expect(c?.schedule).not.toBe(a?.schedule);
    expect(c?.test).not.toBe(a?.test);
    expect(c?.schedule).toEqual(a?.schedule);
    expect(c?.test).toEqual(a?.test);
    expect(a?.schedule).toEqual({
      at: "2027-03-02T14:00:00-05:00",
      timezone: "America/New_York",
      dailyCapBypass: false,
    });
    // Located where each is written: the inherited one in defaults, the own one in the project.
    expect(a?.locate(["schedule", "at"]).start.line).toBe(9);
    expect(c?.locate(["schedule", "at"]).start.line).toBe(20);
    // Without `after`: one shared empty list that cannot be changed.
    expect(a?.after).toEqual([]);
    expect(Object.isFrozen(a?.after)).toBe(true);
  });
});

describe("findPath's answer for paths found in part (one PathHit, issue 36)", () => {
  const doc = parseDocument("a:\n  b: [x, {c: 1}]\n  d: ~\ne: 2\n");
  const hit = (path: (string | number)[]) => {
    const found = findPath(doc, doc.contents, path);
    return { ...found, node: found.node?.range };
  };
  // The answers of the walk before this change (one object per segment), key order included.
  it("reports the deepest segment found, with the key of a map and without one for a list", () => {
    const cases: [(string | number)[], object][] = [
      [[], { complete: true, value: [0, 32], node: [0, 32, 32] }],
      [["zz"], { complete: false, value: [0, 32], node: [0, 32, 32] }],
      [["a", "zz"], { complete: false, key: [0, 1], value: [5, 27], node: [5, 27, 27] }],
      [["a", "b", 5], { complete: false, key: [5, 6], value: [8, 19], node: [8, 19, 20] }],
      [["a", "b", 1, "zz"], { complete: false, value: [12, 18], node: [12, 18, 18] }],
      [["e", "f"], { complete: false, key: [27, 28], value: [30, 31], node: [30, 31, 32] }],
      [["a", "d", "x"], { complete: false, key: [22, 23], value: [25, 26], node: [25, 26, 27] }],
      [["a", "b", 1, "c"], { complete: true, key: [13, 14], value: [16, 17], node: [16, 17, 17] }],
      [["a", "b", "1", "c"], { complete: true, key: [13, 14], value: [16, 17], node: [16, 17, 17] }],
    ];
    for (const [path, expected] of cases) {
      const found = hit(path);
      expect(found, JSON.stringify(path)).toStrictEqual(expected);
      expect(Object.keys(found)).toEqual(Object.keys(expected));
    }
  });
});
