/**
 * Completion in a campaign file (cli/lsp/completion.ts, cli/lsp/yaml-path.ts): keys from the
 * schema at the cursor's place, on text that does not parse yet, and `after:` addresses (the
 * project's own left out), in flow and block lists.
 */
import { describe, expect, test } from "vitest";
import { completionsAt } from "../../../cli/lsp/completion.js";
import { cursorSpot } from "../../../cli/lsp/yaml-path.js";
import { campaignSchema } from "../../../src/campaign/schema.js";

const FILE = `version: 1
organization: Riverside Democrats
projects:
  gotv-reminder:
    id: p1
    sch
    test:
      contacts:
        - phone: "+15035550150"
          mer
  gotv-followup:
    id: p2
    after: [gotv-
  other:
    after:
      - go
`;

function at(text: string, needle: string): { line: number; character: number } {
  const lines = text.split("\n");
  const line = lines.findIndex((l) => l.endsWith(needle));
  return { line, character: (lines[line] ?? "").length };
}

const sources = {
  schema: campaignSchema(),
  addresses: ["gotv-reminder", "gotv-followup", "other", "gotv-elsewhere"],
};

describe("cursorSpot", () => {
  test("reads the path from indentation, list items included", () => {
    const sch = at(FILE, "    sch");
    expect(cursorSpot(FILE, sch.line, sch.character)).toEqual({
      kind: "key",
      path: ["projects", "gotv-reminder"],
      prefix: "sch",
    });
    const mer = at(FILE, "mer");
    expect(cursorSpot(FILE, mer.line, mer.character)).toEqual({
      kind: "key",
      path: ["projects", "gotv-reminder", "test", "contacts", "[]"],
      prefix: "mer",
    });
  });
});

describe("completionsAt", () => {
  test("offers the schema's keys of a project, with title and description", () => {
    const sch = at(FILE, "    sch");
    const items = completionsAt(FILE, sch.line, sch.character, sources);
    expect(items.map((i) => i.label)).toEqual(["schedule"]);
    expect(items[0]?.insertText).toBe("schedule: ");
    expect(typeof items[0]?.documentation).toBe("string");
    const top = completionsAt("version: 1\n", 1, 0, sources).map((i) => i.label);
    expect(top).toEqual([
      "version",
      "organization",
      "merge_defaults",
      "fields",
      "email_lists",
      "email_campaigns",
      "experiments",
      "capacity",
      "defaults",
      "projects",
      "templates",
    ]);
    const contact = at(FILE, "mer");
    expect(completionsAt(FILE, contact.line, contact.character, sources).map((i) => i.label)).toEqual([
      "merge_values",
    ]);
  });

  test("offers the values the schema lists: states, channels, time zones", () => {
    const text =
      "version: 1\nprojects:\n  a:\n    state: \n    channel: \n    schedule:\n      timezone: America/\n";
    expect(completionsAt(text, 3, 11, sources).map((i) => i.label)).toEqual([
      "draft",
      "tested",
      "scheduled",
      "paused",
    ]);
    expect(completionsAt(text, 4, 13, sources).map((i) => i.label)).toContain("10dlc");
    const zones = completionsAt(text, 6, 24, sources).map((i) => i.label);
    expect(zones.length).toBeGreaterThan(0);
    expect(zones.every((z) => z.startsWith("America/"))).toBe(true);
    expect(completionsAt(text, 6, 24, sources)[0]?.textEdit).toEqual({
      range: { start: { line: 6, character: 16 }, end: { line: 6, character: 24 } },
      newText: zones[0],
    });
  });

  test("defaults offer every project key but id", () => {
    const labels = completionsAt("version: 1\ndefaults:\n  \n", 2, 2, sources).map((i) => i.label);
    expect(labels).toContain("after");
    expect(labels).toContain("schedule");
    expect(labels).not.toContain("id");
  });

  test("after: offers addresses across files, not the project's own", () => {
    const flow = at(FILE, "[gotv-");
    expect(completionsAt(FILE, flow.line, flow.character, sources).map((i) => i.label)).toEqual([
      "gotv-elsewhere",
      "gotv-reminder",
    ]);
    const block = at(FILE, "- go");
    expect(completionsAt(FILE, block.line, block.character, sources).map((i) => i.label)).toEqual([
      "gotv-elsewhere",
      "gotv-followup",
      "gotv-reminder",
    ]);
  });
});

describe("a key-shaped name the snapshot holds", () => {
  test("is never offered: inserted, it would put a key into the file (campaign.api-key-in-file)", () => {
    const text = `version: 1
organization: Riverside Democrats
projects:
  gotv-reminder:
    contact_lists: [
`;
    const line = 4;
    const character = "    contact_lists: [".length;
    const withNames = {
      ...sources,
      names: () => [
        { name: "Ward 3 Likely Voters", detail: "contact list · pc_live_Detail4Gh7Jk2Lm" },
        { name: "PC_LIVE_ListNamed8Qw3Er6Ty", detail: "contact list" },
      ],
      mergeFields: new Map([
        ["first_name", "standard"],
        ["pc_live_FieldNamed5Zx8Cv1", "custom field"],
      ]),
    };
    const items = completionsAt(text, line, character, withNames);
    expect(items.map((i) => i.label)).toEqual(["Ward 3 Likely Voters"]);
    expect(JSON.stringify(items).toLowerCase()).not.toContain("live_");
    const tag = `${text}    message: "Hi {{`;
    const tagItems = completionsAt(tag, 5, '    message: "Hi {{'.length, withNames);
    expect(tagItems.map((i) => i.label)).toEqual(["first_name"]);
  });
});
