/**
 * Guards in the campaign files (issue 18 item 2): what `validate` says about a `guard:`, with code and
 * position; the guard a project ends up with (its own, else the defaults' whole); and the schema's
 * own limits (rates 0..1, `min_sample` >= 1, at least one key).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { lintCampaign } from "../../src/campaign/lint/index.js";
import { compareDiagnostics } from "../../src/diagnostics/diagnostic.js";
import { runCli } from "../helpers/run-cli.js";
import { campaignFile, where } from "./helpers.js";

function check(text: string) {
  const assembled = assembleCampaign([campaignFile("c.yaml", text)]);
  const lint = lintCampaign(assembled.campaign, { now: null });
  return { assembled, diagnostics: [...assembled.diagnostics, ...lint].sort(compareDiagnostics) };
}

const SENDS =
  "    message: Vote Tuesday! Reply STOP to opt out\n    contact_lists: [Ward 3]\n    state: scheduled\n    schedule: {at: now, timezone: America/Chicago}\n";

/** A file with one project `a`: `state` and the lines of its guard (indented under `guard:`). */
const withGuard = (guard: string, body = SENDS) =>
  `version: 1\nprojects:\n  a:\n    id: x\n${body}    guard:\n${guard
    .split("\n")
    .map((l) => `      ${l}`)
    .join("\n")}\n`;

/** [name, file text, expected `code@line:col`] */
const CASES: readonly [string, string, readonly string[]][] = [
  [
    "both rates and a sample",
    withGuard("max_failure_rate: 0.05\nmax_opt_out_rate: 0.02\nmin_sample: 200"),
    [],
  ],
  ["a failure rate alone (min_sample defaults to 100)", withGuard("max_failure_rate: 0.05"), []],
  ["an opt-out rate alone", withGuard("max_opt_out_rate: 0.02"), []],
  ["only min_sample: no rate to judge", withGuard("min_sample: 50"), ["campaign.guard-without-rate@10:7"]],
  [
    "only min_sample in flow style",
    `version: 1\nprojects:\n  a:\n    id: x\n${SENDS}    guard: {min_sample: 50}\n`,
    ["campaign.guard-without-rate@9:12"],
  ],
  [
    "only min_sample, inherited from defaults: the error points into defaults",
    `version: 1\ndefaults:\n  guard: {min_sample: 50}\nprojects:\n  a:\n    id: x\n${SENDS}`,
    ["campaign.guard-without-rate@3:10"],
  ],
  [
    "a project that never sends (draft) may carry a guard",
    withGuard("max_failure_rate: 0.05", "    state: draft\n"),
    [],
  ],
  [
    "a failure rate of 0 pauses at the first failure: a warning at the rate",
    withGuard("max_failure_rate: 0\nmin_sample: 20"),
    ["lint.guard-zero-rate@10:25"],
  ],
  [
    "both rates 0",
    withGuard("max_failure_rate: 0\nmax_opt_out_rate: 0"),
    ["lint.guard-zero-rate@10:25", "lint.guard-zero-rate@11:25"],
  ],
  [
    "a rate of 1 never trips (1 % meant?): a warning at the rate",
    withGuard("max_failure_rate: 1\nmax_opt_out_rate: 1"),
    ["lint.guard-rate-never-trips@10:25", "lint.guard-rate-never-trips@11:25"],
  ],
  ["a rate just under 1 is quiet", withGuard("max_failure_rate: 0.99"), []],
  ["a rate over 1 is a percent", withGuard("max_failure_rate: 5"), ["campaign.rate-as-percent@10:25"]],
  [
    "a negative rate is a schema error",
    withGuard("max_opt_out_rate: -0.1"),
    ["campaign.schema-invalid@10:25"],
  ],
  [
    "min_sample 0 is a schema error",
    withGuard("max_failure_rate: 0.05\nmin_sample: 0"),
    ["campaign.schema-invalid@11:19"],
  ],
  [
    "an empty guard is a schema error",
    `version: 1\nprojects:\n  a:\n    id: x\n${SENDS}    guard: {}\n`,
    ["campaign.schema-limit@9:12"],
  ],
  [
    "an unknown key in a guard",
    withGuard("max_failure_rate: 0.05\nmax_reply_rate: 0.5"),
    ["campaign.unknown-key@11:7"],
  ],
];

describe("validate: guards", () => {
  it.each(CASES)("%s", (_name, text, expected) => {
    expect(check(text).diagnostics.map(where)).toEqual(expected);
  });

  it("says what to add, and that watch would never pause", () => {
    const [d] = check(withGuard("min_sample: 50")).diagnostics;
    expect(d?.severity).toBe("error");
    expect(d?.message).toContain("`a`");
    expect(d?.message).toContain("would never pause");
    expect(d?.hint).toContain("max_failure_rate");
  });

  it("the zero-rate warning names the sample it waits for", () => {
    const [d] = check(withGuard("max_opt_out_rate: 0\nmin_sample: 1")).diagnostics;
    expect(d?.severity).toBe("warning");
    expect(d?.message).toBe(
      "a: `max_opt_out_rate: 0` pauses the send at its first opt-out, once 1 message is sent",
    );
  });
});

describe("the guard a project ends up with", () => {
  const DEFAULTS = "defaults:\n  guard: {max_failure_rate: 0.05, min_sample: 300}\n";
  it.each([
    [
      "its own, with the default sample",
      "guard: {max_opt_out_rate: 0.02}",
      { maxOptOutRate: 0.02, minSample: 100 },
    ],
    ["the defaults' (no own guard)", "name: A", { maxFailureRate: 0.05, minSample: 300 }],
    [
      "its own replaces the defaults' whole (no rate or sample is merged in)",
      "guard: {max_opt_out_rate: 0.01}",
      { maxOptOutRate: 0.01, minSample: 100 },
    ],
  ])("%s", (_name, own, expected) => {
    const { assembled } = check(`version: 1\n${DEFAULTS}projects:\n  a:\n    id: x\n    ${own}\n`);
    expect(assembled.diagnostics).toEqual([]);
    expect(assembled.campaign.projects[0]?.guard).toEqual(expected);
  });

  it("no guard anywhere: none", () => {
    const { assembled } = check("version: 1\nprojects:\n  a: {id: x}\n");
    expect(assembled.campaign.projects[0]?.guard).toBeUndefined();
  });
});

describe("campaignctl validate with guards", () => {
  const dirWith = (files: Record<string, string>): string => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-guards-"));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return dir;
  };
  const file = (guard: string) =>
    `version: 1\nprojects:\n  a:\n    id: x\n${SENDS}${guard === "" ? "" : `    guard: ${guard}\n`}`;
  const POLICY = "version: 1\nrules:\n  require_guards: true\n";
  const emailFile = (guard: string) =>
    `version: 1\nemail_campaigns:\n  news:\n    id: e4000000-0000-4000-8000-000000000001\n    guard: ${guard}\n`;

  it.each([
    ["a guard with a rate", file("{max_failure_rate: 0.05}"), "", 0, []],
    ["a guard without a rate", file("{min_sample: 50}"), "", 1, ["error[campaign.guard-without-rate]"]],
    ["a zero rate (a warning)", file("{max_opt_out_rate: 0}"), "", 0, ["warning[lint.guard-zero-rate]"]],
    [
      "a rate of 1 (a warning)",
      file("{max_failure_rate: 1}"),
      "",
      0,
      ["warning[lint.guard-rate-never-trips]"],
    ],
    ["no guard, policy requires one", file(""), POLICY, 1, ["error[policy.require-guards]"]],
    ["a guard, policy requires one", file("{max_failure_rate: 0.05}"), POLICY, 0, []],
    // An email campaign's guard alerts on its rates: one with none, or rates of 1, never alerts.
    [
      "an email campaign's guard without a rate",
      emailFile("{min_sample: 5}"),
      "",
      1,
      ["error[campaign.guard-without-rate]"],
    ],
    [
      "an email campaign's guard whose rate is 1",
      emailFile("{max_bounce_rate: 1, max_complaint_rate: 0.001}"),
      "",
      0,
      ["warning[lint.guard-rate-never-trips]"],
    ],
    ["an email campaign's guard with a rate", emailFile("{max_bounce_rate: 0.05}"), "", 0, []],
    // A guard that can never pause the send (every rate it sets is 1) does not meet the policy.
    [
      "a guard whose only rate is 1, policy requires one",
      file("{max_failure_rate: 1}"),
      POLICY,
      1,
      ["warning[lint.guard-rate-never-trips]", "error[policy.require-guards]"],
    ],
    [
      "a guard whose rates are both 1, policy requires one",
      file("{max_failure_rate: 1, max_opt_out_rate: 1}"),
      POLICY,
      1,
      [
        "warning[lint.guard-rate-never-trips]",
        "warning[lint.guard-rate-never-trips]",
        "error[policy.require-guards]",
      ],
    ],
    [
      "a guard with a rate of 1 and a rate that can pause, policy requires one",
      file("{max_failure_rate: 1, max_opt_out_rate: 0.02}"),
      POLICY,
      0,
      ["warning[lint.guard-rate-never-trips]"],
    ],
  ])("%s: exit %i", async (_name, text, policy, code, found) => {
    const files: Record<string, string> = { "c.yaml": text };
    if (policy !== "") files["campaignctl.policy.yaml"] = policy;
    const result = await runCli(["validate", "c.yaml", "--now", "2026-11-01T12:00:00Z"], {
      cwd: dirWith(files),
    });
    expect(result.code).toBe(code);
    expect([...result.stdout.matchAll(/(error|warning)\[[a-z.-]+\]/g)].map((m) => m[0])).toEqual(found);
  });
});
