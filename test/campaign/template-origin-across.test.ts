/**
 * Template instances (issue 26 item 1) in the checks across projects and in local times: a finding
 * of `lintAcross` on an instance carries the other place it came from (template-origin.ts), also
 * after the projects crossed a worker thread as plain data; a local time that happens twice (clocks
 * fall back) is a warning naming the instant taken and the one not taken.
 */
import { describe, expect, it } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { fromCrossData, toCrossData } from "../../src/campaign/cross-project.js";
import { lintAcross } from "../../src/campaign/lint/index.js";
import { localToAt } from "../../src/campaign/template-schedule.js";
import { compareDiagnostics, type Diagnostic, type SourceRange } from "../../src/diagnostics/diagnostic.js";
import { campaignFile, where } from "./helpers.js";

/** `line:column` of the first occurrence of `needle` in `text`. */
function at(text: string, needle: string): string {
  const offset = text.indexOf(needle);
  if (offset < 0) throw new Error(`fixture has no ${needle}`);
  const before = text.slice(0, offset);
  return `${before.split("\n").length}:${offset - before.lastIndexOf("\n")}`;
}

const pos = (range: SourceRange | undefined) =>
  range ? `${range.start.line}:${range.start.column}` : "none";
const related = (d: Diagnostic) => (d.related ?? []).map((r) => pos(r.range));

function load(text: string) {
  const result = assembleCampaign([campaignFile("c.yaml", text)]);
  return { ...result, diagnostics: [...result.diagnostics].sort(compareDiagnostics) };
}

const ORDERED = `version: 1
templates:
  gotv:
    message:
      en: "Vote Tuesday. Reply STOP to opt out"
      es: "Vote el martes. Responde STOP para no recibir mas"
    state: scheduled
    contact_lists: [Likely Voters]
    timezone: America/Chicago
    schedule: {local: "2026-12-07T10:00"}
    instances:
      first:
        organization: Adams
        id: 9a000000-0000-4000-8000-000000000001
        language: en
      second:
        organization: Adams
        id: 9a000000-0000-4000-8000-000000000002
        language: es
        schedule: {local: "2026-12-07T09:00"}
        after: [first]
`;

describe("lintAcross on template instances", () => {
  it("points at the instance's after entry, with the template and the other instance's send time related", () => {
    const loaded = load(ORDERED);
    expect(loaded.diagnostics.filter((d) => d.severity === "error").map((d) => d.message)).toEqual([]);
    const found = lintAcross(loaded.campaign.projects, { now: null });
    expect(found.map(where)).toEqual([`lint.after-sends-first@${at(ORDERED, "first]")}`]);
    const finding = found[0] as Diagnostic;
    // The after entry is written in the instance: the template is the other place.
    expect(related(finding)).toEqual([at(ORDERED, "gotv:"), at(ORDERED, '"2026-12-07T10:00"')]);
    expect(finding.related?.[0]?.message).toBe("from template `gotv` (language es)");
  });

  it("keeps both places after the projects cross a worker thread as plain data", () => {
    const loaded = load(ORDERED);
    const crossed = loaded.campaign.projects.map((p) => fromCrossData(structuredClone(toCrossData(p))));
    const found = lintAcross(crossed, { now: null });
    expect(found.map((d) => [where(d), related(d)])).toEqual(
      lintAcross(loaded.campaign.projects, { now: null }).map((d) => [where(d), related(d)]),
    );
  });
});

describe("a local time that happens twice", () => {
  it("converts to the first of the two and names the second", () => {
    expect(localToAt("2026-11-01T01:30", "America/Chicago")).toEqual({
      kind: "at",
      at: "2026-11-01T01:30:00-05:00",
      later: "2026-11-01T01:30:00-06:00",
    });
  });

  it("is a warning at the local time, naming which was taken, the instance related", () => {
    const text = ORDERED.replace('"2026-12-07T10:00"', '"2026-11-01T01:30"').replace(
      '        schedule: {local: "2026-12-07T09:00"}\n        after: [first]\n',
      "",
    );
    const loaded = load(text);
    const warnings = loaded.diagnostics.filter((d) => d.code === "campaign.template-local-time-repeated");
    expect(warnings.map(where)).toEqual([
      `campaign.template-local-time-repeated@${at(text, '"2026-11-01T01:30"')}`,
      `campaign.template-local-time-repeated@${at(text, '"2026-11-01T01:30"')}`,
    ]);
    expect(warnings.map((d) => d.severity)).toEqual(["warning", "warning"]);
    expect(warnings.map(related)).toEqual([[at(text, "first:")], [at(text, "second:")]]);
    expect(warnings[0]?.message).toContain(
      "the first is taken, 2026-11-01T01:30:00-05:00, not 2026-11-01T01:30:00-06:00",
    );
    // The project is expanded with the first.
    expect(loaded.campaign.projects.map((p) => p.schedule?.at)).toEqual([
      "2026-11-01T01:30:00-05:00",
      "2026-11-01T01:30:00-05:00",
    ]);
  });
});
