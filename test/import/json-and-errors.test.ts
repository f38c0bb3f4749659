/**
 * `import --json` prints one document valid against schemas/import-result.schema.json, on success
 * and on failure; selection errors are diagnostics with exit 1, and nothing is written.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { documentOf } from "../helpers/schemas.js";
import { liveProject, OTHER_ORG, pid } from "../plan-command/fixture-builder.js";
import { withSandbox } from "./helpers.js";
import { richWorld } from "./rich-world.js";

function checked(stdout: string): Record<string, unknown> {
  return documentOf("import-result", stdout);
}

describe("import --json", () => {
  test("describes the files and projects written, then a --check with nothing to change", async () => {
    await withSandbox(richWorld, async (c) => {
      const first = await c.importing(["--status", "paused", pid(1), "--out", "campaigns", "--json"]);
      expect(first.code).toBe(0);
      expect(checked(first.stdout)).toMatchObject({
        ok: true,
        check: false,
        changed: true,
        files: [
          {
            path: "campaigns/test-democrats.yaml",
            status: "created",
            projects: ["cafe-rally-dia-1", "held-back"],
          },
        ],
        projects: [
          { id: pid(1), address: "cafe-rally-dia-1", live_status: "draft", state: "draft", change: "added" },
          { id: pid(6), address: "held-back", live_status: "paused", state: "paused", change: "added" },
        ],
        diagnostics: [],
      });
      const again = await c.importing([
        "--status",
        "paused",
        pid(1),
        "--out",
        "campaigns",
        "--json",
        "--check",
      ]);
      expect(again.code).toBe(0);
      expect(checked(again.stdout)).toMatchObject({ ok: true, check: true, changed: false });
    });
  });

  test.each([
    [["00000000-0000-4000-9000-0000000000ff"], "import.project-not-found"],
    [["--organization", "Nobody"], "import.unknown-organization"],
    [[], "import.no-selection"],
  ])("%j: exit 1, diagnostic %s, nothing written", async (args, code) => {
    await withSandbox(richWorld, async (c) => {
      const result = await c.importing([...args, "--out", "campaigns", "--json"]);
      expect(result.code).toBe(1);
      const document = checked(result.stdout);
      expect(document).toMatchObject({ ok: false, changed: false, files: [], projects: [] });
      expect((document.diagnostics as { code: string }[]).map((d) => d.code)).toEqual([code]);
      expect(result.stderr).toContain(`error[${code}]`);
      expect(existsSync(join(c.dir, "campaigns"))).toBe(false);
    });
  });

  test("a project outside the key's organization tree: import.project-forbidden, exit 1", async () => {
    const withForeign = (now: Date) => {
      const fixture = richWorld(now);
      fixture.projects = [...(fixture.projects ?? []), liveProject(9, now, { organization_id: OTHER_ORG })];
      return fixture;
    };
    await withSandbox(withForeign, async (c) => {
      const result = await c.importing([pid(1), pid(9), "--out", "campaigns", "--json"]);
      expect(result.code).toBe(1);
      const document = checked(result.stdout);
      expect((document.diagnostics as { code: string }[]).map((d) => d.code)).toEqual([
        "import.project-forbidden",
      ]);
      expect(existsSync(join(c.dir, "campaigns"))).toBe(false);
    });
  });

  test("--check with a change: exit 1, the document lists what would change, nothing is written", async () => {
    await withSandbox(richWorld, async (c) => {
      const result = await c.importing(["--all", "--out", "campaigns", "--check", "--json"]);
      expect(result.code).toBe(1);
      expect(checked(result.stdout)).toMatchObject({ ok: true, check: true, changed: true });
      expect(existsSync(join(c.dir, "campaigns"))).toBe(false);
    });
  });
});
