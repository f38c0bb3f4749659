/**
 * Policies combine as floors (issue 16), table-driven: a nearer file may add or tighten a rule,
 * loosens one only when it names it under `loosens:`, never one a farther file locks; an empty
 * nearer file drops nothing; `--loosen-policy` turns a rule off, visibly.
 */
import { describe, expect, it } from "vitest";
import { atLeastAsStrict, combinePolicies } from "../../src/policy/combine.js";
import type { PolicyRuleName } from "../../src/policy/model.js";
import { parsePolicy } from "../../src/policy/parse.js";
import { where } from "../campaign/helpers.js";

const ROOT = `version: 1
rules:
  daily_cap_bypass: require_label
  min_test_contacts: 2
  max_estimated_cost_usd: 500
  send_window: {from: "09:00", to: "20:00"}
  require_opt_out_language: true
  forbid_at_now: true
  require_guards: true
  forecast_errors: [cap-pause]
`;

function layer(file: string, text: string) {
  const parsed = parsePolicy(file, text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
  return parsed.policy;
}

const root = layer("campaignctl.policy.yaml", ROOT);
const near = (text: string) => layer("campaigns/campaignctl.policy.yaml", `version: 1\n${text}`);

describe("combinePolicies", () => {
  it("an empty nearer policy drops nothing", () => {
    const combined = combinePolicies([root, near("rules: {}\n")], []);
    expect(combined.diagnostics).toEqual([]);
    expect(combined.policy?.rules).toEqual(root.rules);
    expect(combined.policy?.files).toEqual(["campaignctl.policy.yaml", "campaigns/campaignctl.policy.yaml"]);
    expect(combined.policy?.ranges.forbid_at_now?.file).toBe("campaignctl.policy.yaml");
  });

  it.each([
    ["daily_cap_bypass: forbid", "daily_cap_bypass", "forbid"],
    ["min_test_contacts: 3", "min_test_contacts", 3],
    ["max_estimated_cost_usd: 100", "max_estimated_cost_usd", 100],
    ['send_window: {from: "10:00", to: "19:00"}', "send_window", { from: "10:00", to: "19:00" }],
    ["require_opt_out_language: true", "require_opt_out_language", true],
    ["require_guards: true", "require_guards", true],
    ["forecast_errors: [cap-pause, past-deadline]", "forecast_errors", ["cap-pause", "past-deadline"]],
  ] as const)("tightens with %s", (rule, name, value) => {
    const combined = combinePolicies([root, near(`rules:\n  ${rule}\n`)], []);
    expect(combined.diagnostics).toEqual([]);
    expect(combined.policy?.rules[name as PolicyRuleName]).toEqual(value);
    expect(combined.policy?.ranges[name as PolicyRuleName]?.file).toBe("campaigns/campaignctl.policy.yaml");
  });

  it("adds a rule the farther file does not set", () => {
    const bare = layer("campaignctl.policy.yaml", "version: 1\nrules:\n  forbid_at_now: true\n");
    const combined = combinePolicies([bare, near("rules:\n  min_test_contacts: 2\n")], []);
    expect(combined.policy?.rules).toEqual({ forbid_at_now: true, min_test_contacts: 2 });
  });

  it.each([
    ["daily_cap_bypass: allow", "policy.loosens-ancestor@3:3"],
    ["min_test_contacts: 1", "policy.loosens-ancestor@3:3"],
    ["max_estimated_cost_usd: 501", "policy.loosens-ancestor@3:3"],
    ['send_window: {from: "08:00", to: "20:00"}', "policy.loosens-ancestor@3:3"],
    ['send_window: {from: "19:00", to: "10:00"}', "policy.loosens-ancestor@3:3"],
    ["require_opt_out_language: false", "policy.loosens-ancestor@3:3"],
    ["forbid_at_now: false", "policy.loosens-ancestor@3:3"],
    ["require_guards: false", "policy.loosens-ancestor@3:3"],
    ["forecast_errors: [past-deadline]", "policy.loosens-ancestor@3:3"],
  ])("refuses a silent loosening: %s", (rule, expected) => {
    const combined = combinePolicies([root, near(`rules:\n  ${rule}\n`)], []);
    expect(combined.diagnostics.map(where)).toEqual([expected]);
    expect(combined.diagnostics[0]?.related?.[0]?.range.file).toBe("campaignctl.policy.yaml");
    // The stricter value stays in force.
    expect(combined.policy?.rules).toEqual(root.rules);
  });

  it("loosens on purpose with loosens:, recorded and warned", () => {
    const combined = combinePolicies(
      [
        root,
        near('loosens: [send_window, forbid_at_now]\nrules:\n  send_window: {from: "08:00", to: "21:00"}\n'),
      ],
      [],
    );
    expect(combined.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual([
      "warning policy.loosened",
      "warning policy.loosened",
    ]);
    expect(combined.policy?.rules.send_window).toEqual({ from: "08:00", to: "21:00" });
    expect(combined.policy?.rules.forbid_at_now).toBeUndefined();
    expect(combined.policy?.loosened).toEqual([
      {
        rule: "send_window",
        from: { from: "09:00", to: "20:00" },
        to: { from: "08:00", to: "21:00" },
        by: "campaigns/campaignctl.policy.yaml",
      },
      { rule: "forbid_at_now", from: true, to: null, by: "campaigns/campaignctl.policy.yaml" },
    ]);
  });

  it("--loosen-policy turns a rule off, visibly", () => {
    const combined = combinePolicies([root], ["forbid_at_now"]);
    expect(combined.policy?.rules.forbid_at_now).toBeUndefined();
    expect(combined.policy?.loosened).toEqual([
      { rule: "forbid_at_now", from: true, to: null, by: "--loosen-policy" },
    ]);
    expect(combined.diagnostics.map((d) => d.message)).toEqual([
      "the policy's forbid_at_now is loosened by --loosen-policy: on -> off",
    ]);
  });

  it("a locked rule cannot be loosened by a nearer file or a flag", () => {
    const locking = layer("campaignctl.policy.yaml", `${ROOT}locked: [forbid_at_now]\n`);
    const byFile = combinePolicies(
      [locking, near("loosens: [forbid_at_now]\nrules:\n  forbid_at_now: false\n")],
      [],
    );
    expect(byFile.diagnostics.map(where)).toEqual(["policy.locked@4:3"]);
    expect(byFile.policy?.rules.forbid_at_now).toBe(true);
    const byFlag = combinePolicies([locking], ["forbid_at_now"]);
    expect(byFlag.diagnostics.map((d) => d.code)).toEqual(["policy.locked"]);
    expect(byFlag.policy?.rules.forbid_at_now).toBe(true);
  });

  it.each([
    [{ require_guards: true }, {}, true],
    [{ require_guards: true }, { require_guards: false }, true],
    [{ require_guards: true }, { require_guards: true }, true],
    [{}, { require_guards: true }, false],
    [{ require_guards: false }, { require_guards: true }, false],
    [{}, {}, true],
  ])("require_guards: %j is at least as strict as %j: %s", (next, current, strict) => {
    expect(atLeastAsStrict("require_guards", next, current)).toBe(strict);
  });

  it.each([
    [{ forecast_errors: ["cap-pause", "over-cap"] }, { forecast_errors: ["cap-pause"] }, true],
    [{ forecast_errors: ["cap-pause"] }, { forecast_errors: ["cap-pause"] }, true],
    [{ forecast_errors: ["over-cap"] }, { forecast_errors: ["cap-pause"] }, false],
    [{}, { forecast_errors: ["cap-pause"] }, false],
    [{ forecast_errors: ["quiet-hours"] }, {}, true],
  ] as const)("forecast_errors: %j is at least as strict as %j: %s", (next, current, strict) => {
    expect(atLeastAsStrict("forecast_errors", next, current)).toBe(strict);
  });

  it("no layers and no flags: no policy", () => {
    expect(combinePolicies([], [])).toEqual({ policy: null, diagnostics: [] });
  });
});
