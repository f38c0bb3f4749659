import { describe, expect, it } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { compareDiagnostics } from "../../src/diagnostics/diagnostic.js";
import { campaignFile, where } from "./helpers.js";

/** [name, file text, expected `code@line:col` of every diagnostic, in order]. */
const cases: readonly (readonly [string, string, readonly string[]])[] = [
  ["yaml syntax: unclosed flow sequence", "version: 1\nfields: [a, b\n", ["campaign.unclosed-bracket@2:9"]],
  ["yaml syntax: tab indentation", "version: 1\nprojects:\n\ta:\n", ["campaign.yaml-indent@3:1"]],
  [
    "yaml syntax: every error is reported, not just the first",
    'version: 1\nfields: "a\\q"\nmerge_defaults: {x: "\\q"}\n',
    ["campaign.yaml-escape@2:11", "campaign.yaml-escape@3:22"],
  ],
  ["yaml: unknown alias", "version: 1\nfields: *nope\n", ["campaign.yaml-alias@2:9"]],
  // A merge key (`!!merge <<`, or `<<` under `%YAML 1.1`) is refused wherever it is: under
  // `projects:` (or a template's `instances:`) the projects it brings in were planned by no one.
  [
    "yaml: a merge key under projects",
    "version: 1\nprojects:\n  !!merge <<:\n    stop: {id: x, state: paused}\n",
    ["campaign.yaml-merge-key@3:11"],
  ],
  // An alias as a key repeats a key no duplicate check saw: the second value was the data.
  [
    "yaml: an alias as a key",
    "version: 1\nprojects:\n  &k a:\n    id: x\n    state: paused\n  *k :\n    id: x\n    state: scheduled\n",
    ["campaign.yaml-key@6:3"],
  ],
  // A tag's own class is refused too: the schema reads an ordered map as an empty one.
  [
    "yaml: projects as an ordered map",
    "version: 1\nprojects: !!omap\n  - stop: {id: x, state: paused}\n",
    ["campaign.yaml-tag@3:3"],
  ],
  [
    "yaml: defaults as an ordered map, a set and a date",
    "%YAML 1.1\n---\nversion: 1\ndefaults: !!omap [state: paused]\nfields: !!set {a}\nprojects:\n  a: {id: x, deadline: 2026-11-03}\n",
    ["campaign.yaml-tag@4:18", "campaign.yaml-tag@5:15", "campaign.yaml-tag@7:24"],
  ],
  [
    "yaml: a merge key of YAML 1.1 in a project",
    "%YAML 1.1\n---\nversion: 1\nprojects:\n  a: &a {id: x}\n  b:\n    <<: *a\n    name: B\n",
    ["campaign.yaml-merge-key@7:5"],
  ],
  ["duplicate key", "version: 1\nprojects:\n  a:\n    id: x\n    id: y\n", ["campaign.duplicate-key@5:5"]],
  ["missing version", "projects: {}\n", ["campaign.bad-version@1:1"]],
  ["wrong version", "version: 2\n", ["campaign.bad-version@1:10"]],
  ["version of the wrong type", 'version: "1"\n', ["campaign.bad-version@1:10"]],
  [
    "unknown top-level key, with did-you-mean",
    "version: 1\nproject:\n  a: {id: x}\n",
    ["campaign.unknown-key@2:1"],
  ],
  [
    "unknown project key points at the key",
    "version: 1\nprojects:\n  a:\n    id: x\n    shedule: {at: now, timezone: America/Chicago}\n",
    ["campaign.unknown-key@5:5"],
  ],
  [
    "missing id points at the project's key",
    "version: 1\nprojects:\n  gotv:\n    name: GOTV\n",
    ["campaign.missing-key@3:3"],
  ],
  [
    "missing test contacts",
    "version: 1\nprojects:\n  a:\n    id: x\n    test: {}\n",
    ["campaign.missing-key@5:5"],
  ],
  [
    "wrong type",
    "version: 1\nprojects:\n  a:\n    id: x\n    opt_out_footer: yes please\n",
    ["campaign.schema-type@5:21"],
  ],
  [
    "enum: state",
    "version: 1\nprojects:\n  a:\n    id: x\n    state: schedule\n",
    ["campaign.schema-enum@5:12"],
  ],
  [
    "enum: timezone",
    "version: 1\nprojects:\n  a:\n    id: x\n    schedule: {at: now, timezone: Europe/Paris}\n",
    ["campaign.schema-enum@5:35"],
  ],
  [
    "pattern: E.164 phone",
    'version: 1\nprojects:\n  a:\n    id: x\n    test:\n      contacts:\n        - phone: "503-555-0100"\n',
    ["campaign.schema-pattern@7:18"],
  ],
  [
    "format: at without offset",
    "version: 1\nprojects:\n  a:\n    id: x\n    schedule: {at: 2026-12-07T10:00:00, timezone: America/Chicago}\n",
    ["campaign.schema-format@5:20"],
  ],
  [
    "format: impossible date",
    'version: 1\nprojects:\n  a:\n    id: x\n    schedule: {at: "2026-02-30T10:00:00Z", timezone: America/Chicago}\n',
    ["campaign.schema-format@5:20"],
  ],
  [
    "limit: too many test contacts",
    `version: 1\nprojects:\n  a:\n    id: x\n    test:\n      contacts:\n${Array.from({ length: 51 }, (_, i) => `        - phone: "+1503555${String(i).padStart(4, "0")}"\n`).join("")}`,
    ["campaign.schema-limit@7:9"],
  ],
  [
    "limit: empty test contacts",
    "version: 1\nprojects:\n  a:\n    id: x\n    test: {contacts: []}\n",
    ["campaign.schema-limit@5:22"],
  ],
  [
    "limit: pause reason over 100 characters",
    `version: 1\nprojects:\n  a:\n    id: x\n    pause: {reason: ${"r".repeat(101)}}\n`,
    ["campaign.schema-limit@5:21"],
  ],
  [
    "unique: the same list twice",
    "version: 1\nprojects:\n  a:\n    id: x\n    contact_lists: [Ward 3, Ward 3]\n",
    ["campaign.schema-unique@5:29"],
  ],
  ["bad address", "version: 1\nprojects:\n  GOTV_Reminder:\n    id: x\n", ["campaign.bad-address@3:3"]],
  ["id cannot be a default", "version: 1\ndefaults:\n  id: x\n", ["campaign.unknown-key@3:3"]],
  [
    "state scheduled without schedule",
    "version: 1\nprojects:\n  a:\n    id: x\n    message: Hi. Reply STOP to opt out\n    contact_lists: [Ward 3]\n    state: scheduled\n",
    ["campaign.schedule-missing@7:12"],
  ],
  [
    "10dlc project with a toll-free verification",
    "version: 1\nprojects:\n  a:\n    id: x\n    channel: 10dlc\n    toll_free_verification: Volunteer Line\n",
    ["campaign.channel-mismatch@6:29"],
  ],
  [
    "after naming an unknown address",
    "version: 1\nprojects:\n  gotv-reminder: {id: x}\n  b:\n    id: y\n    after: [gotv-remindr]\n",
    ["campaign.after-unknown@6:13"],
  ],
  [
    "after cycle",
    "version: 1\nprojects:\n  a:\n    id: x\n    after: [b]\n  b:\n    id: y\n    after: [a]\n",
    ["campaign.after-cycle@8:13"],
  ],
  [
    "after naming itself",
    "version: 1\nprojects:\n  a:\n    id: x\n    after: [a]\n",
    ["campaign.after-cycle@5:13"],
  ],
  [
    "the same id twice",
    "version: 1\nprojects:\n  a: {id: x}\n  b: {id: x}\n",
    ["campaign.duplicate-id@4:11"],
  ],
  [
    "several problems are all reported",
    "version: 1\nprojects:\n  a:\n    id: 7\n    state: live\n    typo: 1\n",
    ["campaign.yaml-unquoted-id@4:9", "campaign.schema-enum@5:12", "campaign.unknown-key@6:5"],
  ],
  ["multiple documents", "version: 1\n---\nversion: 1\n", ["campaign.multiple-documents@2:1"]],
];

describe("broken campaign files", () => {
  it.each(cases)("%s", (_name, text, expected) => {
    const { diagnostics } = assembleCampaign([campaignFile("c.yaml", text)]);
    expect([...diagnostics].sort(compareDiagnostics).map(where)).toEqual(expected);
    for (const d of diagnostics) {
      expect(d.message).not.toMatch(/\.$/);
      expect(d.range?.file).toBe("c.yaml");
    }
  });

  it("suggests the closest key and lists allowed enum values", () => {
    const { diagnostics } = assembleCampaign([
      campaignFile(
        "c.yaml",
        "version: 1\nprojects:\n  a:\n    id: x\n    shedule: {at: now, timezone: America/Chicago}\n    state: schedulled\n",
      ),
    ]);
    const hints = Object.fromEntries(diagnostics.map((d) => [d.code, d.hint]));
    expect(hints["campaign.unknown-key"]).toBe("did you mean `schedule`?");
    expect(hints["campaign.schema-enum"]).toBe(
      "did you mean `scheduled`? allowed values: draft, tested, scheduled, paused",
    );
  });

  it("names the cycle and both places of a duplicate", () => {
    const cycle = assembleCampaign([
      campaignFile(
        "c.yaml",
        "version: 1\nprojects:\n  a: {id: x, after: [b]}\n  b: {id: y, after: [c]}\n  c: {id: z, after: [a]}\n",
      ),
    ]).diagnostics;
    expect(cycle.map((d) => d.message)).toEqual(["`after` entries form a cycle: a -> b -> c -> a"]);
    expect(cycle[0]?.related?.map((r) => `${r.range.start.line}:${r.range.start.column}`)).toEqual([
      "3:22",
      "4:22",
    ]);

    const duplicate = assembleCampaign([
      campaignFile("c.yaml", "version: 1\nprojects:\n  a:\n    id: x\n    id: y\n"),
    ]).diagnostics;
    expect(duplicate[0]?.related?.[0]?.range.start).toMatchObject({ line: 4, column: 5 });
  });

  it("leaves invalid projects out of the campaign and keeps the valid ones", () => {
    const { campaign } = assembleCampaign([
      campaignFile("c.yaml", "version: 1\nprojects:\n  good: {id: x}\n  bad: {id: y, state: nope}\n"),
    ]);
    expect(campaign.projects.map((p) => p.address)).toEqual(["good"]);
  });

  it("leaves a whole file out when a shared value is invalid", () => {
    const { campaign } = assembleCampaign([
      campaignFile("c.yaml", "version: 1\ndefaults: {state: nope}\nprojects:\n  good: {id: x}\n"),
    ]);
    expect(campaign.projects).toEqual([]);
  });
});
