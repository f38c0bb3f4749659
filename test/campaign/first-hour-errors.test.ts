/**
 * Errors a new user meets in the first hour (issue 17 item 7), on the pure loading path: a file that
 * is no campaign file (a Markdown report, a JUnit XML, a saved plan) is one diagnostic, not a screen
 * of YAML errors, while a campaign file of any name is still read; a tab used as indentation is one
 * error at the tab, not the library's cascade, and other errors on other lines stay; an unquoted or
 * oddly written phone number gets a hint naming the E.164 form that then passes.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { fileKindOf } from "../../src/campaign/file-kind.js";
import { e164Suggestion } from "../../src/campaign/phone-suggestion.js";
import { compareDiagnostics } from "../../src/diagnostics/diagnostic.js";
import { campaignFile, where } from "./helpers.js";

function diagnosticsOf(path: string, text: string) {
  const { diagnostics } = assembleCampaign([campaignFile(path, text)]);
  return [...diagnostics].sort(compareDiagnostics);
}

const errorsOf = (path: string, text: string) =>
  diagnosticsOf(path, text).filter((d) => d.severity === "error");

const GOTV = readFileSync("examples/gotv.yaml", "utf8");
const MARKDOWN = [
  "<!-- campaignctl-plan -->",
  "### campaignctl plan",
  "",
  "**Plan: 3 to do (2 test, 1 pause), 3 deferred, 0 blocked, 0 drifted; 0 errors, 0 warnings.**",
  "",
  "Policy: `campaignctl.policy.yaml` (send_window 09:00-20:00).",
  "",
  "| Project | Live | Desired |",
  "|---|---|---|",
  "| `gotv-reminder` | draft | scheduled |",
  "",
].join("\n");
const JUNIT =
  '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="campaignctl apply">\n  <testsuite name="x"/>\n</testsuites>\n';
const HTML = "<!doctype html>\n<html lang=en><head><title>Preview</title></head><body></body></html>\n";
const PLAN = JSON.stringify({ format_version: 2, projects: [] });
const MINIMAL = "version: 1\nprojects:\n  a:\n    id: p1\n";

describe("files that are not campaign files", () => {
  /** [file name, text, kind] */
  const KINDS: readonly [string, string, string][] = [
    ["plan.md", MARKDOWN, "foreign Markdown"],
    ["report.markdown", MARKDOWN, "foreign Markdown"],
    ["junit.xml", JUNIT, "foreign XML"],
    ["apply-report", JUNIT, "foreign XML"],
    ["index.html", HTML, "foreign HTML"],
    ["notes.txt", "remember to plan before apply\n", "foreign plain text"],
    ["plan.txt", "Plan: 3 to do, 0 blocked\n", "foreign plain text"],
    ["results.json", '{"tests": 3}', "foreign JSON"],
    ["list.json", "[1, 2]", "foreign JSON"],
    ["plan.json", PLAN, "plan"],
    ["tfplan", PLAN, "plan"],
    // A campaign file named explicitly is one, whatever its name.
    ["campaign.yaml", MARKDOWN, "campaign"],
    ["campaign.txt", MINIMAL, "campaign"],
    ["campaign.md", `# yaml-language-server: $schema=campaign.schema.json\n${MINIMAL}`, "campaign"],
    ["campaign.conf", MINIMAL, "campaign"],
    ["campaign", "projects: {}\nversion: 1\n", "campaign"],
    ["campaign.json", JSON.stringify({ version: 1, projects: {} }), "campaign"],
    ["broken.txt", "version: 1\nprojects:\n  a:\n\tid: p1\n", "campaign"],
    // A Markdown page showing a campaign file in a code block is still Markdown.
    ["readme.md", `# Campaigns\n\nWrite:\n\n\`\`\`yaml\n${MINIMAL}\`\`\`\n`, "foreign Markdown"],
  ];

  it.each(KINDS.map(([name, text, kind]) => [name, kind, text] as const))(
    "%s is read as %s",
    (name, expected, text) => {
      const kind = fileKindOf(name, text);
      expect(kind.kind === "foreign" ? `foreign ${kind.format}` : kind.kind).toBe(expected);
    },
  );

  it.each([
    ["plan.md", MARKDOWN, "it looks like Markdown"],
    ["junit.xml", JUNIT, "it looks like XML"],
    ["notes.txt", "remember\n", "it looks like plain text"],
    ["plan.json", PLAN, "this is a saved plan"],
  ])("%s gets one diagnostic at its start, not YAML errors", (name, text, said) => {
    const ds = diagnosticsOf(name, text);
    expect(ds.map(where)).toEqual(["campaign.not-campaign-file@1:1"]);
    expect(ds[0]?.message).toContain(said);
    expect(ds[0]?.hint).toMatch(name === "plan.json" ? /campaignctl apply plan\.json/ : /version: 1/);
  });

  it("a campaign file with a .txt name is read as one (projects and YAML errors alike)", () => {
    const { campaign, diagnostics } = assembleCampaign([campaignFile("gotv.txt", GOTV)]);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(campaign.projects.map((p) => p.address)).toEqual(["gotv-reminder", "gotv-followup"]);
    expect(errorsOf("broken.txt", "version: 1\nprojects:\n  a:\n\tid: p1\n").map(where)).toEqual([
      "campaign.yaml-indent@4:1",
    ]);
  });
});

describe("a tab used as indentation", () => {
  const lines = GOTV.split("\n");
  const withLine = (n: number, text: string) => lines.map((l, i) => (i === n - 1 ? text : l)).join("\n");
  const retab = (n: number, perLevel: boolean) => {
    const line = lines[n - 1] ?? "";
    const indent = line.length - line.trimStart().length;
    return withLine(n, `${"\t".repeat(perLevel ? indent / 2 : 1)}${line.trimStart()}`);
  };

  /** The 1-based line of the example whose text (trimmed) is `text`: the cases follow the file. */
  const lineOf = (text: string, after = 0): number => {
    const i = lines.findIndex((l, k) => k >= after && l.trim() === text);
    if (i < 0) throw new Error(`examples/gotv.yaml has no line ${text}`);
    return i + 1;
  };
  const NAME = lineOf("name: GOTV Reminder");
  const CHANNEL = lineOf("channel: 10dlc");
  const NUMBER = lineOf('- "+15035550101"');
  const MERGE_VALUES = lineOf("merge_values:");
  const SCHEDULE = lineOf("schedule:");
  const AT = lineOf('at: "2026-12-07T10:00:00-06:00"');
  const MESSAGE = NAME + 2;
  /** [what, file text, expected `code@line:col`] */
  const CASES: readonly [string, string, string][] = [
    ["a project key indented with one tab", retab(NAME, false), `campaign.yaml-indent@${NAME}:1`],
    ["a defaults key indented with one tab", retab(CHANNEL, false), `campaign.yaml-indent@${CHANNEL}:1`],
    ["a list item indented with one tab", retab(NUMBER, false), `campaign.yaml-indent@${NUMBER}:1`],
    [
      "a test contact key indented with tabs",
      retab(MERGE_VALUES, true),
      `campaign.yaml-indent@${MERGE_VALUES}:1`,
    ],
    ["a schedule key indented with tabs", retab(AT, true), `campaign.yaml-indent@${AT}:1`],
    ["a message line indented with one tab", retab(MESSAGE, false), `campaign.yaml-indent@${MESSAGE}:1`],
    [
      "a tab after the spaces of a key",
      withLine(NAME, `\t${lines[NAME - 1]}`),
      `campaign.yaml-indent@${NAME}:1`,
    ],
    [
      "a tab between spaces",
      withLine(NAME, `  \t${lines[NAME - 1]?.trimStart()}`),
      `campaign.yaml-indent@${NAME}:3`,
    ],
  ];

  it.each(CASES)("%s: one error at the tab", (_what, text, expected) => {
    const ds = errorsOf("gotv.yaml", text);
    expect(ds.map(where)).toEqual([expected]);
    expect(ds[0]?.message).toBe("this line is indented with a tab: YAML allows only spaces for indentation");
    expect(ds[0]?.hint).toContain("replace the tab with spaces");
  });

  it("every indented line of the example, indented with tabs instead, gives exactly one error", () => {
    // Comment lines are not indentation: a tab before a comment is allowed.
    const indented = lines.flatMap((l, i) => (/^ +[^\s#]/.test(l) ? [i + 1] : []));
    expect(indented.length).toBeGreaterThan(30);
    for (const n of indented)
      for (const perLevel of [false, true]) {
        const ds = errorsOf("gotv.yaml", retab(n, perLevel));
        expect(ds.map(where), `line ${n}`).toEqual([`campaign.yaml-indent@${n}:1`]);
      }
  });

  it("without the tab the library reports a cascade (what this replaces)", () => {
    const cascade = errorsOf("gotv.yaml", retab(CHANNEL, false).replace("\tchannel", "      channel"));
    expect(cascade.length).toBeGreaterThan(1);
  });

  it("a file indented with tabs throughout: one error at the first tab, counting the others", () => {
    const text = GOTV.replace(/^((?: {2})+)/gm, (spaces) => "\t".repeat(spaces.length / 2));
    const ds = diagnosticsOf("gotv.yaml", text);
    expect(ds.map(where)).toEqual(["campaign.yaml-indent@8:1"]);
    const tabbed = text.split("\n").filter((l) => l.startsWith("\t")).length;
    expect(ds[0]?.message).toBe(
      `this line is indented with a tab, and so are ${tabbed - 1} more lines: YAML allows only spaces for indentation`,
    );
    expect(ds[0]?.hint).toContain("replace the tabs at the start of lines with spaces");
  });

  it("keeps the file's other errors, at their places in the file as written", () => {
    const badEscape = (text: string) =>
      text.replace('at: "2026-12-07T10:00:00-06:00"', 'at: "2026-12-07T10:00:00\\q"');
    const escapeError = `campaign.yaml-escape@${AT}:31`;
    expect(errorsOf("gotv.yaml", badEscape(GOTV)).map(where)).toEqual([escapeError]);
    /** [where the tab is, the file, where the tab error and the escape error are] */
    const tabbed: readonly [string, string, readonly string[]][] = [
      ["on a line above", retab(NAME, false), [`campaign.yaml-indent@${NAME}:1`, escapeError]],
      ["on the key above", retab(SCHEDULE, true), [`campaign.yaml-indent@${SCHEDULE}:1`, escapeError]],
      // Three tabs for six spaces: the escape is three columns further left, as written.
      [
        "on the line of the other error",
        withLine(AT, `\t\t\t${lines[AT - 1]?.trimStart()}`),
        [`campaign.yaml-indent@${AT}:1`, `campaign.yaml-escape@${AT}:28`],
      ],
    ];
    for (const [what, text, expected] of tabbed)
      expect(errorsOf("gotv.yaml", badEscape(text)).map(where), what).toEqual(expected);
  });

  it("a tab inside a block scalar's text, after its indentation, is text", () => {
    const text = withLine(MESSAGE + 1, `      \t${lines[MESSAGE]?.trimStart()}`);
    expect(errorsOf("gotv.yaml", text)).toEqual([]);
  });
});

describe("phone numbers written another way", () => {
  const file = (phone: string) =>
    `version: 1\nprojects:\n  a:\n    id: p1\n    test:\n      contacts:\n        - phone: ${phone}\n`;
  const sender = (phone: string) =>
    `version: 1\nprojects:\n  a:\n    id: p1\n    phone_numbers:\n      - ${phone}\n`;

  /** [written, file, expected `code@line:col`, the E.164 form the hint names] */
  const CASES: readonly [string, string, string, string][] = [
    ["+15035550101 unquoted", file("+15035550101"), "campaign.yaml-unquoted-phone@7:18", "+15035550101"],
    ["15035550101 unquoted", file("15035550101"), "campaign.yaml-unquoted-phone@7:18", "+15035550101"],
    ["5035550101 unquoted", file("5035550101"), "campaign.yaml-unquoted-phone@7:18", "+15035550101"],
    ["(503) 555-0101", file("(503) 555-0101"), "campaign.schema-pattern@7:18", "+15035550101"],
    ['"503-555-0101"', file('"503-555-0101"'), "campaign.schema-pattern@7:18", "+15035550101"],
    ['"1-503-555-0101"', file('"1-503-555-0101"'), "campaign.schema-pattern@7:18", "+15035550101"],
    ["+1 503 555 0101", file("+1 503 555 0101"), "campaign.schema-pattern@7:18", "+15035550101"],
    ['"15035550101" (quoted, no +)', file('"15035550101"'), "campaign.schema-pattern@7:18", "+15035550101"],
    ["a sending number unquoted", sender("15035550101"), "campaign.yaml-unquoted-phone@6:9", "+15035550101"],
  ];

  it.each(CASES.map(([w, text, code, e164]) => [w, e164, text, code] as const))(
    "%s: the hint names %s, and that form passes",
    (_w, e164, text, expected) => {
      const ds = errorsOf("c.yaml", text);
      expect(ds.map(where)).toEqual([expected]);
      expect(ds[0]?.hint).toContain(`write it in quotes, in E.164 form: "${e164}"`);
      const line = ds[0]?.range?.start.line ?? 0;
      const fixed = text
        .split("\n")
        .map((l, i) => (i === line - 1 ? `${l.slice(0, (ds[0]?.range?.start.column ?? 1) - 1)}"${e164}"` : l))
        .join("\n");
      expect(errorsOf("c.yaml", fixed)).toEqual([]);
    },
  );

  it("a number that is no clear phone number gets the form, not a guess", () => {
    const ds = errorsOf("c.yaml", file("5550101"));
    expect(ds.map(where)).toEqual(["campaign.yaml-unquoted-phone@7:18"]);
    expect(ds[0]?.hint).toContain(
      'in E.164 form: + and country code, area code and number, like "+15035550123"',
    );
  });

  it("a number where no phone is written is an unquoted id, not a phone", () => {
    const ds = errorsOf("c.yaml", "version: 1\nprojects:\n  a:\n    id: 12345678\n");
    expect(ds.map(where)).toEqual(["campaign.yaml-unquoted-id@4:9"]);
  });

  it.each([
    ["+15035550101", "+15035550101"],
    ["15035550101", "+15035550101"],
    ["5035550101", "+15035550101"],
    ["(503) 555-0101", "+15035550101"],
    ["+44 20 7946 0958", "+442079460958"],
    ["1035550101", undefined],
    ["5550101", undefined],
    ["call me", undefined],
  ])("e164Suggestion(%s) is %s", (written, expected) => {
    expect(e164Suggestion(written)).toBe(expected);
  });
});
