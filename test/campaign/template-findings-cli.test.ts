/**
 * Issue 33's acceptance through `validate`: a template with an accented Spanish variant and 60
 * instances gives one `lint.non-gsm-character` per character with the 60 instances related, in
 * `--json` (schema-checked by runCli) and in the terminal (one excerpt per finding, the instances
 * in one note); the same document whether the files are checked on this thread or on worker
 * threads (the instances' marks cross them); the summary counts each finding once. `preview`
 * says the same; one bad reply keyword every instance inherits is one error.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { DiagnosticJson } from "../../src/diagnostics/json.js";
import { runBuiltCli, runCli } from "../helpers/run-cli.js";
import { counties, countyTemplate, lineColumn, NON_GSM } from "./county-template.js";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-grouped-cli-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

interface ValidateDoc {
  readonly diagnostics: readonly DiagnosticJson[];
  readonly summary: { readonly errors: number; readonly warnings: number };
}

const TEXT = countyTemplate(counties(60));
const ES_AT = TEXT.indexOf("es: ");

describe("validate: 60 instances of a template with an accented Spanish variant", () => {
  it("--json: one finding per character, 60 instances related, counted once", async () => {
    const dir = folder({ "c.yaml": TEXT });
    const result = await runCli(["validate", "c.yaml", "--json"], { cwd: dir });
    const doc = JSON.parse(result.stdout) as ValidateDoc;
    const nonGsm = doc.diagnostics.filter((d) => d.code === "lint.non-gsm-character");
    expect(nonGsm.map((d) => `${d.range?.start.line}:${d.range?.start.column}`)).toEqual(
      NON_GSM.map((c) => lineColumn(TEXT, c, ES_AT)),
    );
    for (const d of nonGsm) {
      expect(d.related.length).toBe(60);
      expect(d.related.map((r) => r.message)).toEqual(
        counties(60).map((c) => `for instance \`${c.address}\` (${c.organization}, es)`),
      );
    }
    // Every finding counted once: the summary is the document's findings.
    expect(doc.summary.warnings).toBe(doc.diagnostics.filter((d) => d.severity === "warning").length);
    expect(doc.summary.warnings).toBe(4); // 3 characters and the variants' segments
  });

  it("terminal: one excerpt per finding, the instances in one note, wrapped", async () => {
    const dir = folder({ "c.yaml": TEXT });
    const result = await runCli(["validate", "c.yaml"], { cwd: dir });
    const lines = result.stdout.split("\n");
    const excerpts = lines.filter((l) => /^ {2}\d+ \| /.test(l));
    expect(excerpts.length).toBe(4);
    const findings = lines.filter((l) => l.startsWith("c.yaml:"));
    expect(findings.map((l) => l.split(": ")[1])).toEqual([
      "warning[campaign.variant-segments-differ]",
      "warning[lint.non-gsm-character]",
      "warning[lint.non-gsm-character]",
      "warning[lint.non-gsm-character]",
    ]);
    expect(result.stdout).not.toContain("note: for instance");
    const first = lines.indexOf(findings[1] as string);
    // The excerpt (two lines), then the 60 instances by address, wrapped before column 100.
    const note = lines.slice(first + 3, first + 11);
    expect(note).toEqual([
      "  note: for 60 instances in c.yaml: county-01, county-02, county-03, county-04, county-05,",
      ...[6, 14, 22, 30, 38, 46].map(
        (n) =>
          `        ${Array.from({ length: 8 }, (_, i) => `county-${String(n + i).padStart(2, "0")}`).join(", ")},`,
      ),
      "        county-54, county-55, county-56, county-57, county-58, county-59, county-60",
    ]);
    expect(lines[first + 11]).toMatch(/^ {2}hint: write o instead of ó/);
    expect(lines.filter((l) => l.startsWith("  note: for 60 instances in c.yaml:")).length).toBe(4);
    expect(result.stdout).toContain("1 file, 60 projects: 0 errors, 4 warnings\n");
  });

  it("gives the same document on worker threads (one file alone, several files)", async () => {
    const ten = countyTemplate(counties(10)).replace("gotv:", "gotv-b:");
    const dir = folder({ "a.yaml": TEXT, "b.yaml": ten.replace(/county-/g, "b-county-") });
    // On worker threads: the built CLI (the compiled worker is in dist/ only); in one thread: the
    // same program in-process.
    const run = async (workers: string, paths: string[]) =>
      (
        await (workers === "0" ? runCli : runBuiltCli)(["validate", ...paths, "--json"], {
          cwd: dir,
          env: { CAMPAIGNCTL_VALIDATE_WORKERS: workers },
        })
      ).stdout;
    const inProcess = await run("0", ["a.yaml"]);
    expect((JSON.parse(inProcess) as ValidateDoc).diagnostics.length).toBe(4);
    expect(await run("1", ["a.yaml"])).toBe(inProcess);
    const both = await run("0", ["a.yaml", "b.yaml"]);
    expect(
      (JSON.parse(both) as ValidateDoc).diagnostics
        .filter((d) => d.code === "lint.non-gsm-character")
        .map((d) => [d.range?.file, d.related.length]),
    ).toEqual([
      ["a.yaml", 60],
      ["a.yaml", 60],
      ["a.yaml", 60],
      ["b.yaml", 10],
      ["b.yaml", 10],
      ["b.yaml", 10],
    ]);
    expect(await run("2", ["a.yaml", "b.yaml"])).toBe(both);
  });

  it("preview --json: the same findings, one per character", async () => {
    const dir = folder({ "c.yaml": TEXT });
    const result = await runCli(["preview", "c.yaml", "--json"], { cwd: dir });
    const doc = JSON.parse(result.stdout) as ValidateDoc;
    expect(
      doc.diagnostics.filter((d) => d.code === "lint.non-gsm-character").map((d) => d.related.length),
    ).toEqual([60, 60, 60]);
  });
});

describe("validate: one bad reply keyword every instance inherits", () => {
  it("is one error, the instances related, and the summary says 1 error", async () => {
    const text = countyTemplate(counties(6), {
      before:
        "defaults:\n  replies:\n    rules:\n      - name: stopper\n        keywords: [stop please]\n        answer: We hear you\n",
    });
    const dir = folder({ "c.yaml": text });
    const json = await runCli(["validate", "c.yaml", "--json"], { cwd: dir });
    const doc = JSON.parse(json.stdout) as ValidateDoc;
    const errors = doc.diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => [d.code, `${d.range?.start.line}:${d.range?.start.column}`])).toEqual([
      ["replies.rule-matches-opt-out", lineColumn(text, "stop please")],
    ]);
    expect(errors[0]?.related.map((r) => r.message)).toEqual(
      counties(6).map((c) => `for instance \`${c.address}\` (${c.organization}, es)`),
    );
    expect(doc.summary.errors).toBe(1);
    const terminal = await runCli(["validate", "c.yaml"], { cwd: dir });
    expect(terminal.code).toBe(1);
    expect(terminal.stdout).toContain(
      "  note: for 6 instances in c.yaml: county-01, county-02, county-03, county-04, county-05, county-06\n",
    );
    expect(terminal.stdout).toContain(": 1 error, ");
  });
});
