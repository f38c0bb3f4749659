/**
 * Issue 33 point 4: a finding at a template's value is reported once, at the value, with every
 * instance it is for in `related` (src/campaign/template-findings.ts), where findings are gathered:
 * the lint (`lintCampaign`) and the loader (`loadCampaign`). A finding at an instance's own value
 * stays per instance; findings whose words differ between instances stay apart.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadCampaign } from "../../cli/adapters/load-campaign.js";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { lintCampaign } from "../../src/campaign/lint/index.js";
import { groupInstanceFindings } from "../../src/campaign/template-findings.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { type CountyInstance, counties, countyTemplate, lineColumn, NON_GSM } from "./county-template.js";
import { campaignFile } from "./helpers.js";

const at = (d: Diagnostic) => (d.range ? `${d.range.start.line}:${d.range.start.column}` : "none");
const instancesOf = (d: Diagnostic) => (d.related ?? []).flatMap((r) => r.instance?.address ?? []);

function lint(text: string): Diagnostic[] {
  const loaded = assembleCampaign([campaignFile("c.yaml", text)]);
  expect(loaded.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return lintCampaign(loaded.campaign, { now: null });
}

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function load(text: string) {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-grouped-"));
  dirs.push(dir);
  writeFileSync(join(dir, "c.yaml"), text);
  return loadCampaign(["c.yaml"], dir);
}

describe("a template with an accented Spanish variant and 60 instances", () => {
  const instances = counties(60);
  const text = countyTemplate(instances);
  const esLine = text.indexOf("es: ");

  it("lints one lint.non-gsm-character per character, at the variant, with the 60 instances related", () => {
    const found = lint(text).filter((d) => d.code === "lint.non-gsm-character");
    expect(found.map(at)).toEqual(NON_GSM.map((c) => lineColumn(text, c, esLine)));
    for (const [i, d] of found.entries()) {
      expect(instancesOf(d)).toEqual(instances.map((c) => c.address));
      expect(d.message).toMatch(
        new RegExp(`^template \`gotv\` \\(60 instances\\): the message holds ${NON_GSM[i]} `),
      );
      // Each instance's place: its key, with its organization and language.
      expect(d.related?.[0]).toMatchObject({
        message: "for instance `county-01` (County 01 Democrats, es)",
        range: { start: { line: Number(lineColumn(text, "county-01:").split(":")[0]) } },
      });
    }
    // The fix (write the plain letter) is the variant's, as it was for each instance.
    expect(found[0]?.fixes?.[0]?.title).toBe("Write o instead of ó");
  });

  it("keeps apart what differs between instances: the segments with an instance's own merge_defaults", () => {
    const long: CountyInstance = {
      ...(instances[59] as CountyInstance),
      extra: `        merge_defaults: {polling_place: "${"the Memorial Hall of the County Courthouse, ".repeat(2)}"}\n`,
    };
    const found = lint(countyTemplate([...instances.slice(0, 59), long])).filter(
      (d) => d.code === "lint.non-gsm-character",
    );
    // Per character: one finding for the 59 instances alike, one for county-60 with its own figures.
    expect(found.map((d) => instancesOf(d).length)).toEqual([59, 1, 59, 1, 59, 1]);
    const own = found[1] as Diagnostic;
    expect(own.message).toMatch(/^county-60: the message holds ó .*3 segments per recipient instead of 1/);
    expect(found[0]?.message).toContain("2 segments per recipient instead of 1");
  });

  it("a finding at an instance's own value stays with that instance", () => {
    const own = instances.slice(0, 3).map((c) => ({
      ...c,
      extra: "        test:\n          contacts: [{phone: '+4915112345678'}]\n",
    }));
    const withTests = countyTemplate(own);
    const found = load(withTests).diagnostics.filter((d) => d.code === "campaign.test-phone-not-nanp");
    expect(found.map(at)).toEqual(
      own.map((c) => lineColumn(withTests, "'+4915112345678'", withTests.indexOf(`${c.address}:`))),
    );
    expect(found.map((d) => d.related?.[0]?.message)).toEqual([
      "from template `gotv` (language es)",
      "from template `gotv` (language es)",
      "from template `gotv` (language es)",
    ]);
    expect(found.map((d) => d.message)).toEqual(
      own.map(
        (c) =>
          `project \`${c.address}\`: test phone +4915112345678 is not a US/Canada number, and the API only sends tests to +1 numbers`,
      ),
    );
  });

  it("grouping what is grouped changes nothing; a lone finding is as it was", () => {
    const found = lint(text);
    expect(groupInstanceFindings(found)).toEqual(found);
    const one = lint(countyTemplate(instances.slice(0, 1))).filter(
      (d) => d.code === "lint.non-gsm-character",
    );
    expect(one.map((d) => d.message.split(":")[0])).toEqual(["county-01", "county-01", "county-01"]);
    expect(one.map((d) => d.related?.map((r) => r.message))).toEqual([
      ["for instance `county-01` (County 01 Democrats, es)"],
      ["for instance `county-01` (County 01 Democrats, es)"],
      ["for instance `county-01` (County 01 Democrats, es)"],
    ]);
  });
});

describe("one bad reply keyword for every instance", () => {
  const replies = `defaults:
  replies:
    rules:
      - name: stopper
        keywords: [stop please]
        answer: We hear you
`;

  it("is one error at the keyword, the instances related (loadCampaign)", () => {
    const text = countyTemplate(counties(6), { before: replies });
    const found = load(text).diagnostics.filter((d) => d.severity === "error");
    expect(found.map((d) => [d.code, at(d)])).toEqual([
      ["replies.rule-matches-opt-out", lineColumn(text, "stop please")],
    ]);
    expect(instancesOf(found[0] as Diagnostic)).toEqual(counties(6).map((c) => c.address));
    expect(found[0]?.message).toBe(
      'template `gotv` (6 instances): reply rule `stopper` keyword "stop please" overlaps the revocation word "stop" (en): a contact who texts it is opting out and must not be answered',
    );
  });

  it("is one error per template when two templates inherit it", () => {
    const first = countyTemplate(counties(3), { before: replies });
    const second = counties(5)
      .slice(3)
      .map(
        (c) =>
          `      ${c.address}:\n        organization: ${c.organization}\n        id: ${c.id}\n        language: en\n`,
      )
      .join("");
    const text = `${first}  reminder:\n    message:\n      en: "Vote Tuesday. Reply STOP to opt out"\n    contact_lists: [Likely Voters]\n    instances:\n${second}`;
    const found = load(text).diagnostics.filter((d) => d.severity === "error");
    expect(found.map((d) => [d.message.split(":")[0], at(d), instancesOf(d)])).toEqual([
      [
        "template `gotv` (3 instances)",
        lineColumn(text, "stop please"),
        ["county-01", "county-02", "county-03"],
      ],
      ["template `reminder` (2 instances)", lineColumn(text, "stop please"), ["county-04", "county-05"]],
    ]);
  });

  it("stays one error per plain project: only instances are grouped", () => {
    const text = `version: 1
${replies}projects:
  one:
    id: 9a000000-0000-4000-8000-000000000001
    message: "Vote Tuesday. Reply STOP to opt out"
  two:
    id: 9a000000-0000-4000-8000-000000000002
    message: "Vote Tuesday. Reply STOP to opt out"
`;
    const found = load(text).diagnostics.filter((d) => d.severity === "error");
    expect(found.map((d) => d.message.split(":")[0])).toEqual(["project `one`", "project `two`"]);
  });
});

describe("an instance named like a word its finding quotes", () => {
  // The rule is named `hours`, as one instance is: the finding at the template's keyword quotes
  // the rule's name, which is no subject. Before, instance `hours` read it as its own name, and the
  // one finding was reported twice (two errors in the summary).
  const text = `version: 1
templates:
  gotv:
    message:
      en: "Hi, vote. Reply STOP to opt out"
    replies:
      rules:
        - {name: hours, keywords: [stop, hours], answer: "Polls open 7am-7pm. Reply STOP to opt out"}
    instances:
${["stop", "hours", "other"]
  .map(
    (a, i) =>
      `      ${a}:\n        organization: County ${i} Democrats\n        id: 9a000000-0000-4000-8000-00000000000${i}\n        language: en\n`,
  )
  .join("")}`;

  it("is one finding, with the three instances", () => {
    const found = load(text).diagnostics.filter((d) => d.code === "replies.rule-matches-opt-out");
    expect(found.map(instancesOf)).toEqual([["stop", "hours", "other"]]);
    expect(found[0]?.message).toBe(
      'template `gotv` (3 instances): reply rule `hours` keyword "stop" overlaps the revocation word "stop" (en): a contact who texts it is opting out and must not be answered',
    );
  });
});
