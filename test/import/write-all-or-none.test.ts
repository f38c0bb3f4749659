/**
 * `import --out DIR` writes every changed file or none: when one target cannot be written (a
 * directory is in its place), no file is written or changed, no temp file is left behind, and the
 * failure is `cli.file-unwritable` naming that file.
 */
import { mkdirSync, readdirSync, readFileSync, rmdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { Fixture } from "../../src/sandbox/fixture/types.js";
import { liveProject, ORG, pid, world } from "../plan-command/fixture-builder.js";
import { dashboardEdit, withSandbox } from "./helpers.js";

const YOUTH = "00000000-0000-4000-8000-0000000000a3";

/** Two organizations the key sees (the second a child of the first), one project in each. */
function twoOrganizations(now: Date): Fixture {
  const fixture = world([liveProject(1, now), liveProject(2, now, { organization_id: YOUTH })], { now });
  fixture.organizations = [
    ...(fixture.organizations ?? []),
    {
      id: YOUTH,
      name: "Youth Wing",
      parent_id: ORG,
      created_at: new Date(now.getTime() - 1e9).toISOString(),
    },
  ];
  return fixture;
}

/** Every entry under `dir`, recursively, directories with a trailing slash. */
function listing(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => {
      const rel = `${prefix}${e.name}`;
      return e.isDirectory() ? [`${rel}/`, ...listing(dir, `${rel}/`)] : [rel];
    })
    .sort();
}

describe("import: all files or none", () => {
  test("a directory where a file goes: exit 1, the code and path, no file written, no temp file", async () => {
    await withSandbox(twoOrganizations, async (c) => {
      mkdirSync(join(c.dir, "campaigns/youth-wing.yaml"), { recursive: true });
      const result = await c.importing(["--all", "--out", "campaigns"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        "error[cli.file-unwritable]: cannot write the campaign file to campaigns/youth-wing.yaml (EISDIR)",
      );
      expect(result.stderr).not.toContain("Wrote");
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(listing(c.dir)).toEqual(["campaigns/", "campaigns/youth-wing.yaml/"]);

      rmdirSync(join(c.dir, "campaigns/youth-wing.yaml"));
      const again = await c.importing(["--all", "--out", "campaigns"]);
      expect(again.code).toBe(0);
      // Each file is named once, in the summary on stdout (issue 35: not again on stderr).
      expect(again.stdout).toMatch(/^created campaigns\/test-democrats\.yaml \(/m);
      expect(again.stdout).toMatch(/^created campaigns\/youth-wing\.yaml \(/m);
      expect(again.stderr).not.toContain("campaigns/");
      // The offline snapshot is written beside the files, once they are (src/plan/snapshot.ts).
      expect(listing(c.dir)).toEqual([
        "campaigns/",
        "campaigns/.campaignctl/",
        "campaigns/.campaignctl/snapshot.json",
        "campaigns/test-democrats.yaml",
        "campaigns/youth-wing.yaml",
      ]);
    });
  });

  test("a re-import whose later file cannot be written leaves the existing file byte for byte", async () => {
    await withSandbox(twoOrganizations, async (c) => {
      expect((await c.importing([pid(1), "--out", "campaigns"])).code).toBe(0);
      const path = join(c.dir, "campaigns/test-democrats.yaml");
      const before = readFileSync(path);
      await dashboardEdit(c.sandbox, pid(1), { message_text: "Polls close at 8. Reply STOP to opt out" });
      mkdirSync(join(c.dir, "campaigns/youth-wing.yaml"));

      const result = await c.importing(["--all", "--out", "campaigns", "--json"]);
      expect(result.code).toBe(1);
      const document = JSON.parse(result.stdout) as {
        ok: boolean;
        diagnostics: { code: string; message: string }[];
      };
      expect(document.ok).toBe(false);
      expect(document.diagnostics).toMatchObject([
        {
          code: "cli.file-unwritable",
          message: "cannot write the campaign file to campaigns/youth-wing.yaml (EISDIR)",
        },
      ]);
      expect(readFileSync(path).equals(before)).toBe(true);
      expect(listing(c.dir)).toEqual([
        "campaigns/",
        "campaigns/.campaignctl/",
        "campaigns/.campaignctl/snapshot.json",
        "campaigns/test-democrats.yaml",
        "campaigns/youth-wing.yaml/",
      ]);

      rmdirSync(join(c.dir, "campaigns/youth-wing.yaml"));
      expect((await c.importing(["--all", "--out", "campaigns"])).code).toBe(0);
      expect(readFileSync(path, "utf8")).toContain("Polls close at 8. Reply STOP to opt out");
      expect(listing(c.dir)).toEqual([
        "campaigns/",
        "campaigns/.campaignctl/",
        "campaigns/.campaignctl/snapshot.json",
        "campaigns/test-democrats.yaml",
        "campaigns/youth-wing.yaml",
      ]);
    });
  });
});
