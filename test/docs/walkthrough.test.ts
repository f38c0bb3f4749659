/**
 * The README's "Your first campaign" walkthrough, run as written: every `campaignctl` command of
 * its shell blocks, in order, in a fresh directory against the embedded sandbox, with the edit of
 * step 2 made from the README's own YAML snippet. Each command must exit as the walkthrough says.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { parse, parseDocument } from "yaml";
import { runCli } from "../helpers/run-cli.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** The walkthrough section of the README. */
function walkthrough(): string {
  const start = README.indexOf("## Your first campaign");
  const end = README.indexOf("\n## ", start + 1);
  expect(start).toBeGreaterThan(-1);
  return README.slice(start, end === -1 ? undefined : end);
}

/** The fenced blocks of a language, in order. */
function blocks(text: string, lang: string): string[] {
  return [...text.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\``, "gm"))].map((m) => m[1] ?? "");
}

/** `campaignctl` command lines of the shell blocks: comments and `; echo $?` left out. */
function commands(section: string): string[][] {
  return blocks(section, "sh")
    .flatMap((b) => b.split("\n"))
    .map((l) =>
      l
        .replace(/\s+#.*$/, "")
        .replace(/;\s*echo.*$/, "")
        .trim(),
    )
    .filter((l) => l.startsWith("campaignctl "))
    .map((l) => [...l.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? "").slice(1));
}

describe("README walkthrough: your first campaign", () => {
  test("runs as written against the embedded sandbox", async () => {
    const section = walkthrough();
    const steps = commands(section);
    expect(steps.map((s) => s[0])).toEqual([
      "import",
      "plan",
      "validate",
      "preview",
      "plan",
      "apply",
      "plan",
    ]);
    // What the walkthrough says each command ends with.
    const expected = [0, 0, 0, 0, 2, 0, 0];
    const edit = parse(blocks(section, "yaml")[0] ?? "") as Record<string, unknown>;
    const address = /find the project `([a-z0-9-]+)`/.exec(section)?.[1] ?? "";

    const cwd = mkdtempSync(join(tmpdir(), "campaignctl-walkthrough-"));
    for (const [i, argv] of steps.entries()) {
      if (i === 2) {
        // Step 2: the edit, exactly the README's snippet, into the imported file.
        // The imported file, beside the offline snapshot import writes (.campaignctl/snapshot.json).
        const files = readdirSync(join(cwd, "campaigns")).filter((f) => f !== ".campaignctl");
        expect(files).toHaveLength(1);
        expect(readdirSync(join(cwd, "campaigns/.campaignctl"))).toEqual(["snapshot.json"]);
        const file = join(cwd, "campaigns", files[0] ?? "");
        const doc = parseDocument(readFileSync(file, "utf8"));
        expect(doc.getIn(["projects", address, "state"])).toBe("draft");
        for (const [key, value] of Object.entries(edit)) doc.setIn(["projects", address, key], value);
        writeFileSync(file, doc.toString());
      }
      const result = await runCli(argv, { cwd, env: {} });
      expect(result.code, `campaignctl ${argv.join(" ")}\n${result.stdout}\n${result.stderr}`).toBe(
        expected[i],
      );
      if (i === 4) expect(result.stdout).toContain(`${address}.test: planned, draft -> awaiting_test`);
    }
  }, 60_000);
});
