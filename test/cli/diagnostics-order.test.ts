/**
 * Info notes are shown only with `--verbose`; the errors come last, after any warnings, so the last
 * thing a stopped command prints is what stopped it. Unit cases for the ordering, end to end
 * through `validate`, `preview` and `plan`.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { hiddenInfos, orderForTerminal } from "../../src/report/terminal-diagnostics.js";
import { runCli } from "../helpers/run-cli.js";

const at = (offset: number, file = "a.yaml") => ({
  file,
  start: { line: 1, column: offset + 1, offset },
  end: { line: 1, column: offset + 2, offset: offset + 1 },
});
const d = (severity: Diagnostic["severity"], offset: number, file?: string): Diagnostic => ({
  severity,
  code: "lint.opt-out-missing",
  message: `${severity}@${file ?? "a.yaml"}:${offset}`,
  range: at(offset, file),
});
const names = (ds: readonly Diagnostic[]) => ds.map((x) => x.message);

describe("orderForTerminal", () => {
  const mixed = [
    d("error", 1),
    d("warning", 5),
    d("info", 3),
    d("error", 2, "b.yaml"),
    d("warning", 0, "b.yaml"),
  ];
  test.each([
    {
      verbose: false,
      shown: ["warning@a.yaml:5", "warning@b.yaml:0", "error@a.yaml:1", "error@b.yaml:2"],
      hidden: 1,
    },
    {
      verbose: true,
      shown: ["info@a.yaml:3", "warning@a.yaml:5", "warning@b.yaml:0", "error@a.yaml:1", "error@b.yaml:2"],
      hidden: 0,
    },
  ])("verbose $verbose", ({ verbose, shown, hidden }) => {
    expect(names(orderForTerminal(mixed, { verbose }))).toEqual(shown);
    expect(hiddenInfos(mixed, { verbose })).toBe(hidden);
  });

  test("does not reorder its input", () => {
    const input = [d("error", 0), d("warning", 1)];
    orderForTerminal(input, { verbose: false });
    expect(names(input)).toEqual(["error@a.yaml:0", "warning@a.yaml:1"]);
  });
});

// `a` has an error (no opt-out), `b` a warning (a URL shortener) after it in the file, and `c` an
// info note (segment growth for a non-GSM first name).
const FILE = `version: 1
fields:
  - polling_place
projects:
  a:
    id: a-1
    message: "Polls are open 7am-7pm"
  b:
    id: b-1
    message: "Find your polling place at https://bit.ly/x. Reply STOP to opt out"
  c:
    id: c-1
    message: "{{first_name|friend}}, polls close at 7pm tonight! There is still time to vote at {{polling_place|your polling place}}. Reply STOP to opt out"
`;

function dir(): string {
  const cwd = mkdtempSync(join(tmpdir(), "campaignctl-order-"));
  writeFileSync(join(cwd, "c.yaml"), FILE);
  return cwd;
}

/** The `severity[code]` of each diagnostic header line, in order. */
const headers = (text: string) => [...text.matchAll(/^c\.yaml:\d+:\d+: (\w+\[[\w.-]+\])/gm)].map((m) => m[1]);

describe("validate and preview: info only with --verbose, errors last", () => {
  test("validate", async () => {
    const quiet = await runCli(["validate"], { cwd: dir() });
    expect(quiet.code).toBe(1);
    expect(headers(quiet.stdout)).toEqual(["warning[lint.url-shortener]", "error[lint.opt-out-missing]"]);
    expect(quiet.stdout).toMatch(/1 error, 1 warning \(1 info note hidden: --verbose shows them\)\n$/);
    const verbose = await runCli(["validate", "--verbose"], { cwd: dir() });
    expect(headers(verbose.stdout)).toEqual([
      "warning[lint.url-shortener]",
      "info[lint.segment-growth]",
      "error[lint.opt-out-missing]",
    ]);
    expect(verbose.stdout).toMatch(/1 error, 1 warning\n$/);
  });

  test("validate --json keeps every diagnostic, info included, in file order", async () => {
    const r = await runCli(["validate", "--json"], { cwd: dir() });
    const doc = JSON.parse(r.stdout) as { diagnostics: { code: string }[] };
    expect(doc.diagnostics.map((x) => x.code)).toEqual([
      "lint.opt-out-missing",
      "lint.url-shortener",
      "lint.segment-growth",
    ]);
  });

  test("preview (problems on stderr)", async () => {
    const quiet = await runCli(["preview"], { cwd: dir() });
    expect(quiet.code).toBe(1);
    expect(headers(quiet.stderr)).toEqual(["warning[lint.url-shortener]", "error[lint.opt-out-missing]"]);
    const verbose = await runCli(["preview", "--verbose"], { cwd: dir() });
    expect(headers(verbose.stderr)).toContain("info[lint.segment-growth]");
  });

  test("plan stops on the files with the error last and no info note", async () => {
    const r = await runCli(["plan", "--sandbox"], { cwd: dir(), env: {} });
    expect(r.code).toBe(1);
    expect(headers(r.stderr)).toEqual(["warning[lint.url-shortener]", "error[lint.opt-out-missing]"]);
  });
});

describe("--no-color", () => {
  test("validate and preview print no ANSI escapes with --no-color, even when colour is forced", async () => {
    for (const command of ["validate", "preview"]) {
      const forced = await runCli([command], { cwd: dir(), env: { NO_COLOR: undefined, FORCE_COLOR: "1" } });
      expect(forced.stdout + forced.stderr).toContain("\u001b[");
      const plain = await runCli([command, "--no-color"], {
        cwd: dir(),
        env: { NO_COLOR: undefined, FORCE_COLOR: "1" },
      });
      expect(plain.stdout + plain.stderr).not.toContain("\u001b[");
    }
  });
});
