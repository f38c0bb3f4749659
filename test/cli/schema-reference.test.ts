/**
 * The modeline rule of the files campaignctl writes (cli/output/schema-reference.ts): the nearest schema
 * copy up to the repository root, else campaignctl in node_modules, else this machine's package by
 * file URL; and `import` writing new files by that rule.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import {
  diskProbe,
  packageSchemaPath,
  type SchemaProbe,
  schemaReference,
} from "../../cli/output/schema-reference.js";
import { declaredSchema } from "../../src/campaign/schema-modeline.js";
import { runCli } from "../helpers/run-cli.js";

/** A file system holding exactly `paths` (absolute); a `.schema.json` among them is campaignctl's. */
function fakeDisk(paths: readonly string[]): SchemaProbe {
  const set = new Set(paths);
  return {
    exists: (p) => set.has(p),
    isSchema: (p, name) => set.has(p) && p.endsWith(`/${name}.schema.json`),
  };
}

const FILE_URL = pathToFileURL(packageSchemaPath("campaign")).href;

describe("the $schema of a file campaignctl writes", () => {
  test.each([
    [
      "a copy beside the campaign directory",
      "/r/campaigns/a.yaml",
      ["/r/schemas/campaign.schema.json"],
      "../schemas/campaign.schema.json",
    ],
    [
      "the nearest copy wins",
      "/r/c/d/a.yaml",
      ["/r/schemas/campaign.schema.json", "/r/c/schemas/campaign.schema.json"],
      "../schemas/campaign.schema.json",
    ],
    [
      "a copy in the file's own directory",
      "/r/a.yaml",
      ["/r/schemas/campaign.schema.json"],
      "schemas/campaign.schema.json",
    ],
    [
      "a copy wins over node_modules",
      "/r/c/a.yaml",
      ["/r/node_modules/campaignctl/schemas/campaign.schema.json", "/r/schemas/campaign.schema.json"],
      "../schemas/campaign.schema.json",
    ],
    [
      "campaignctl installed in the repository",
      "/r/c/a.yaml",
      ["/r/node_modules/campaignctl/schemas/campaign.schema.json"],
      "../node_modules/campaignctl/schemas/campaign.schema.json",
    ],
    [
      "nothing above the repository root counts",
      "/w/r/c/a.yaml",
      ["/w/r/.git", "/w/schemas/campaign.schema.json"],
      FILE_URL,
    ],
    [
      "the repository root itself counts",
      "/w/r/c/a.yaml",
      ["/w/r/.git", "/w/r/schemas/campaign.schema.json"],
      "../schemas/campaign.schema.json",
    ],
    ["neither: this machine's package", "/r/c/a.yaml", [], FILE_URL],
    ["another schema of that name is not ours", "/r/c/a.yaml", ["/r/schemas/policy.schema.json"], FILE_URL],
  ])("%s", (_, file, disk, expected) => {
    expect(schemaReference(file, "campaign", fakeDisk(disk))).toBe(expected);
  });

  test("a schemas/ folder of someone else's (another title) is not named", () => {
    const cwd = mkdtempSync(join(tmpdir(), "campaignctl-schema-"));
    mkdirSync(join(cwd, "schemas"));
    writeFileSync(join(cwd, "schemas/campaign.schema.json"), '{"title": "someone else\'s campaign file"}');
    expect(schemaReference(join(cwd, "campaigns/a.yaml"), "campaign", diskProbe)).toBe(FILE_URL);
  });
});

describe("import names a schema that resolves", () => {
  const importInto = async (cwd: string) => {
    const run = await runCli(["import", "--sandbox", "--all", "--out", "campaigns/"], { cwd });
    expect(run.code).toBe(0);
    return declaredSchema(readFileSync(join(cwd, "campaigns/riverside-democrats.yaml"), "utf8"));
  };

  test("after campaignctl init: the repository's schema copy", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "campaignctl-import-schema-"));
    expect((await runCli(["init", ".", "--ci", "none"], { cwd })).code).toBe(0);
    // The example describes one of the projects import adopts: import it elsewhere.
    rmSync(join(cwd, "campaigns/example.yaml"));
    expect(await importInto(cwd)).toBe("../schemas/campaign.schema.json");
  }, 30_000);

  test("with campaignctl in node_modules: that package's schema", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "campaignctl-import-schema-"));
    cpSync("schemas", join(cwd, "node_modules/campaignctl/schemas"), { recursive: true });
    expect(await importInto(cwd)).toBe("../node_modules/campaignctl/schemas/campaign.schema.json");
  }, 30_000);

  test("with neither: this machine's campaignctl, by file URL", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "campaignctl-import-schema-"));
    expect(await importInto(cwd)).toBe(FILE_URL);
  }, 30_000);
});
