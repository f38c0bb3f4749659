/**
 * `import --template` (issue 26, item 6), pure: live records of three organizations in, one template
 * with en/es variants and one instance per project out; names by what they are called in each
 * instance's own organization; overrides only for what differs; refusals as diagnostics.
 */
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import type { Project } from "../../src/contract/resources.js";
import { importProject } from "../../src/import/project-to-yaml.js";
import { organizationCatalogs } from "../../src/import/template-catalogs.js";
import { importTemplate, type TemplateImportInput } from "../../src/import/template-import.js";
import { detectLanguage } from "../../src/import/template-language.js";
import { localScheduleOf } from "../../src/import/template-schedule.js";
import { verifyTemplateFile } from "../../src/import/template-verify.js";
import { buildCatalogs } from "../../src/plan/catalogs.js";
import { ALL_CATALOGS, COUNTIES, countyProject, EN, ES, RECORDS } from "./template-records.js";

function run(projects: readonly Project[], more: Partial<TemplateImportInput> = {}) {
  return importTemplate({
    template: "gotv",
    projects,
    catalogs: ALL_CATALOGS,
    languages: new Map(),
    path: "campaign/gotv.yaml",
    taken: new Set(),
    schema: "../schemas/campaign.schema.json",
    ...more,
  });
}

// biome-ignore lint/suspicious/noExplicitAny: test code reads arbitrary YAML
function templateOf(text: string): any {
  return parse(text).templates.gotv;
}

const everyCounty = () => COUNTIES.flatMap((c) => [countyProject(c, "en"), countyProject(c, "es")]);

describe("import --template: one template from several organizations", () => {
  test("one text per language becomes the variants; shared values go to the template by name", () => {
    const result = run(everyCounty());
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    const doc = parse(result.file.text);
    expect(Object.keys(doc)).toEqual(["version", "fields", "templates"]);
    expect(doc.fields).toEqual(["polling_place"]);
    const t = templateOf(result.file.text);
    expect(t.message).toEqual({ en: EN, es: ES });
    // "Likely Voters" names three lists among what the key sees, but one in each organization.
    expect(t.contact_lists).toEqual(["Likely Voters"]);
    expect(t.suppression_lists).toEqual(["Do Not Text"]);
    expect(t.brand).toBe("County Democrats");
    expect(t.campaign).toBe("GOTV 2026");
    expect(t.state).toBe("draft");
    expect(t.name).toBe("GOTV Reminder");
    expect(Object.keys(t.instances)).toEqual([
      "adams-county-democrats-en",
      "adams-county-democrats-es",
      "benton-county-democrats-en",
      "benton-county-democrats-es",
      "clark-county-democrats-en",
      "clark-county-democrats-es",
    ]);
    // Numbers differ in every organization: each instance says its own.
    expect(t.phone_numbers).toBeUndefined();
    expect(t.instances["benton-county-democrats-es"]).toEqual({
      organization: "Benton County Democrats",
      id: "p-benton-es",
      language: "es",
      phone_numbers: ["+15035550101"],
    });
    expect(result.file.text).toContain(
      "    message:\n      en: >-\n        Hi {{first_name|friend}}, vote Tuesday at {{polling_place}}. Reply STOP to opt out\n",
    );
    expect(result.instances.map((i) => [i.address, i.language, i.change])).toContainEqual([
      "clark-county-democrats-es",
      "es",
      "added",
    ]);
  });

  test("what differs in one organization is that instance's override: a list, a time", () => {
    const projects = COUNTIES.flatMap((c) => [
      countyProject(c, "en", {
        status: "scheduled",
        // 10:00 in Chicago, but 08:00 for Clark.
        scheduled_at: c === "Clark" ? "2026-12-07T14:00:00Z" : "2026-12-07T16:00:00Z",
        scheduled_timezone: "America/Chicago",
      }),
      countyProject(c, "es", {
        status: "scheduled",
        scheduled_at: "2026-12-07T15:00:00Z",
        scheduled_timezone: "America/New_York",
        ...(c === "Clark" ? { contact_list_ids: ["ward3-Clark"] } : {}),
      }),
    ]);
    const result = run(projects);
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    const t = templateOf(result.file.text);
    expect(t.state).toBe("scheduled");
    expect(t.contact_lists).toEqual(["Likely Voters"]);
    // 10:00 in Chicago and 10:00 in New York are the same local time: the template's.
    expect(t.schedule).toEqual({ local: "2026-12-07T10:00" });
    expect(t.instances["adams-county-democrats-en"]).toEqual({
      organization: "Adams County Democrats",
      id: "p-adams-en",
      language: "en",
      timezone: "America/Chicago",
      phone_numbers: ["+15035550100"],
    });
    expect(t.instances["adams-county-democrats-es"].timezone).toBe("America/New_York");
    expect(t.instances["clark-county-democrats-en"].schedule).toEqual({ local: "2026-12-07T08:00" });
    expect(t.instances["clark-county-democrats-es"].contact_lists).toEqual(["Ward 3 Likely Voters"]);
    expect(t.instances["clark-county-democrats-es"].schedule).toBeUndefined();
  });

  test("a zone every instance shares is the template's; one that differs is the instance's", () => {
    const projects = COUNTIES.map((c) =>
      countyProject(c, "en", {
        status: "scheduled",
        scheduled_at: c === "Clark" ? "2026-12-07T15:00:00Z" : "2026-12-07T16:00:00Z",
        scheduled_timezone: c === "Clark" ? "America/New_York" : "America/Chicago",
      }),
    );
    const result = run(projects);
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    const t = templateOf(result.file.text);
    expect(t.timezone).toBe("America/Chicago");
    expect(t.schedule).toEqual({ local: "2026-12-07T10:00" });
    expect(t.instances["adams-county-democrats-en"].timezone).toBeUndefined();
    expect(t.instances["clark-county-democrats-en"].timezone).toBe("America/New_York");
    expect(t.instances["clark-county-democrats-en"].schedule).toBeUndefined();
  });

  test("a name shared by two lists of one organization is written by id, per instance", () => {
    const records = {
      ...RECORDS,
      contactLists: [
        ...RECORDS.contactLists,
        { ...(RECORDS.contactLists[0] as (typeof RECORDS.contactLists)[0]), id: "likely-Adams-2" },
      ],
    };
    const result = run(everyCounty(), { catalogs: buildCatalogs({ ...records, projects: new Map() }) });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    const t = templateOf(result.file.text);
    expect(t.contact_lists).toEqual(["Likely Voters"]);
    expect(t.instances["adams-county-democrats-en"].contact_lists).toEqual(["likely-Adams"]);
    expect(result.file.text).toContain(
      "- likely-Adams # by id: Likely Voters: 2 contact lists share the name",
    );
  });

  test("an existing identical file is unchanged; a different one is refused", () => {
    const first = run(everyCounty());
    if (!first.ok) throw new Error("import failed");
    const again = run(everyCounty(), { existing: first.file.text });
    expect(again.ok && again.file.changed).toBe(false);
    expect(again.ok && again.instances.every((i) => i.change === "unchanged")).toBe(true);
    const other = run(everyCounty(), { existing: `${first.file.text}# edited\n` });
    expect(other.ok ? [] : other.diagnostics.map((d) => d.code)).toEqual(["import.template-file-exists"]);
  });

  test("addresses already taken by other files are not reused", () => {
    const result = run(everyCounty(), { taken: new Set(["adams-county-democrats-en"]) });
    if (!result.ok) throw new Error("import failed");
    const names = Object.keys(templateOf(result.file.text).instances);
    expect(names).not.toContain("adams-county-democrats-en");
    expect(names.filter((n) => n.startsWith("adams-county-democrats-en-"))).toHaveLength(1);
  });

  test("type is written only for surveys, as import writes a project (docs/import.md)", () => {
    const broadcasts = run(everyCounty());
    if (!broadcasts.ok) throw new Error(JSON.stringify(broadcasts.diagnostics));
    expect(broadcasts.file.text).not.toMatch(/^\s*type:/m);
    const t = templateOf(broadcasts.file.text);
    expect(t.type).toBeUndefined();
    for (const instance of Object.values(t.instances)) expect(instance).not.toHaveProperty("type");

    const surveys = run(COUNTIES.map((c) => countyProject(c, "en", { type: "survey" })));
    if (!surveys.ok) throw new Error(JSON.stringify(surveys.diagnostics));
    expect(templateOf(surveys.file.text).type).toBe("survey");

    const [first, ...rest] = COUNTIES;
    const mixed = run([
      countyProject(first as (typeof COUNTIES)[number], "en", { type: "survey" }),
      ...rest.map((c) => countyProject(c, "en")),
    ]);
    if (!mixed.ok) throw new Error(JSON.stringify(mixed.diagnostics));
    const m = templateOf(mixed.file.text);
    expect(m.type).toBeUndefined();
    expect(Object.values(m.instances).map((i) => (i as { type?: string }).type)).toEqual([
      "survey",
      undefined,
      undefined,
    ]);
  });
});

describe("import --template: refusals", () => {
  test("texts of one language that differ name the organizations", () => {
    const projects = everyCounty().map((p) =>
      p.project_id === "p-clark-es" ? { ...p, message_text: ES.replace("martes", "lunes") } : p,
    );
    const result = run(projects);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.diagnostics.map((d) => d.code)).toEqual(["import.template-text-differs"]);
    expect(result.diagnostics[0]?.message).toContain("the es texts differ: 2 projects");
    expect(result.diagnostics[0]?.message).toContain(
      "1 project (GOTV Reminder in Clark County Democrats) has",
    );
  });

  test("a text whose language cannot be told is refused until --language names it", () => {
    const odd = countyProject("Adams", "en", { message_text: "{{first_name}}: STOP" });
    const refused = run([odd]);
    expect(refused.ok ? [] : refused.diagnostics.map((d) => d.code)).toEqual([
      "import.template-language-unknown",
    ]);
    expect(refused.ok ? "" : refused.diagnostics[0]?.hint).toBe(
      "name it: --language p-adams-en=en (or es, ...)",
    );
    const named = run([odd], { languages: new Map([["p-adams-en", "pt"]]) });
    expect(named.ok && templateOf(named.file.text).message).toEqual({ pt: "{{first_name}}: STOP" });
  });

  test("--language naming a project that is not selected is refused", () => {
    const result = run(everyCounty(), { languages: new Map([["p-adams-fr", "fr"]]) });
    expect(result.ok ? [] : result.diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([
      "import.template-invalid-name: --language names a project not selected: p-adams-fr",
    ]);
  });

  test("a template name that is not an address is refused", () => {
    const result = run(everyCounty(), { template: "GOTV Reminder" });
    expect(result.ok ? [] : result.diagnostics.map((d) => d.code)).toEqual(["import.template-invalid-name"]);
  });
});

describe("languages and local times", () => {
  test.each([
    [EN, "en"],
    [ES, "es"],
    ["Hi Maria, polls close at 7pm. Text STOP to end", "en"],
    ["Hola, las urnas cierran a las 7. Envía STOP para cancelar", "es"],
    ["¡Vota hoy! Gracias por tu apoyo", "es"],
    ["Vote today at the library", "en"],
    ["STOP", undefined],
  ])("%s -> %s", (text, language) => {
    expect(detectLanguage(text)).toBe(language);
  });

  test("a live time in the schedule's zone is written as its local time, seconds only when not zero", () => {
    const at = (scheduled_at: string) =>
      localScheduleOf(
        importProject(
          countyProject("Adams", "en", {
            status: "scheduled",
            scheduled_at,
            scheduled_timezone: "America/Denver",
          }),
          ALL_CATALOGS,
        ),
      )?.local;
    expect(at("2026-12-07T17:00:00Z")).toBe("2026-12-07T10:00");
    expect(at("2026-07-07T16:00:30Z")).toBe("2026-07-07T10:00:30");
  });
});

describe("the read-back check", () => {
  test("a file whose expansion means another list, text or organization is a bug, not written", () => {
    const projects = everyCounty();
    const result = run(projects);
    if (!result.ok) throw new Error("import failed");
    const members = projects.map((project) => {
      const catalogs = organizationCatalogs(ALL_CATALOGS, project.organization_id);
      const instance = result.instances.find((i) => i.id === project.project_id);
      return {
        project,
        imported: importProject(project, catalogs),
        language: instance?.language ?? "",
        catalogs,
        address: instance?.address ?? "",
        organization:
          ALL_CATALOGS.organization.find((o) => o.id === project.organization_id)?.labels[0] ?? "",
      };
    });
    expect(verifyTemplateFile(result.file.text, "gotv", members, ALL_CATALOGS)).toEqual([]);
    const wrong = (text: string) =>
      verifyTemplateFile(text, "gotv", members, ALL_CATALOGS).map((d) => `${d.code} ${d.message}`);
    expect(
      wrong(result.file.text.replace("      - Likely Voters", "      - Ward 3 Likely Voters")),
    ).toHaveLength(6);
    expect(
      wrong(result.file.text.replace("organization: Clark County", "organization: Adams County")),
    ).toEqual([
      expect.stringMatching(
        /^import\.verify-failed gotv: instance clark-county-democrats-en would not .*\(organization/,
      ),
    ]);
    expect(wrong(result.file.text.replace("Reply STOP", "Text STOP"))[0]).toContain("(message)");
  });
});
