/**
 * Templates in campaign files (issue 26 item 1): each instance expanded into an ordinary project,
 * its values located in the template or the instance, the schedule's local time converted in the
 * instance's timezone (offset at that date), overrides, the address namespace shared with projects,
 * and the expansion's own errors, each at its exact position with the other place in `related`.
 */
import { describe, expect, it } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { checkFileInPlace } from "../../src/campaign/file-check.js";
import type { ProjectSpec } from "../../src/campaign/model.js";
import { localToAt } from "../../src/campaign/template-schedule.js";
import { compareDiagnostics, type Diagnostic, type SourceRange } from "../../src/diagnostics/diagnostic.js";
import { campaignFile, where } from "./helpers.js";

/** `line:column` of the `nth` (0-based) occurrence of `needle` in `text`. */
function at(text: string, needle: string, nth = 0): string {
  let offset = -1;
  for (let i = 0; i <= nth; i++) {
    offset = text.indexOf(needle, offset + 1);
    if (offset < 0) throw new Error(`fixture has no ${needle} #${nth}`);
  }
  const before = text.slice(0, offset);
  return `${before.split("\n").length}:${offset - before.lastIndexOf("\n")}`;
}

const pos = (range: SourceRange | undefined) =>
  range ? `${range.start.line}:${range.start.column}` : "none";
const related = (d: Diagnostic) => (d.related ?? []).map((r) => pos(r.range));

const TEMPLATED = `version: 1
merge_defaults: {first_name: friend}
fields: [polling_place]
defaults:
  channel: 10dlc
templates:
  gotv:
    message:
      en: "Hi {{first_name|friend}}, vote at {{polling_place}}. Reply STOP to opt out"
      es: "Hola {{first_name|amigo}}, vote en {{polling_place}}. Responde STOP para no recibir mas"
    brand: County Democrats
    contact_lists: [Likely Voters]
    merge_defaults: {polling_place: your polling place}
    state: scheduled
    schedule: {local: "2026-10-31T10:00"}
    instances:
      adams-en:
        organization: Adams County Democrats
        id: 9a000000-0000-4000-8000-000000000001
        language: en
        timezone: America/Chicago
        merge_defaults: {polling_place: Adams Courthouse}
      adams-es:
        organization: Adams County Democrats
        id: 9a000000-0000-4000-8000-000000000002
        language: es
        timezone: America/Chicago
        contact_lists: [Adams Likely Voters]
        schedule: {local: "2026-11-02T10:00"}
        after: [adams-en]
projects:
  plain:
    id: 9a000000-0000-4000-8000-000000000009
    message: Thanks for voting. Reply STOP to opt out
    after: [adams-es]
`;

function load(text: string, path = "c.yaml") {
  const result = assembleCampaign([campaignFile(path, text)]);
  return { ...result, diagnostics: [...result.diagnostics].sort(compareDiagnostics) };
}

function project(projects: readonly ProjectSpec[], address: string): ProjectSpec {
  const found = projects.find((p) => p.address === address);
  if (found === undefined) throw new Error(`no project ${address}`);
  return found;
}

describe("template expansion", () => {
  const loaded = load(TEMPLATED);

  it("expands each instance into a project beside the file's projects, without findings", () => {
    expect(loaded.diagnostics.map(where)).toEqual([]);
    expect(loaded.campaign.projects.map((p) => p.address)).toEqual(["plain", "adams-en", "adams-es"]);
    expect(loaded.addresses).toEqual(["plain", "adams-en", "adams-es"]);
  });

  it("takes the instance's organization, id and variant, and merges instance over template over file", () => {
    const en = project(loaded.campaign.projects, "adams-en");
    const es = project(loaded.campaign.projects, "adams-es");
    expect(en.organization).toBe("Adams County Democrats");
    expect(en.id).toBe("9a000000-0000-4000-8000-000000000001");
    expect(en.message).toBe("Hi {{first_name|friend}}, vote at {{polling_place}}. Reply STOP to opt out");
    expect(es.message).toMatch(/^Hola /);
    expect(en.channel).toBe("10dlc"); // the file's defaults
    expect(en.brand).toBe("County Democrats"); // the template's
    expect(en.contactLists).toEqual(["Likely Voters"]);
    expect(es.contactLists).toEqual(["Adams Likely Voters"]); // the instance's override
    expect(en.mergeDefaults).toEqual({ first_name: "friend", polling_place: "Adams Courthouse" });
    expect(es.mergeDefaults).toEqual({ first_name: "friend", polling_place: "your polling place" });
    expect(es.after).toEqual(["adams-en"]);
    expect(en.origin).toMatchObject({ template: "gotv", instance: "adams-en", language: "en" });
    expect(pos(en.origin?.templateRange)).toBe(at(TEMPLATED, "gotv:"));
    expect(pos(en.origin?.instanceRange)).toBe(at(TEMPLATED, "adams-en:"));
    expect(pos(en.range)).toBe(at(TEMPLATED, "adams-en:"));
  });

  it("converts the local time in the instance's zone with the offset at that date, across the DST change", () => {
    const en = project(loaded.campaign.projects, "adams-en");
    const es = project(loaded.campaign.projects, "adams-es");
    // Central Daylight Time on October 31st, Central Standard Time after November 1st, 2026.
    expect(en.schedule).toEqual({
      at: "2026-10-31T10:00:00-05:00",
      timezone: "America/Chicago",
      dailyCapBypass: false,
    });
    expect(es.schedule).toEqual({
      at: "2026-11-02T10:00:00-06:00",
      timezone: "America/Chicago",
      dailyCapBypass: false,
    });
  });

  it("locates each value where it was written: instance, template, variant or defaults", () => {
    const en = project(loaded.campaign.projects, "adams-en");
    const es = project(loaded.campaign.projects, "adams-es");
    expect(pos(en.locate(["contact_lists"]))).toBe(at(TEMPLATED, "[Likely Voters]"));
    expect(pos(es.locate(["contact_lists"]))).toBe(at(TEMPLATED, "[Adams Likely Voters]"));
    expect(pos(en.locate(["schedule", "at"]))).toBe(at(TEMPLATED, '"2026-10-31T10:00"'));
    expect(pos(es.locate(["schedule", "at"]))).toBe(at(TEMPLATED, '"2026-11-02T10:00"'));
    expect(pos(en.locate(["schedule", "timezone"]))).toBe(at(TEMPLATED, "America/Chicago", 0));
    expect(pos(en.locate(["channel"]))).toBe(at(TEMPLATED, "10dlc"));
    expect(pos(en.locate(["id"]))).toBe(at(TEMPLATED, "9a000000-0000-4000-8000-000000000001"));
    expect(pos(en.locate(["message"]))).toBe(at(TEMPLATED, '"Hi {{'));
    expect(pos(es.locate(["message"]))).toBe(at(TEMPLATED, '"Hola {{'));
    const tag = es.message?.indexOf("{{polling_place}}") ?? -1;
    expect(pos(es.locateInMessage(tag, tag + 17))).toBe(at(TEMPLATED, "{{polling_place}}", 1));
  });

  it("lets `after` name instances and projects alike, and lints no instance as an unknown address", () => {
    expect(project(loaded.campaign.projects, "plain").after).toEqual(["adams-es"]);
  });
});

describe("local times", () => {
  it("reads a repeated time (clocks fall back) as the first of the two, a skipped one as skipped", () => {
    expect(localToAt("2026-11-01T01:30", "America/Chicago")).toEqual({
      kind: "at",
      at: "2026-11-01T01:30:00-05:00",
      later: "2026-11-01T01:30:00-06:00",
    });
    expect(localToAt("2027-03-14T02:30", "America/Chicago")).toEqual({
      kind: "skipped",
      zone: "America/Chicago",
    });
    expect(localToAt("2027-03-14T02:30", "Pacific/Honolulu")).toEqual({
      kind: "at",
      at: "2027-03-14T02:30:00-10:00",
    });
    expect(localToAt("2026-12-07T09:00:30", "America/Denver")).toEqual({
      kind: "at",
      at: "2026-12-07T09:00:30-07:00",
    });
  });
});

/** A one-template file with `instance` (indented 6) as the only instance. */
function withInstance(instance: string, extra = ""): string {
  return `version: 1
templates:
  gotv:
    message:
      en: "Vote Tuesday. Reply STOP to opt out"
      es: "Vote el martes. Responde STOP para cancelar"
    schedule: {local: "2027-03-14T02:30"}
${extra}    instances:
      adams-en:
${instance}`;
}

describe("expansion errors", () => {
  it("reports an unknown language at the instance's value, with did-you-mean and the variants related", () => {
    const text = withInstance(
      "        organization: Adams\n        id: a1\n        language: sp\n        timezone: Pacific/Honolulu\n",
    );
    const { diagnostics, campaign } = load(text);
    expect(diagnostics.map(where)).toEqual([`campaign.template-language-unknown@${at(text, "sp\n")}`]);
    expect(diagnostics[0]?.hint).toBe(
      "write one of en, es, or add a `sp` variant under the template's `message`",
    );
    expect(related(diagnostics[0] as Diagnostic)).toEqual([at(text, "en: ")]);
    expect(campaign.projects).toEqual([]);
    const near = withInstance(
      "        organization: Adams\n        id: a1\n        language: ess\n        timezone: Pacific/Honolulu\n",
    );
    expect(load(near).diagnostics[0]?.hint).toBe("did you mean `es`?");
  });

  it("reports a local time skipped by the spring-forward change at the template's schedule, for the instance", () => {
    const text = withInstance(
      "        organization: Adams\n        id: a1\n        language: en\n        timezone: America/Denver\n",
    );
    const { diagnostics } = load(text);
    expect(diagnostics.map(where)).toEqual([
      `campaign.template-local-time-skipped@${at(text, '"2027-03-14T02:30"')}`,
    ]);
    expect(related(diagnostics[0] as Diagnostic)).toEqual([at(text, "adams-en:")]);
  });

  it("reports a local schedule without any timezone", () => {
    const text = withInstance("        organization: Adams\n        id: a1\n        language: en\n");
    expect(load(text).diagnostics.map(where)).toEqual([
      `campaign.template-timezone-missing@${at(text, '"2027-03-14T02:30"')}`,
    ]);
    const zoned = withInstance(
      "        organization: Adams\n        id: a1\n        language: en\n",
      "    timezone: Pacific/Honolulu\n",
    );
    const loaded = load(zoned);
    expect(loaded.diagnostics.map(where)).toEqual([]);
    expect(loaded.campaign.projects[0]?.schedule?.at).toBe("2027-03-14T02:30:00-10:00");
  });

  it("reports missing instance keys and misspelt ones with did-you-mean, and keeps the file's projects", () => {
    const text = `${withInstance("        organisation: Adams\n        id: a1\n        langauge: en\n")}projects:\n  plain:\n    id: p1\n`;
    const { diagnostics, campaign } = load(text);
    expect(diagnostics.map((d) => [where(d), d.hint])).toEqual([
      [
        `campaign.missing-key@${at(text, "adams-en:")}`,
        expect.stringMatching(/^The organization whose project/),
      ],
      [
        `campaign.missing-key@${at(text, "adams-en:")}`,
        expect.stringMatching(/^Which variant of the template/),
      ],
      [`campaign.unknown-key@${at(text, "organisation")}`, "did you mean `organization`?"],
      [`campaign.unknown-key@${at(text, "langauge")}`, "did you mean `language`?"],
    ]);
    expect(diagnostics.some((d) => d.message.includes("instance `adams-en` of template `gotv`"))).toBe(true);
    expect(campaign.projects.map((p) => p.address)).toEqual(["plain"]);
  });

  it("says a template's schedule is a local time when it is written with `at`", () => {
    const text = withInstance(
      '        organization: Adams\n        id: a1\n        language: en\n        timezone: Pacific/Honolulu\n        schedule: {at: "2027-01-05T10:00:00-10:00"}\n',
    );
    const found = load(text).diagnostics;
    expect(found.map(where)).toEqual([
      `campaign.missing-key@${at(text, "schedule: {at:")}`,
      `campaign.unknown-key@${at(text, "at:")}`,
    ]);
    expect(found[1]?.hint).toMatch(/^a template's schedule is a local time without offset: write `local: /);
  });

  it("refuses `message` (and any unknown key) in an instance", () => {
    const text = withInstance(
      '        organization: Adams\n        id: a1\n        language: en\n        timezone: Pacific/Honolulu\n        message: "Other text"\n',
    );
    expect(load(text).diagnostics.map(where)).toEqual([
      `campaign.unknown-key@${at(text, 'message: "Other')}`,
    ]);
  });

  it("reports an instance address declared again, in the same file or another, as today's duplicates", () => {
    const instance =
      "        organization: Adams\n        id: a1\n        language: en\n        timezone: Pacific/Honolulu\n";
    const first = `${withInstance(instance)}projects:\n  adams-en:\n    id: p1\n`;
    const same = load(first);
    expect(same.diagnostics.map(where)).toEqual([`campaign.duplicate-address@${at(first, "adams-en:", 0)}`]);
    expect(related(same.diagnostics[0] as Diagnostic)).toEqual([at(first, "adams-en:", 1)]);
    expect(same.campaign.projects.map((p) => [p.address, p.id])).toEqual([["adams-en", "p1"]]);

    const other = "version: 1\nprojects:\n  adams-en:\n    id: p2\n";
    const across = assembleCampaign([
      campaignFile("a.yaml", withInstance(instance)),
      campaignFile("b.yaml", other),
    ]);
    expect(across.diagnostics.map((d) => `${d.range?.file}:${where(d)}`)).toEqual([
      "b.yaml:campaign.duplicate-address@3:3",
    ]);
    expect(across.campaign.projects.map((p) => p.id)).toEqual(["a1"]);
  });

  it("reports an `after` naming no instance or project", () => {
    const text = withInstance(
      "        organization: Adams\n        id: a1\n        language: en\n        timezone: Pacific/Honolulu\n        after: [adams-ex]\n",
    );
    expect(load(text).diagnostics.map(where)).toEqual([`campaign.after-unknown@${at(text, "adams-ex")}`]);
  });
});

describe("findings on expanded projects point at both places", () => {
  it("a finding on a value written in the template relates the instance; one written in the instance, the template", () => {
    const text = `version: 1
templates:
  gotv:
    message:
      en: "Vote Tuesday. Reply STOP to opt out"
    state: scheduled
    instances:
      adams-en:
        organization: Adams
        id: a1
        language: en
        test:
          contacts:
            - phone: "+4420123456"
`;
    const checked = checkFileInPlace(campaignFile("c.yaml", text), { now: null });
    const found = [...checked.diagnostics].sort(compareDiagnostics);
    expect(found.map((d) => [where(d), related(d)])).toEqual([
      // state: scheduled (template) without schedule and contact lists: the instance is related.
      [`campaign.contact-lists-missing@${at(text, "scheduled")}`, [at(text, "adams-en:")]],
      [`campaign.schedule-missing@${at(text, "scheduled")}`, [at(text, "adams-en:")]],
      // the instance's test phone: the template is related.
      [`campaign.test-phone-not-nanp@${at(text, '"+4420123456"')}`, [at(text, "gotv:")]],
    ]);
    // An instance is scheduled by a local time (`schedule: {at: ...}` is a schema error there).
    expect(found.find((d) => d.code === "campaign.schedule-missing")?.hint).toBe(
      'add `schedule: {local: "2026-11-03T10:00"}` (a local time, read in the `timezone`) to the instance or the template, or choose another state',
    );
  });
});

describe("schema errors in templates", () => {
  const PROJECTS = "projects:\n  plain:\n    id: p1\n    message: Hi. Reply STOP to opt out\n";

  it("leave out the template in error, and keep the file's projects trusted (planned)", () => {
    const text = `version: 1\ntemplates:\n  gotv:\n    message: [not, a, map]\n    instances:\n      a-en: {organization: A, id: a1, language: en}\n${PROJECTS}`;
    const result = assembleCampaign([campaignFile("c.yaml", text)]);
    expect(result.diagnostics.map(where)).toEqual([`campaign.schema-type@${at(text, "[not")}`]);
    expect(result.campaign.projects.map((p) => p.address)).toEqual(["plain"]);
    expect(result.addresses).toEqual(["plain", "a-en"]);
  });

  it("leave out only the instance in error", () => {
    const text = `version: 1\ntemplates:\n  gotv:\n    message: {en: "Vote. Reply STOP to opt out"}\n    instances:\n      a-en: {organization: A, id: a1, language: en, timezone: Mars/Olympus}\n      b-en: {organization: B, id: b1, language: en}\n${PROJECTS}`;
    const result = assembleCampaign([campaignFile("c.yaml", text)]);
    expect(result.diagnostics.map(where)).toEqual([`campaign.schema-enum@${at(text, "Mars/Olympus")}`]);
    expect(result.campaign.projects.map((p) => p.address)).toEqual(["plain", "b-en"]);
  });

  it("`templates` that is not a map leaves out every template", () => {
    const text = `version: 1\ntemplates: [gotv]\n${PROJECTS}`;
    const result = assembleCampaign([campaignFile("c.yaml", text)]);
    expect(result.diagnostics.map(where)).toEqual([`campaign.schema-type@${at(text, "[gotv]")}`]);
    expect(result.campaign.projects.map((p) => p.address)).toEqual(["plain"]);
  });
});

describe("robustness", () => {
  it("never throws on a templated file with any one line removed, doubled, or its value replaced", () => {
    const lines = TEMPLATED.split("\n");
    const variants: string[] = [];
    lines.forEach((line, i) => {
      variants.push([...lines.slice(0, i), ...lines.slice(i + 1)].join("\n"));
      variants.push([...lines.slice(0, i + 1), line, ...lines.slice(i + 1)].join("\n"));
      const key = /^(\s*[a-z_-]+:)/.exec(line)?.[1];
      if (key !== undefined)
        for (const value of [" 7", " [x]", " {a: b}", " ~", ' ""'])
          variants.push([...lines.slice(0, i), `${key}${value}`, ...lines.slice(i + 1)].join("\n"));
    });
    expect(variants.length).toBeGreaterThan(100);
    for (const text of variants) {
      const checked = checkFileInPlace(campaignFile("c.yaml", text), {
        now: Date.parse("2026-10-01T00:00:00Z"),
      });
      for (const d of checked.diagnostics)
        expect(d.range === undefined || d.range.file === "c.yaml").toBe(true);
    }
  });
});

describe("the file's defaults.schedule", () => {
  it("never gives an instance an absolute time that ignores its own timezone", () => {
    const text = `version: 1
defaults:
  channel: 10dlc
  schedule: {at: "2026-12-03T10:00:00-06:00", timezone: America/Chicago}
templates:
  gotv:
    message:
      en: "Vote Tuesday. Reply STOP to opt out"
    brand: County Democrats
    contact_lists: [Likely Voters]
    state: scheduled
    instances:
      adams-en:
        organization: Adams County Democrats
        id: 9a000000-0000-4000-8000-000000000001
        language: en
        timezone: America/Denver
projects:
  plain:
    id: 9a000000-0000-4000-8000-000000000009
    message: Thanks for voting. Reply STOP to opt out
`;
    const loaded = load(text);
    expect(project(loaded.campaign.projects, "adams-en").schedule).toBeUndefined();
    expect(project(loaded.campaign.projects, "plain").schedule?.at).toBe("2026-12-03T10:00:00-06:00");
  });
});
