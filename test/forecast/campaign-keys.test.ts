/**
 * `capacity:` and `deadline:` in campaign files (issue 19 item 1): what `validate` says, with code
 * and position; the capacity the files combine to (defaults filled in, the smaller of two
 * declarations with a warning); the deadline a project ends up with.
 */
import { describe, expect, it } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { lintCampaign } from "../../src/campaign/lint/index.js";
import { compareDiagnostics } from "../../src/diagnostics/diagnostic.js";
import { capacityOfProjects, DEFAULT_CAPACITY } from "../../src/forecast/index.js";
import { campaignFile, where } from "../campaign/helpers.js";

function check(...texts: string[]) {
  const assembled = assembleCampaign(texts.map((t, i) => campaignFile(`c${i}.yaml`, t)));
  const lint = lintCampaign(assembled.campaign, { now: null });
  return { assembled, diagnostics: [...assembled.diagnostics, ...lint].sort(compareDiagnostics) };
}

const PROJECT =
  'projects:\n  a:\n    id: x\n    message: Vote Tuesday! Reply STOP to opt out\n    contact_lists: [Ward 3]\n    state: scheduled\n    schedule: {at: "2026-11-03T10:00:00-08:00", timezone: America/Los_Angeles}\n';
const file = (capacity: string, extra = "") => `version: 1\n${capacity}${PROJECT}${extra}`;

/** [name, file text, expected `code@line:col`] */
const CASES: readonly [string, string, readonly string[]][] = [
  [
    "a brand cap and both throughputs",
    file(
      'capacity:\n  brands:\n    "Riverside Democrats": {daily_cap: 2000}\n  throughput: {10dlc: 75, toll-free: 180}\n',
    ),
    [],
  ],
  ["a brand without a cap", file("capacity:\n  brands:\n    Riverside Democrats: {daily_cap: none}\n"), []],
  ["a cap of 0", file("capacity:\n  brands:\n    R: {daily_cap: 0}\n"), ["campaign.schema-format@4:20"]],
  [
    "a cap that is not whole",
    file("capacity:\n  brands:\n    R: {daily_cap: 1.5}\n"),
    ["campaign.schema-format@4:20"],
  ],
  ["a throughput of 0", file("capacity:\n  throughput: {10dlc: 0}\n"), ["campaign.schema-invalid@3:23"]],
  [
    "a throughput under 1 segment a minute (a forecast at 0.000001 would run for centuries)",
    file("capacity:\n  throughput: {10dlc: 0.000001}\n"),
    ["campaign.schema-invalid@3:23"],
  ],
  ["an unknown channel", file("capacity:\n  throughput: {short-code: 100}\n"), ["campaign.unknown-key@3:16"]],
  ["an unknown key", file("capacity:\n  brand: {}\n"), ["campaign.unknown-key@3:3"]],
  ["a brand without daily_cap", file("capacity:\n  brands:\n    R: {}\n"), ["campaign.missing-key@4:5"]],
  ["a deadline after the schedule", file("", '    deadline: "2026-11-03T20:00:00-08:00"\n'), []],
  [
    "a deadline before the schedule: a warning at the deadline",
    file("", '    deadline: "2026-11-03T09:00:00-08:00"\n'),
    ["forecast.deadline-before-schedule@9:15"],
  ],
  [
    "a deadline without an offset",
    file("", '    deadline: "2026-11-03T20:00:00"\n'),
    ["campaign.schema-format@9:15", "campaign.schema-pattern@9:15"],
  ],
  [
    "a deadline inherited from defaults, before the schedule: points into defaults",
    `version: 1\ndefaults:\n  deadline: "2026-11-02T20:00:00Z"\n${PROJECT}`,
    ["forecast.deadline-before-schedule@3:13"],
  ],
];

describe("validate: capacity and deadline", () => {
  it.each(CASES)("%s", (_name, text, expected) => {
    expect(check(text).diagnostics.map(where)).toEqual(expected);
  });
});

describe("the capacity the files declare", () => {
  it("no capacity: the defaults", () => {
    const { assembled } = check(file(""));
    expect(capacityOfProjects(assembled.campaign.projects)).toEqual({
      capacity: DEFAULT_CAPACITY,
      fastest: DEFAULT_CAPACITY.throughput,
      policyBrands: [],
      diagnostics: [],
    });
  });

  it("declared values over the defaults; `none` is no cap", () => {
    const { assembled } = check(
      file(
        "capacity:\n  brands:\n    R: {daily_cap: none}\n    S: {daily_cap: 500}\n  throughput: {toll-free: 60}\n",
      ),
    );
    const { capacity } = capacityOfProjects(assembled.campaign.projects);
    expect(capacity).toEqual({
      brands: { R: null, S: 500 },
      defaultDailyCap: 2000,
      throughput: { "10dlc": 75, "toll-free": 60 },
    });
  });

  it("two files that differ: the smaller, and a warning at the later declaration", () => {
    const other =
      "version: 1\ncapacity:\n  brands:\n    R: {daily_cap: 300}\n  throughput: {10dlc: 50}\nprojects:\n  b: {id: y}\n";
    const { assembled } = check(
      file("capacity:\n  brands:\n    R: {daily_cap: 400}\n  throughput: {10dlc: 60}\n"),
      other,
    );
    const { capacity, diagnostics } = capacityOfProjects(assembled.campaign.projects);
    expect(capacity.brands).toEqual({ R: 300 });
    expect(capacity.throughput["10dlc"]).toBe(50);
    expect(diagnostics.map(where)).toEqual([
      "forecast.capacity-conflict@4:20",
      "forecast.capacity-conflict@5:23",
    ]);
    expect(diagnostics.map((d) => d.range?.file)).toEqual(["c1.yaml", "c1.yaml"]);
  });
});
