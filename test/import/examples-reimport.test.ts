/**
 * Re-import into hand-written files: the examples/ campaign files (defaults with a test block,
 * `after`, comments, folded and quoted messages) against the example world. Import changes only
 * what differs from the live projects (the desired states the examples ask for and the live
 * schedule of the early-vote push) and leaves every other byte; the plan then shows nothing to do.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { structuredPatch } from "diff";
import { describe, expect, test } from "vitest";
import { runCli } from "../helpers/run-cli.js";

const EXAMPLES = ["gotv.yaml", "volunteers.yaml", "early-vote.yaml"];

describe("import: re-import into the examples", () => {
  test("changes only the lines that differ from live; plan then shows nothing to do", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "cc-import-examples-"));
    mkdirSync(join(cwd, "campaigns"));
    for (const f of EXAMPLES)
      copyFileSync(new URL(`../../examples/${f}`, import.meta.url), join(cwd, "campaigns", f));
    // The projects these files describe (the world's runoff notice is a template's instances in
    // runoff-notice.yaml, not copied here).
    const ids = [1, 2, 3, 4].map((n) => `9a000000-0000-4000-8000-00000000000${n}`);
    const result = await runCli(["import", "--sandbox", ...ids, "--out", "campaigns", "--json"], { cwd });
    expect(result.code).toBe(0);
    const changes: Record<string, string[]> = {};
    for (const f of EXAMPLES) {
      const before = readFileSync(new URL(`../../examples/${f}`, import.meta.url), "utf8");
      const after = readFileSync(join(cwd, "campaigns", f), "utf8");
      changes[f] = structuredPatch(f, f, before, after, "", "", { context: 0 }).hunks.flatMap((h) =>
        h.lines.filter((l) => l.startsWith("-") || l.startsWith("+")),
      );
    }
    // Complete descriptions (media, footer) join; the desired states become the live ones.
    const draftAgain = [
      "+    media: []",
      "-    state: scheduled",
      "+    opt_out_footer: false",
      "+    state: draft",
    ];
    expect(changes).toEqual({
      "gotv.yaml": [...draftAgain, ...draftAgain],
      "volunteers.yaml": ["-    state: tested", "+    state: draft"],
      "early-vote.yaml": [
        "-    state: paused",
        "+    media: []",
        "+    opt_out_footer: false",
        "+    state: scheduled",
        "+    schedule:",
        "+      at: 2026-12-03T09:00:00-06:00",
        "+      timezone: America/Chicago",
      ],
    });
    const plan = await runCli(["plan", "--sandbox", "campaigns", "--detailed-exitcode"], { cwd });
    expect(plan.stdout).toContain("Plan: 0 to do, 0 deferred, 0 blocked, 0 drifted; 0 errors, 0 warnings;");
    expect(plan.code).toBe(0);
  });
});
