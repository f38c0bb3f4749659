/**
 * `campaignctl import --template` end to end against the embedded sandbox serving a generated world
 * of three county organizations under a parent (whose key reads them all): one file, one template,
 * one instance per project; `--check` right after finds nothing to change; refusals before any
 * request.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parse, stringify } from "yaml";
import { runCli } from "../helpers/run-cli.js";
import { generateOrgWorld, WORLD_MESSAGES } from "../support/org-world.js";

const world = generateOrgWorld({ orgs: 3, projects: 2, parent: true, seed: 3 });

function workspace(): string {
  const cwd = mkdtempSync(join(tmpdir(), "cc-import-template-"));
  writeFileSync(join(cwd, "world.yaml"), stringify(world.fixture));
  return cwd;
}

const SANDBOX = ["--sandbox", "--fixture", "world.yaml"];

describe("import --template", () => {
  test("writes one template with en/es and an instance per project of every organization", async () => {
    const cwd = workspace();
    const r = await runCli(["import", ...SANDBOX, "--all", "--template", "gotv", "--out", "campaign"], {
      cwd,
    });
    // The file is named once, on stdout (issue 35: it was also on stderr).
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("created campaign/gotv.yaml (6 projects)\n");
    expect(r.code).toBe(0);
    const doc = parse(readFileSync(join(cwd, "campaign/gotv.yaml"), "utf8"));
    const t = doc.templates.gotv;
    expect(t.message).toEqual(WORLD_MESSAGES);
    expect(t.contact_lists).toEqual(["Likely Voters"]);
    expect(t.suppression_lists).toEqual(["Do Not Text"]);
    expect(t.brand).toBe("County Democrats");
    const instances = Object.values(t.instances) as { organization: string; id: string; language: string }[];
    expect(instances.map((i) => [i.organization, i.id, i.language])).toEqual(
      world.organizations.flatMap((o) => o.projects.map((p) => [o.name, p.id, p.language])),
    );

    const again = await runCli(
      ["import", ...SANDBOX, "--all", "--template", "gotv", "--out", "campaign", "--check", "--json"],
      { cwd },
    );
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: true, check: true, changed: false });

    // A plain import into the same directory: the instances describe the projects already, so
    // neither --check nor the import adds them again as plain projects (campaign.duplicate-id).
    const plain = ["import", ...SANDBOX, "--all", "--out", "campaign"];
    const check = await runCli([...plain, "--check", "--json"], { cwd });
    expect(check.code).toBe(0);
    const checked = JSON.parse(check.stdout);
    expect(checked).toMatchObject({ ok: true, changed: false });
    expect(checked.files).toEqual([
      { path: "campaign/gotv.yaml", status: "unchanged", projects: Object.keys(t.instances) },
    ]);
    const imported = await runCli(plain, { cwd });
    expect([imported.code, imported.stdout]).toEqual([0, "unchanged campaign/gotv.yaml (6 projects)\n"]);
    expect(readdirSync(join(cwd, "campaign")).filter((f) => f.endsWith(".yaml"))).toEqual(["gotv.yaml"]);
  });

  test("one organization's projects only, to a named file", async () => {
    const cwd = workspace();
    const org = world.organizations[1];
    const r = await runCli(
      [
        "import",
        ...SANDBOX,
        "--organization",
        org?.name ?? "",
        "--template",
        "gotv",
        "--out",
        "one.yaml",
        "--json",
      ],
      { cwd },
    );
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.files).toEqual([{ path: "one.yaml", status: "created", projects: expect.any(Array) }]);
    expect(doc.projects.map((p: { organization_id: string }) => p.organization_id)).toEqual([
      org?.id,
      org?.id,
    ]);
  });

  test("live text that breaks a lint error rule is imported as it is, with a warning", async () => {
    const cwd = workspace();
    const fixture = structuredClone(world.fixture);
    for (const p of fixture.projects ?? [])
      if (p.message_text === WORLD_MESSAGES.en) p.message_text = "Hi {{first_name|friend}}, vote Tuesday";
    writeFileSync(join(cwd, "world.yaml"), stringify(fixture));
    const r = await runCli(["import", ...SANDBOX, "--all", "--template", "gotv", "--out", "campaign"], {
      cwd,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("warning[lint.opt-out-missing]");
    expect(r.stderr).toContain("(the live project is so; validate and plan will stop on it)");
    expect(parse(readFileSync(join(cwd, "campaign/gotv.yaml"), "utf8")).templates.gotv.message.en).toBe(
      "Hi {{first_name|friend}}, vote Tuesday",
    );
  });

  test.each([
    [["--template", "GOTV"], "import.template-invalid-name"],
    [["--template", "gotv", "--language", "nonsense"], "import.template-invalid-name"],
    [["--language", "x=en"], "cli.usage"],
  ])("%j is refused before any request", async (args, code) => {
    const cwd = workspace();
    // No sandbox and no key: a request would fail with another code.
    const r = await runCli(["import", "--all", "--out", "campaign", ...args, "--json"], { cwd });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).diagnostics.map((d: { code: string }) => d.code)).toEqual([code]);
  });

  test("a project another file already describes is refused, and nothing is written", async () => {
    const cwd = workspace();
    mkdirSync(join(cwd, "campaign"));
    const described = world.organizations[0]?.projects[0]?.id;
    writeFileSync(
      join(cwd, "campaign", "adams.yaml"),
      stringify({ version: 1, projects: { mine: { id: described, message: WORLD_MESSAGES.en } } }),
    );
    const r = await runCli(["import", ...SANDBOX, "--all", "--template", "gotv", "--out", "campaign"], {
      cwd,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("import.template-already-described");
    expect(r.stderr).toContain(`${described} (campaign/adams.yaml: mine)`);
    expect(() => readFileSync(join(cwd, "campaign/gotv.yaml"))).toThrow();
  });

  test("a project a template's instance in another file describes is refused, naming the instance", async () => {
    const cwd = workspace();
    const first = await runCli(["import", ...SANDBOX, "--all", "--template", "gotv", "--out", "campaign"], {
      cwd,
    });
    expect(first.code).toBe(0);
    const gotv = parse(readFileSync(join(cwd, "campaign/gotv.yaml"), "utf8")).templates.gotv;
    const [address, instance] = Object.entries(gotv.instances)[0] as [string, { id: string }];
    const r = await runCli(
      ["import", ...SANDBOX, instance.id, "--template", "runoff", "--out", "campaign", "--json"],
      { cwd },
    );
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).diagnostics).toMatchObject([
      {
        code: "import.template-already-described",
        message: `already described: ${instance.id} (campaign/gotv.yaml: ${address})`,
      },
    ]);
    expect(readdirSync(join(cwd, "campaign"))).toEqual(["gotv.yaml"]);
  });

  test("campaign files under --out that do not load are refused, as import refuses them, and nothing is written", async () => {
    const cwd = workspace();
    mkdirSync(join(cwd, "campaign"));
    writeFileSync(join(cwd, "campaign", "broken.yaml"), "version: 1\nprojects:\n  mine:\n    mesage: hi\n");
    const r = await runCli(
      ["import", ...SANDBOX, "--all", "--template", "gotv", "--out", "campaign", "--json"],
      { cwd },
    );
    expect(r.code).toBe(1);
    const codes = JSON.parse(r.stdout).diagnostics.map((d: { code: string }) => d.code);
    expect([...codes].sort()).toEqual([
      "campaign.missing-key",
      "campaign.unknown-key",
      "import.existing-file-invalid",
    ]);
    expect(r.stderr).toContain("campaign/broken.yaml:4:5");
    expect(readdirSync(join(cwd, "campaign"))).toEqual(["broken.yaml"]);
  });
});
