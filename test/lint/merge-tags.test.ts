import { describe, expect, it } from "vitest";
import { lintCampaign } from "../../src/campaign/lint/index.js";
import { mergeTagsRule } from "../../src/campaign/lint/merge-tags.js";
import { campaignOf, messageRange, projectSpec } from "./project-spec.js";

const now = new Date("2026-10-01T12:00:00Z");
const STOP = " Reply STOP to opt out";

describe("merge tag rule: codes, severities and ranges inside the message", () => {
  const cases: { message: string; code: string; severity: string; start: number; end: number }[] = [
    { message: `Hi {{first_name${STOP}`, code: "message.unclosed-tag", severity: "error", start: 3, end: 5 },
    { message: `Hi }}${STOP}`, code: "message.stray-close", severity: "error", start: 3, end: 5 },
    { message: `Hi {{ |x}}${STOP}`, code: "message.empty-tag-name", severity: "error", start: 3, end: 10 },
    {
      message: `Hi {{first name|x}}${STOP}`,
      code: "message.invalid-tag-name",
      severity: "error",
      start: 5,
      end: 15,
    },
    {
      message: `Hi {{frist_name|x}}${STOP}`,
      code: "message.unknown-tag",
      severity: "error",
      start: 5,
      end: 15,
    },
    {
      message: `Hi {{last_name}}${STOP}`,
      code: "message.tag-may-render-empty",
      severity: "warning",
      start: 3,
      end: 16,
    },
  ];
  it.each(cases)("$code at $start-$end in $message", ({ message, code, severity, start, end }) => {
    const diagnostics = mergeTagsRule(projectSpec({ message }), { now });
    expect(diagnostics.map((d) => [d.code, d.severity, d.range])).toEqual([
      [code, severity, messageRange(start, end)],
    ]);
  });

  it("suggests the closest known field for an unknown tag", () => {
    const [d] = mergeTagsRule(
      projectSpec({ message: `{{poling_place|x}}${STOP}`, fields: ["polling_place"] }),
      { now },
    );
    expect(d?.hint).toMatch(/^did you mean \{\{polling_place\}\}\?/);
  });

  it("accepts declared custom fields and standard fields", () => {
    const message = `{{polling_place|your site}} {{city|here}} {{zip|}}${STOP}`;
    const diagnostics = mergeTagsRule(
      projectSpec({ message, fields: ["polling_place"], mergeDefaults: { zip: "00000" } }),
      { now },
    );
    expect(diagnostics).toEqual([]);
  });

  it("does not warn when merge_defaults covers a tag", () => {
    expect(
      mergeTagsRule(
        projectSpec({ message: `Hi {{first_name}}${STOP}`, mergeDefaults: { first_name: "friend" } }),
        { now },
      ),
    ).toEqual([]);
  });

  it("shows the text a contact without the value would get", () => {
    const [d] = mergeTagsRule(projectSpec({ message: "Hi {{first_name}}, vote!" }), { now });
    expect(d?.message).toBe(
      'gotv-reminder: {{first_name}} has no fallback and no merge_defaults entry, so a contact without it gets "Hi , vote!"',
    );
  });

  it("is part of lintCampaign", () => {
    const diagnostics = lintCampaign(campaignOf(projectSpec({ message: `{{}}${STOP}` })), { now });
    expect(diagnostics.map((d) => d.code)).toEqual(["message.empty-tag-name"]);
  });
});
