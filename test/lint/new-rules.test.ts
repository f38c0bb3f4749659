/**
 * Lint rules of issue 10, through the loader on real YAML so positions are the file's: a schedule
 * offset that is not its timezone's, an `after` project that sends first, invisible and bidi
 * characters in a message.
 */
import { describe, expect, it } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { lintCampaign } from "../../src/campaign/lint/index.js";
import type { CampaignFile } from "../../src/campaign/model.js";

const now = new Date("2026-11-21T12:00:00Z");

function lint(text: string, clock: Date | null = now) {
  const file: CampaignFile = { path: "c.yaml", text, sha256: "0".repeat(64) };
  const assembled = assembleCampaign([file]);
  expect(assembled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return lintCampaign(assembled.campaign, { now: clock });
}

const where = (ds: ReturnType<typeof lint>) =>
  ds.map(
    (d) => `${d.code}:${d.severity}@${d.range?.start.line}:${d.range?.start.column}-${d.range?.end.column}`,
  );

const scheduled = (at: string, timezone = "America/Chicago") => `version: 1
projects:
  a:
    id: p1
    message: "Vote! Reply STOP to opt out"
    contact_lists: [Ward 3]
    state: scheduled
    schedule:
      at: "${at}"
      timezone: ${timezone}
`;

describe("schedule offset against the timezone on that date", () => {
  /** [at, timezone, flagged] */
  const CASES: readonly [string, string, boolean][] = [
    ["2026-12-07T10:00:00-05:00", "America/Chicago", true], // Chicago is at -06:00 in December
    ["2026-12-07T10:00:00-06:00", "America/Chicago", false],
    ["2026-07-07T10:00:00-05:00", "America/Chicago", false], // daylight time in July
    ["2026-07-07T10:00:00-06:00", "America/Chicago", true],
    ["2027-03-14T10:00:00-05:00", "America/New_York", true], // DST begins that morning: -04:00
    ["2026-12-07T16:00:00Z", "America/Chicago", true],
    ["2026-12-07T10:00:00-10:00", "Pacific/Honolulu", false],
  ];
  it.each(CASES)("%s in %s: flagged %s", (at, zone, flagged) => {
    const found = lint(scheduled(at, zone)).filter((d) => d.code === "lint.schedule-offset-mismatch");
    expect(where(found)).toEqual(
      flagged ? [`lint.schedule-offset-mismatch:warning@9:11-${11 + at.length + 2}`] : [],
    );
  });

  it("says when it really sends and what to write instead", () => {
    const [d] = lint(scheduled("2026-12-07T10:00:00-05:00")).filter(
      (x) => x.code === "lint.schedule-offset-mismatch",
    );
    expect(d?.message).toBe(
      "a: schedule at 2026-12-07T10:00:00-05:00 has offset -05:00, but America/Chicago is at -06:00 on 2026-12-07: it sends at 09:00 local time, not 10:00",
    );
    expect(d?.hint).toContain('"2026-12-07T10:00:00-06:00"');
  });
});

describe("a project ordered after another that sends first", () => {
  const pair = (first: string, second: string, secondState = "scheduled") => `version: 1
defaults:
  message: "Vote! Reply STOP to opt out"
  contact_lists: [Ward 3]
  state: scheduled
projects:
  reminder:
    id: p1
    schedule: {at: "${first}", timezone: America/Chicago}
  followup:
    id: p2
    state: ${secondState}
    schedule: {at: "${second}", timezone: America/Chicago}
    after: [reminder]
`;
  /** [reminder at, follow-up at, follow-up state, flagged] */
  const CASES: readonly [string, string, string, boolean][] = [
    ["2026-12-07T10:00:00-06:00", "2026-12-07T09:00:00-06:00", "scheduled", true],
    ["2026-12-07T10:00:00-06:00", "2026-12-07T11:00:00-05:00", "scheduled", false], // same instant
    ["2026-12-07T10:00:00-06:00", "2026-12-08T15:00:00-06:00", "scheduled", false],
    ["2026-12-07T10:00:00-06:00", "now", "scheduled", true],
    ["now", "2026-12-07T10:00:00-06:00", "scheduled", false],
    ["2026-12-07T10:00:00-06:00", "2026-12-07T09:00:00-06:00", "tested", false],
  ];
  it.each(CASES)("reminder %s, follow-up %s (%s): flagged %s", (first, second, state, flagged) => {
    const found = lint(pair(first, second, state)).filter((d) => d.code === "lint.after-sends-first");
    expect(where(found)).toEqual(flagged ? ["lint.after-sends-first:error@14:13-21"] : []);
    if (flagged) expect(found[0]?.related?.[0]?.range.start.line).toBe(9);
  });

  it("without a clock, `at: now` is not compared", () => {
    const found = lint(pair("2026-12-07T10:00:00-06:00", "now"), null);
    expect(found.filter((d) => d.code === "lint.after-sends-first")).toEqual([]);
  });
});

describe("invisible and bidirectional characters in a message", () => {
  const withMessage = (message: string) => `version: 1
projects:
  a:
    id: p1
    message: "${message}"
`;
  /** [message as written in double quotes, expected findings] */
  const CASES: readonly [string, readonly string[]][] = [
    ["Vote\\u200B Tuesday. Reply STOP to opt out", ["lint.invisible-character:warning@5:19-25"]],
    ["Vote\\u200B\\u200C Tuesday. Reply STOP", ["lint.invisible-character:warning@5:19-31"]],
    [
      "Vote \\u202Eyadseut\\u202C. Reply STOP",
      ["lint.bidi-control:error@5:20-26", "lint.bidi-control:error@5:33-39"],
    ],
    ["Soft\\u00ADhyphen. Reply STOP", ["lint.invisible-character:warning@5:19-25"]],
    ["Plain text. Reply STOP to opt out", []],
    ["Café and emoji 🗳 are visible. Reply STOP", []],
  ];
  it.each(CASES)("%s", (message, expected) => {
    const found = lint(withMessage(message)).filter(
      (d) => d.code === "lint.invisible-character" || d.code === "lint.bidi-control",
    );
    expect(where(found)).toEqual(expected);
  });

  it("finds a raw character at its exact column in a plain scalar", () => {
    const found = lint("version: 1\nprojects:\n  a:\n    id: p1\n    message: Vote\u200B now. Reply STOP\n");
    expect(where(found)).toEqual(["lint.invisible-character:warning@5:18-19"]);
    expect(found[0]?.message).toBe("a: the message holds invisible characters (U+200B)");
  });
});

describe("invisible and bidirectional characters in a merge default the message sends", () => {
  const withDefault = (value: string, message = "Hi {{first_name}}, vote Tuesday. Reply STOP to opt out") =>
    `version: 1
merge_defaults:
  first_name: "${value}"
projects:
  a:
    id: p1
    message: "${message}"
`;
  const found = (text: string) =>
    lint(text).filter((d) => d.code === "lint.invisible-character" || d.code === "lint.bidi-control");

  it("reports a bidi override in the default of a tag without a fallback, at the tag", () => {
    const ds = found(withDefault("Ann\\u202Egnp.exe"));
    expect(where(ds)).toEqual(["lint.bidi-control:error@7:18-32"]);
    expect(ds[0]?.message).toBe(
      "a: the merge_defaults value of `first_name`, which {{first_name}} sends to every contact without one, holds bidirectional control characters (U+202E) that reorder or hide text",
    );
  });

  it("reports invisible characters in a default as a warning", () => {
    expect(where(found(withDefault("fri\\u200Bend")))).toEqual(["lint.invisible-character:warning@7:18-32"]);
  });

  it("says nothing when every tag of the field has its own fallback, or the default is plain", () => {
    expect(found(withDefault("Ann\\u202Egnp", "Hi {{first_name|friend}}. Reply STOP to opt out"))).toEqual(
      [],
    );
    expect(found(withDefault("friend"))).toEqual([]);
  });
});
