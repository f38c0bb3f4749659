import { describe, expect, it } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { lintCampaign } from "../../src/campaign/lint/index.js";
import type { CampaignFile } from "../../src/campaign/model.js";

const now = new Date("2026-11-21T12:00:00Z");

function lintYaml(text: string) {
  const file: CampaignFile = { path: "c.yaml", text, sha256: "0".repeat(64) };
  const assembled = assembleCampaign([file]);
  expect(assembled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return lintCampaign(assembled.campaign, { now }).map((d) => [
    d.code,
    d.severity,
    `${d.range?.start.line}:${d.range?.start.column}-${d.range?.end.line}:${d.range?.end.column}`,
  ]);
}

describe("lint rules on real YAML, through the loader", () => {
  it("positions merge tag problems inside a folded block scalar", () => {
    const text = `version: 1
fields: [polling_place]
projects:
  a:
    id: p1
    message: >-
      Hi {{first_name|friend}}, vote at
      {{poling_place|your polling place}}. Reply STOP to opt out
`;
    expect(lintYaml(text)).toEqual([["message.unknown-tag", "error", "8:9-8:21"]]);
  });

  it("positions a shortener link and an unclosed tag in a plain scalar", () => {
    const text = `version: 1
projects:
  a:
    id: p1
    message: Info at bit.ly/x7 {{first_name|friend. Reply STOP to opt out
`;
    expect(lintYaml(text)).toEqual([
      ["lint.url-shortener", "warning", "5:22-5:31"],
      ["message.unclosed-tag", "error", "5:32-5:34"],
    ]);
  });

  it("accepts a whole-URL merge tag as the destination, and then requires a fallback", () => {
    const text = `version: 1
fields: [website]
projects:
  a:
    id: p1
    message: "Sign up today! Reply STOP to opt out"
    link_tracking:
      destination_url: "{{website}}"
`;
    expect(lintYaml(text)).toEqual([["lint.link-tracking-fallback-required", "error", "8:24-8:37"]]);
  });

  it("points schedule rules at the schedule's keys", () => {
    const text = `version: 1
projects:
  a:
    id: p1
    message: "Vote! Reply STOP to opt out"
    contact_lists: [Ward 3]
    state: scheduled
    schedule:
      at: "2026-11-20T22:30:00-05:00"
      timezone: America/New_York
      daily_cap_bypass: true
`;
    expect(lintYaml(text)).toEqual([
      ["lint.quiet-hours", "warning", "9:11-9:38"],
      ["lint.schedule-in-past", "warning", "9:11-9:38"],
      ["lint.daily-cap-bypass", "warning", "11:25-11:29"],
    ]);
  });

  it("points link tracking rules at their keys", () => {
    const text = `version: 1
projects:
  a:
    id: p1
    message: "Sign up! Reply STOP to opt out"
    link_tracking:
      destination_url: "http://riverside.vote/join"
      param_field: zipcode
`;
    expect(lintYaml(text)).toEqual([
      ["lint.link-tracking-not-https", "error", "7:24-7:52"],
      ["lint.link-tracking-unknown-param-field", "error", "8:20-8:27"],
    ]);
  });
});
