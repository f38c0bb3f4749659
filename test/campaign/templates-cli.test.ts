/**
 * `validate`, `preview` and `plan` end to end on templated campaign files (issue 26): instances
 * counted as projects, the policy's Spanish opt-out wording accepted, and every finding on an
 * expanded project in the JSON document (checked against its schema by runCli) with its range
 * where the value was written and the other place in `related`. In-process (`run` of cli/lifecycle/run.ts:
 * the bytes and exit code a user gets); the terminal preview runs as the built binary, the one
 * run here that needs no more than the package's dist/.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runBuiltCli, runCli } from "../helpers/run-cli.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const DIR = "test/fixtures/templates";

interface JsonRange {
  readonly file: string;
  readonly start: { readonly line: number; readonly column: number };
}
interface JsonDiagnostic {
  readonly code: string;
  readonly range: JsonRange | null;
  readonly related: readonly { readonly message: string; readonly range: JsonRange }[];
}

const place = (r: JsonRange | null) => (r === null ? "none" : `${r.file}:${r.start.line}:${r.start.column}`);

describe("validate, preview and plan on templated files", () => {
  it("expands the instances and accepts the policy's Spanish opt-out wording", async () => {
    const result = await runCli(["validate", `${DIR}/clean.yaml`], { cwd: ROOT });
    expect(result.stdout).toBe(
      `policy: ${DIR}/campaignctl.policy.yaml\n1 file, 3 projects: 0 errors, 0 warnings\n`,
    );
    expect(result.code).toBe(0);
  });

  it("reports each finding at the variant or instance, with the other place related, in --json", async () => {
    const result = await runCli(["validate", `${DIR}/broken.yaml`, "--json"], { cwd: ROOT });
    expect(result.code).toBe(1);
    const doc = JSON.parse(result.stdout) as { projects: number; diagnostics: JsonDiagnostic[] };
    expect(doc.projects).toBe(2);
    const file = `${DIR}/broken.yaml`;
    expect(
      doc.diagnostics.map((d) => [d.code, place(d.range), d.related.map((r) => place(r.range))]),
    ).toEqual([
      ["campaign.variant-tag-mismatch", `${file}:9:11`, [`${file}:8:46`, `${file}:15:7`]],
      ["campaign.test-phone-repeated", `${file}:22:22`, [`${file}:6:3`, `${file}:21:22`]],
    ]);
    expect(doc.diagnostics[1]?.related[0]?.message).toBe("from template `gotv` (language es)");
  });

  it("prints both places in the terminal", async () => {
    const result = await runCli(["validate", `${DIR}/broken.yaml`], { cwd: ROOT });
    expect(result.stdout).toContain(
      `  note: sent by instance \`carr-es\` (Carroll County Democrats) at ${DIR}/broken.yaml:15:7\n`,
    );
    expect(result.stdout).toContain(
      `  note: from template \`gotv\` (language es) at ${DIR}/broken.yaml:6:3\n`,
    );
  });

  it("previews each instance as its contacts get it: template, organization, language (text and --json)", async () => {
    const json = await runCli(["preview", `${DIR}/clean.yaml`, "--json"], { cwd: ROOT });
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as {
      projects: { address: string; instance?: unknown; renderings: { text: string }[] }[];
    };
    expect(doc.projects.map((p) => [p.address, p.instance, p.renderings.at(-1)?.text])).toEqual([
      [
        "adams-en",
        { template: "gotv", organization: "Adams County Democrats", language: "en" },
        "Hi friend, vote at your polling place. Reply STOP to opt out",
      ],
      [
        "adams-es",
        { template: "gotv", organization: "Adams County Democrats", language: "es" },
        "Hola amigo, vota en your polling place. Manda ALTO para salir",
      ],
      [
        "boone-es",
        { template: "gotv", organization: "Boone County Democrats", language: "es" },
        "Hola amigo, vota en your polling place. Manda ALTO para salir",
      ],
    ]);
    const text = await runBuiltCli(["preview", `${DIR}/clean.yaml`, "--target", "boone-es"], { cwd: ROOT });
    expect(text.stdout.split("\n").slice(0, 2)).toEqual([
      `boone-es (${DIR}/clean.yaml): broadcast, SMS, opt-out footer off`,
      "  instance of template gotv, Boone County Democrats, language es",
    ]);
  });

  it("plan: a reference the instance's organization lacks is at the template's line, the instance related", async () => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-templates-"));
    const text = `version: 1
fields: [polling_place]
templates:
  gotv:
    message:
      en: "Hi {{first_name|friend}}, vote at {{polling_place|your polling place}}. Reply STOP to opt out"
    contact_lists: [Ward 3 Likley Voters]
    instances:
      riverside-en:
        organization: Riverside Democrats
        id: 9a000000-0000-4000-8000-000000000001
        language: en
`;
    writeFileSync(join(dir, "t.yaml"), text);
    const fixture = join(ROOT, "examples/sandbox.yaml");
    const result = await runCli(["plan", "--sandbox", "--fixture", fixture, "t.yaml", "--json"], {
      cwd: dir,
    });
    expect(result.code).toBe(1);
    const doc = JSON.parse(result.stdout) as {
      projects: { address: string; diagnostics: JsonDiagnostic[] }[];
    };
    expect(
      doc.projects.map((p) => [
        p.address,
        p.diagnostics.map((d) => [d.code, place(d.range), d.related.map((r) => place(r.range))]),
      ]),
    ).toEqual([
      [
        "riverside-en",
        [
          ["plan.reference-missing", "t.yaml:7:21", ["t.yaml:9:7"]],
          // The variant differs from the live text: drift at the variant, the instance related.
          ["plan.drift", "t.yaml:6:11", ["t.yaml:9:7"]],
        ],
      ],
    ]);
  });
});
