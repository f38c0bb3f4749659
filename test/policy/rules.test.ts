/** Policy as code, pure: the file's parsing (codes and positions) and each rule, table-driven. */
import { describe, expect, it } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import type { ProjectSpec } from "../../src/campaign/model.js";
import { parsePolicy } from "../../src/policy/parse.js";
import { type PolicyContext, policyViolations } from "../../src/policy/rules.js";
import { campaignFile, where } from "../campaign/helpers.js";
import { SEND_WINDOW_BOUNDARIES } from "../fixtures/send-window-boundaries.js";

const POLICY = `version: 1
rules:
  daily_cap_bypass: forbid
  min_test_contacts: 2
  max_estimated_cost_usd: 500
  send_window: {from: "09:00", to: "20:00"}
  require_opt_out_language: true
  forbid_at_now: true
`;

function policyOf(text: string) {
  const parsed = parsePolicy("campaignctl.policy.yaml", text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
  return parsed.policy;
}

/** One project `p` in gotv.yaml, with `body` as its keys (indented by 4). */
function project(body: string, allowed: readonly string[] = []): ProjectSpec {
  const text = `version: 1\nprojects:\n  p:\n    id: 9a000000-0000-4000-8000-000000000001\n${body
    .trim()
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n")}\n`;
  const assembled = assembleCampaign([campaignFile("gotv.yaml", text)]);
  const errors = assembled.diagnostics.filter((d) => d.severity === "error" && !allowed.includes(d.code));
  if (errors.length > 0) throw new Error(JSON.stringify(errors));
  const spec = assembled.campaign.projects[0];
  if (spec === undefined) throw new Error("no project");
  return spec;
}

/** One project `p` (keys `body`, indented by 4) under a file's `defaults` (`defaults`, indented by 2). */
function projectWithDefaults(body: string, defaults: string): ProjectSpec {
  const indent = (text: string, by: string) =>
    text
      .trim()
      .split("\n")
      .map((l) => `${by}${l}`)
      .join("\n");
  const text = `version: 1\ndefaults:\n${indent(defaults, "  ")}\nprojects:\n  p:\n    id: 9a000000-0000-4000-8000-000000000001\n${indent(body, "    ")}\n`;
  const assembled = assembleCampaign([campaignFile("gotv.yaml", text)]);
  const errors = assembled.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(JSON.stringify(errors));
  const spec = assembled.campaign.projects[0];
  if (spec === undefined) throw new Error("no project");
  return spec;
}

const offline: PolicyContext = { now: null, estimatedCostCents: null };
const SENDS = `message: "Hi, vote Tuesday. Reply STOP to opt out"
contact_lists: [Ward 3 Likely Voters]
state: scheduled
test:
  contacts: [{phone: "+15035550150"}, {phone: "+15035550151"}]`;

describe("parsePolicy", () => {
  it("reads every rule and where it is written", () => {
    const policy = policyOf(POLICY);
    expect(policy.rules).toEqual({
      daily_cap_bypass: "forbid",
      min_test_contacts: 2,
      max_estimated_cost_usd: 500,
      send_window: { from: "09:00", to: "20:00" },
      require_opt_out_language: true,
      forbid_at_now: true,
    });
    expect(policy.ranges.daily_cap_bypass?.start).toMatchObject({ line: 3, column: 3 });
    expect(policy.ranges.forbid_at_now?.start).toMatchObject({ line: 8, column: 3 });
  });

  it.each([
    ["version: 2\nrules: {}\n", ["policy.file-invalid@1:10"]],
    ["version: 1\nrules:\n  daily_cap_bypass: sometimes\n", ["policy.file-invalid@3:21"]],
    ["version: 1\nrules:\n  max_cost: 5\n", ["policy.file-invalid@3:3"]],
    ['version: 1\nrules:\n  send_window: {from: "9am", to: "20:00"}\n', ["policy.file-invalid@3:23"]],
    ["version: 1\nrules: [\n", ["policy.file-invalid@3:1"]],
  ])("refuses %j with a code and a position", (text, expected) => {
    const parsed = parsePolicy("campaignctl.policy.yaml", text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.diagnostics.map(where)).toEqual(expected);
  });
});

describe("policyViolations", () => {
  const policy = policyOf(POLICY);
  const cases: [string, string, PolicyContext, string[]][] = [
    [
      "a compliant project",
      `${SENDS}\nschedule: {at: "2026-12-07T10:00:00-06:00", timezone: America/Chicago}`,
      offline,
      [],
    ],
    [
      "daily_cap_bypass set",
      `${SENDS}\nschedule:\n  at: "2026-12-07T10:00:00-06:00"\n  timezone: America/Chicago\n  daily_cap_bypass: true`,
      offline,
      ["policy.daily-cap-bypass@13:25"],
    ],
    [
      "one test contact",
      `message: "Reply STOP to opt out"\nstate: tested\ntest:\n  contacts: [{phone: "+15035550150"}]`,
      offline,
      ["policy.min-test-contacts@8:17"],
    ],
    [
      "scheduled with no test: block at all (offline: validate judges it too)",
      `message: "Reply STOP to opt out"\ncontact_lists: [Ward 3]\nstate: scheduled\nschedule: {at: "2026-12-07T10:00:00-06:00", timezone: America/Chicago}`,
      offline,
      ["policy.min-test-contacts@7:12"],
    ],
    [
      "tested with no test: block at all",
      `message: "Reply STOP to opt out"\nstate: tested`,
      offline,
      ["policy.min-test-contacts@6:12"],
    ],
    [
      "opt-out language only in a tag's fallback (a contact with a value never sees it)",
      `message: "Vote Tuesday {{optout|Reply STOP to opt out}}"\ncontact_lists: [Ward 3]\nstate: tested\ntest:\n  contacts: [{phone: "+15035550150"}, {phone: "+15035550151"}]`,
      offline,
      ["policy.require-opt-out-language@5:14"],
    ],
    [
      "a costly send (live estimate)",
      `${SENDS}\nschedule: {at: "2026-12-07T10:00:00-06:00", timezone: America/Chicago}`,
      { now: null, estimatedCostCents: 50_001 },
      ["policy.max-estimated-cost-usd@10:15"],
    ],
    [
      "a send at 21:30 in its zone",
      `${SENDS}\nschedule: {at: "2026-12-07T21:30:00-06:00", timezone: America/Chicago}`,
      offline,
      ["policy.send-window@10:20"],
    ],
    [
      "at: now judged by the plan's clock (03:00 in Chicago)",
      `${SENDS}\nschedule: {at: now, timezone: America/Chicago}`,
      { now: new Date("2026-12-07T09:00:00Z"), estimatedCostCents: null },
      ["policy.send-window@10:20", "policy.forbid-at-now@10:20"],
    ],
    [
      '"Stop by" is not an opt-out instruction',
      `message: "Stop by the office on Main St"\nstate: tested\ntest:\n  contacts: [{phone: "+15035550150"}, {phone: "+15035550151"}]`,
      offline,
      ["policy.require-opt-out-language@5:14"],
    ],
    [
      "the opt-out footer counts",
      `message: "Stop by the office"\nopt_out_footer: true\nstate: tested\ntest:\n  contacts: [{phone: "+15035550150"}, {phone: "+15035550151"}]`,
      offline,
      [],
    ],
    [
      "a paused project is never a violation",
      `message: "Stop by"\ncontact_lists: [Ward 3]\nstate: paused\nschedule: {at: now, timezone: America/Chicago, daily_cap_bypass: true}`,
      offline,
      [],
    ],
  ];
  it.each(cases)("%s", (_name, body, context, expected) => {
    expect(policyViolations(policy, project(body), context).map(where)).toEqual(expected);
  });

  it("counts distinct test phones: the same phone twice is one reviewer", () => {
    const twice = project(
      `message: "Reply STOP to opt out"\nstate: tested\ntest:\n  contacts: [{phone: "+15035550150"}, {phone: "+15035550150"}]`,
      ["campaign.test-phone-repeated"],
    );
    expect(twice.test?.contacts.length).toBe(2);
    expect(policyViolations(policy, twice, offline).map(where)).toEqual(["policy.min-test-contacts@8:17"]);
  });

  it("a violation points at the policy's rule in related", () => {
    const [v] = policyViolations(
      policy,
      project(`${SENDS}\nschedule: {at: now, timezone: America/Chicago}`),
      { now: new Date("2026-12-07T16:00:00Z"), estimatedCostCents: null },
    );
    expect(v?.related?.[0]?.range).toMatchObject({ file: "campaignctl.policy.yaml", start: { line: 8 } });
  });

  it.each([
    ["allow", []],
    ["require_label", ["policy.daily-cap-bypass@10:94"]],
  ])("daily_cap_bypass: %s", (rule, expected) => {
    const p = policyOf(`version: 1\nrules:\n  daily_cap_bypass: ${rule}\n`);
    const body = `${SENDS}\nschedule: {at: "2026-12-07T10:00:00-06:00", timezone: America/Chicago, daily_cap_bypass: true}`;
    expect(policyViolations(p, project(body), offline).map(where)).toEqual(expected);
    const labelled = `${body}\nlabels: {daily-cap-bypass-approved: Dana Reyes}`;
    expect(policyViolations(p, project(labelled), offline)).toEqual([]);
  });

  it.each([
    ["a space", '" "'],
    ["a zero-width space", '"\\u200b"'],
    ["a zero-width joiner and a byte-order mark", '"\\u200d\\ufeff"'],
    ["a Hangul filler", '"\\u3164"'],
    ["a blank braille pattern", '"\\u2800"'],
    ["a lone combining accent", '"\\u0301"'],
    ["empty", '""'],
  ])("require_label is not met by a label of %s", (_name, value) => {
    const p = policyOf("version: 1\nrules:\n  daily_cap_bypass: require_label\n");
    const body = `${SENDS}\nschedule: {at: "2026-12-07T10:00:00-06:00", timezone: America/Chicago, daily_cap_bypass: true}\nlabels: {daily-cap-bypass-approved: ${value}}`;
    expect(policyViolations(p, project(body), offline).map((d) => d.code)).toEqual([
      "policy.daily-cap-bypass",
    ]);
  });
});

describe("require_guards", () => {
  const policy = policyOf("version: 1\nrules:\n  require_guards: true\n");
  const SCHEDULED = `${SENDS}\nschedule: {at: "2026-12-07T10:00:00-06:00", timezone: America/Chicago}`;
  /** [name, project keys, defaults (file-level, indented by 2), expected `code@line:col`] */
  const cases: [string, string, string, string[]][] = [
    ["a scheduled project without a guard (at its state)", SCHEDULED, "", ["policy.require-guards@7:12"]],
    ["a scheduled project with a failure rate", `${SCHEDULED}\nguard: {max_failure_rate: 0.05}`, "", []],
    ["a scheduled project with an opt-out rate", `${SCHEDULED}\nguard: {max_opt_out_rate: 0.02}`, "", []],
    [
      "a guard with only min_sample does not count (and is an error of its own)",
      `${SCHEDULED}\nguard: {min_sample: 50}`,
      "",
      ["policy.require-guards@7:12"],
    ],
    ["a guard inherited from defaults counts", SCHEDULED, "guard: {max_failure_rate: 0.05}", []],
    [
      "a tested project needs none (a test reaches test contacts only)",
      `message: "Reply STOP to opt out"\nstate: tested\ntest:\n  contacts: [{phone: "+15035550150"}]`,
      "",
      [],
    ],
    ["a draft project needs none", "state: draft", "", []],
    ["a paused project needs none", "state: paused", "", []],
  ];
  it.each(cases)("%s", (_name, body, defaults, expected) => {
    const spec =
      defaults === "" ? project(body, ["campaign.guard-without-rate"]) : projectWithDefaults(body, defaults);
    expect(policyViolations(policy, spec, offline).map(where)).toEqual(expected);
  });

  it("says what to add, and points at the policy's rule", () => {
    const [v] = policyViolations(policy, project(SCHEDULED), offline);
    expect(v?.message).toBe(
      "p: the project is scheduled without a guard, and the policy requires one on every send",
    );
    expect(v?.hint).toContain("guard: {max_failure_rate");
    expect(v?.related?.[0]).toMatchObject({
      message: "the policy's rule require_guards",
      range: { file: "campaignctl.policy.yaml", start: { line: 3, column: 3 } },
    });
  });
});

describe("send_window at the boundaries (the shared table, test/fixtures/send-window-boundaries.ts)", () => {
  it.each(SEND_WINDOW_BOUNDARIES)("$name ($at in $zone, $window.from-$window.to): inside $inside", (row) => {
    const policy = policyOf(
      `version: 1\nrules:\n  send_window: {from: "${row.window.from}", to: "${row.window.to}"}\n`,
    );
    const spec = project(`${SENDS}\nschedule: {at: "${row.at}", timezone: ${row.zone}}`);
    const found = policyViolations(policy, spec, offline);
    expect(found.map((d) => d.code)).toEqual(row.inside ? [] : ["policy.send-window"]);
    if (!row.inside) {
      expect(found[0]?.message).toContain(` ${row.local} `);
      expect(found[0]?.message).toContain(
        `in ${row.zone} it is outside the policy's send_window ${row.window.from}-${row.window.to}`,
      );
    }
  });
});
