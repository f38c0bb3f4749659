/**
 * Re-import over HTTP: after a dashboard edit, `import` changes only the edited lines of the file
 * (asserted as a unified diff), keeps hand-written comments, key order and quoting, and `--check`
 * tells CI whether a file would change (exit 1) or not (exit 0) without writing.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { structuredPatch } from "diff";
import { describe, expect, test } from "vitest";
import { pid } from "../plan-command/fixture-builder.js";
import { dashboardEdit, withSandbox } from "./helpers.js";
import { richWorld } from "./rich-world.js";

const FILE = "campaigns/test-democrats.yaml";

/** The changed lines of a unified diff: `-old` and `+new`, hunk by hunk. */
function changedLines(before: string, after: string): string[] {
  return structuredPatch(FILE, FILE, before, after, "", "", { context: 0 }).hunks.flatMap((h) =>
    h.lines.filter((l) => l.startsWith("-") || l.startsWith("+")),
  );
}

describe("import: re-import updates in place", () => {
  test("a dashboard edit of the message changes only the message's lines", async () => {
    await withSandbox(richWorld, async (c) => {
      expect((await c.importing(["--all", "--out", "campaigns"])).code).toBe(0);
      const path = join(c.dir, FILE);
      // A reviewer's touches: a comment, a reordered key, another quoting style.
      const edited = readFileSync(path, "utf8")
        .replace("  scheduled-in-denver:\n", "  # Reviewed by Sam.\n  scheduled-in-denver:\n")
        .replace(
          "    name: Scheduled in Denver\n    campaign: GOTV\n",
          "    campaign: GOTV # the GOTV registration\n    name: 'Scheduled in Denver'\n",
        );
      writeFileSync(path, edited);
      expect((await c.importing(["--all", "--out", "campaigns", "--check"])).code).toBe(0);
      expect(readFileSync(path, "utf8")).toBe(edited);

      await dashboardEdit(c.sandbox, pid(4), {
        message_text: "Early voting starts on Monday. Reply STOP to opt out",
      });
      const check = await c.importing(["--all", "--out", "campaigns", "--check"]);
      expect(check.code).toBe(1);
      expect(check.stderr).toContain("import.would-change");
      expect(check.stdout).toContain("+      Early voting starts on Monday. Reply STOP to opt out");
      expect(readFileSync(path, "utf8")).toBe(edited);

      const again = await c.importing(["--all", "--out", "campaigns"]);
      expect(again.code).toBe(0);
      const after = readFileSync(path, "utf8");
      expect(changedLines(edited, after)).toEqual([
        "-      Early voting starts tomorrow. Reply STOP to opt out",
        "+      Early voting starts on Monday. Reply STOP to opt out",
      ]);
      expect((await c.importing(["--all", "--out", "campaigns", "--check"])).code).toBe(0);
      expect((await c.planning(["campaigns", "--detailed-exitcode"])).code).toBe(0);
    });
  });

  test("reference, footer and link-tracking edits change those keys only; new projects are appended", async () => {
    await withSandbox(richWorld, async (c) => {
      expect((await c.importing([pid(1), pid(3), "--out", "campaigns"])).code).toBe(0);
      const path = join(c.dir, FILE);
      const before = readFileSync(path, "utf8");
      await dashboardEdit(c.sandbox, pid(1), { opt_out_footer_enabled: true });
      await dashboardEdit(c.sandbox, pid(3), {
        link_tracking_enabled: false,
        media_ids: ["00000000-0000-4000-8000-000000000101"],
      });
      const result = await c.importing([pid(1), pid(3), pid(4), "--out", "campaigns", "--json"]);
      expect(result.code).toBe(0);
      const document = JSON.parse(result.stdout);
      expect(
        document.projects.map((p: { address: string; change: string }) => [p.address, p.change]),
      ).toEqual([
        ["cafe-rally-dia-1", "updated"],
        ["volunteer-mms", "updated"],
        ["scheduled-in-denver", "added"],
      ]);
      const lines = changedLines(before, readFileSync(path, "utf8"));
      expect(lines.filter((l) => l.startsWith("-"))).toEqual([
        "-    opt_out_footer: false",
        "-      - flyer.png",
        "-    link_tracking:",
        "-      destination_url: https://test.vote/volunteer",
        "-      domain: 00000000-0000-4000-8000-000000000201 # by id: the API has no tracking-domain read, so only an id can be checked",
        "-      param_field: volunteer_shift",
        "-      fallback_url: https://test.vote/",
      ]);
      expect(lines).toContain("+    opt_out_footer: true");
      expect(lines).toContain("+  scheduled-in-denver:");
      const plan = await c.planning(["campaigns", "--detailed-exitcode"]);
      if (plan.code !== 0) console.log(plan.stdout, plan.stderr, readFileSync(path, "utf8"));
      expect(plan.code).toBe(0);
    });
  });

  test("live content that breaks a lint rule is imported as it is, with a warning saying so", async () => {
    await withSandbox(richWorld, async (c) => {
      await dashboardEdit(c.sandbox, pid(3), { opt_out_footer_enabled: false });
      const result = await c.importing([pid(3), "--out", "campaigns"]);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain("warning[lint.opt-out-missing]: volunteer-mms:");
      expect(result.stderr).toContain("the live project is so; validate and plan will stop on it");
      expect(readFileSync(join(c.dir, FILE), "utf8")).toContain("    opt_out_footer: false\n");
    });
  });
});
