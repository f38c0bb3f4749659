/**
 * The policy's `require_approvals` rule (issue 37 point 6): parsed with its allowed signers file
 * re-spelled from the run's directory, combined as a floor (tighter: a larger count, every schedule
 * over cap bypasses only, the same signers file or none), invalid values refused, and shown in words.
 */
import { describe, expect, it } from "vitest";
import { combinePolicies } from "../../src/policy/combine.js";
import { parsePolicy } from "../../src/policy/parse.js";
import { policyRuleText } from "../../src/policy/rule-text.js";
import { where } from "../campaign/helpers.js";

function layer(file: string, text: string) {
  const parsed = parsePolicy(file, `version: 1\nrules:\n  ${text}\n`);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
  return parsed.policy;
}

const ROOT = "require_approvals: {count: 2, for: daily_cap_bypass, allowed_signers: .github/allowed_signers}";
const root = layer("campaignctl.policy.yaml", ROOT);
const near = (text: string) => layer("campaigns/gotv/campaignctl.policy.yaml", text);

describe("require_approvals", () => {
  it("the allowed signers file is written relative to its policy file, and read from the run's directory", () => {
    expect(root.rules.require_approvals).toEqual({
      count: 2,
      for: "daily_cap_bypass",
      allowed_signers: ".github/allowed_signers",
    });
    expect(
      near("require_approvals: {count: 1, allowed_signers: ../../signers}").rules.require_approvals,
    ).toEqual({
      count: 1,
      allowed_signers: "signers",
    });
    expect(policyRuleText("require_approvals", root.rules)).toBe(
      "2 approvals (daily cap bypasses; signers .github/allowed_signers)",
    );
  });

  it.each([
    [
      "a larger count",
      "require_approvals: {count: 3, for: daily_cap_bypass, allowed_signers: ../../.github/allowed_signers}",
    ],
    ["every schedule", "require_approvals: {count: 2, allowed_signers: ../../.github/allowed_signers}"],
    ["no signers file (no signed approval counts)", "require_approvals: {count: 2, for: daily_cap_bypass}"],
  ])("a nearer file may tighten it: %s", (_what, text) => {
    const combined = combinePolicies([root, near(text)], []);
    expect(combined.diagnostics).toEqual([]);
    expect(combined.policy?.rules.require_approvals).toEqual(near(text).rules.require_approvals);
  });

  it.each([
    [
      "a smaller count",
      "require_approvals: {count: 1, for: daily_cap_bypass, allowed_signers: ../../.github/allowed_signers}",
    ],
    ["its own signers file", "require_approvals: {count: 3, allowed_signers: allowed_signers}"],
    // The same words next to the nearer file name another file: still a loosening.
    [
      "the same words in another directory",
      "require_approvals: {count: 3, allowed_signers: .github/allowed_signers}",
    ],
  ])("a nearer file may not loosen it silently: %s", (_what, text) => {
    const combined = combinePolicies([root, near(text)], []);
    expect(combined.diagnostics.map(where)).toEqual(["policy.loosens-ancestor@3:3"]);
    expect(combined.policy?.rules.require_approvals).toEqual(root.rules.require_approvals);
  });

  it("a farther file's rule holds when a nearer one adds none; --loosen-policy turns it off visibly", () => {
    expect(combinePolicies([root, near("forbid_at_now: true")], []).policy?.rules.require_approvals).toEqual(
      root.rules.require_approvals,
    );
    const loosened = combinePolicies([root], ["require_approvals"]);
    expect(loosened.policy?.rules.require_approvals).toBeUndefined();
    expect(loosened.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(["warning policy.loosened"]);
  });

  it.each([
    "require_approvals: {count: 0}",
    "require_approvals: {count: 11}",
    "require_approvals: {count: 2, for: tests}",
    "require_approvals: {allowed_signers: x}",
    "require_approvals: 2",
  ])("refuses %s", (text) => {
    const parsed = parsePolicy("campaignctl.policy.yaml", `version: 1\nrules:\n  ${text}\n`);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.diagnostics.map((d) => d.code)).toContain("policy.file-invalid");
  });
});
