/**
 * Re-import's text edits (pure): only what differs changes; comments, quoting, flow style and key
 * order stay; defaults that no longer hold for a project move into the projects that inherited them.
 */
import { describe, expect, test } from "vitest";
import type { Project } from "../../src/contract/resources.js";
import { mergeIntoText } from "../../src/import/merge-into-document.js";
import { importProject, type Wanted } from "../../src/import/project-to-yaml.js";
import { CATALOGS, project } from "./records.js";

const ORG: Wanted = {
  kind: "set",
  out: { kind: "scalar", value: "Test Org" },
  semantic: { kind: "ref", ref: "organization", id: "org1" },
};

const FILE = `# Hand-written.
version: 1
organization: Test Org
defaults:
  channel: 10dlc
  brand: Brand One
  campaign: GOTV # our registration
  phone_numbers: ["+15035550101"]
  contact_lists: [Voters]
  suppression_lists: []
  media: []
  opt_out_footer: false

projects:
  one:
    # The reminder.
    id: p1
    name: 'Project One'
    message: "Hi {{first_name|friend}}. Reply STOP to opt out"
    state: draft
    after: [two]

  two:
    id: p2
    name: Project Two
    message: >-
      Second. Reply STOP to opt out
    state: draft
`;

function merge(live: readonly Project[], text = FILE, addresses: readonly string[] = ["one", "two"]) {
  return mergeIntoText(
    text,
    live.map((p, i) => ({ address: addresses[i] ?? `p${i}`, project: importProject(p, CATALOGS) })),
    { organization: ORG, fields: [] },
    CATALOGS,
  );
}

const P1 = project();
const P2 = project({ project_id: "p2", name: "Project Two", message_text: "Second. Reply STOP to opt out" });

describe("mergeIntoText", () => {
  test("nothing differs: the text is unchanged, byte for byte", () => {
    const result = merge([P1, P2]);
    expect(result.text).toBe(FILE);
    expect([...result.changes]).toEqual([
      ["p1", "unchanged"],
      ["p2", "unchanged"],
    ]);
  });

  test("a new message replaces the message only; the comment, quoting and flow style stay", () => {
    const result = merge([
      { ...P1, message_text: "Hi {{first_name|friend}}. Polls close at 8. Reply STOP to opt out" },
      P2,
    ]);
    expect(result.text).toBe(
      FILE.replace(
        '    message: "Hi {{first_name|friend}}. Reply STOP to opt out"',
        "    message: >-\n      Hi {{first_name|friend}}. Polls close at 8. Reply STOP to opt out",
      ),
    );
    expect(result.changes.get("p1")).toBe("updated");
  });

  test("a changed name keeps its line's other bytes; a list unlike the inherited default becomes the project's own", () => {
    const result = merge([
      { ...P1, name: "Renamed" },
      { ...P2, phone_number_ids: ["n1"], contact_list_ids: ["l1", "l4"] },
    ]);
    expect(result.text).toBe(
      FILE.replace("    name: 'Project One'", "    name: Renamed").replace(
        "    message: >-\n      Second.",
        "    contact_lists:\n      - Voters\n      - l4 # by id: l1: the name is another contact list's id\n    message: >-\n      Second.",
      ),
    );
  });

  test("a key the defaults give but the live project lacks leaves the defaults and moves into the others", () => {
    const tollFree = { ...P2, campaign_id: "" };
    const result = merge([P1, tollFree]);
    expect(result.text).toBe(
      FILE.replace("  campaign: GOTV # our registration\n", "").replace(
        "    name: 'Project One'\n",
        "    name: 'Project One'\n    campaign: GOTV\n",
      ),
    );
  });

  test("a project not in the file is appended after a blank line, keys the defaults say left out", () => {
    const result = merge([P1, P2, { ...P1, project_id: "p3", name: "Three", status: "ready" }], FILE, [
      "one",
      "two",
      "three",
    ]);
    expect(result.text).toBe(
      `${FILE}\n  three:\n    id: p3\n    name: Three\n    message: >-\n      Hi {{first_name|friend}}. Reply STOP to opt out\n    state: tested\n`,
    );
    expect(result.changes.get("p3")).toBe("added");
  });

  test("live paused with a reason: state, schedule and pause are inserted in writing order", () => {
    const paused = {
      ...P1,
      status: "paused" as const,
      pause_reason: "hold",
      scheduled_at: "2026-12-03T15:00:00Z",
      scheduled_timezone: "America/Chicago",
    };
    const result = merge([paused, P2]);
    expect(result.text).toBe(
      FILE.replace(
        "    state: draft\n    after: [two]\n",
        "    state: paused\n    schedule:\n      at: 2026-12-03T09:00:00-06:00\n      timezone: America/Chicago\n    pause:\n      reason: hold\n    after: [two]\n",
      ),
    );
  });

  test("an own flow list stays a flow list", () => {
    const text = FILE.replace(
      "    after: [two]\n",
      "    after: [two]\n    suppression_lists: [ ] # none yet\n",
    );
    const result = merge([{ ...P1, suppression_list_ids: ["l1"] }, P2], text);
    expect(result.text).toBe(
      text.replace("suppression_lists: [ ] # none yet", "suppression_lists: [Voters] # none yet"),
    );
  });

  test("a project written as a flow map, and a file without projects, are written in full", () => {
    const flow = "version: 1\norganization: Test Org\nprojects:\n  one: { id: p1, name: Old }\n";
    const result = merge([P1], flow, ["one"]);
    expect(result.text).toContain("  one:\n    id: p1\n    name: Project One\n    channel: 10dlc\n");
    expect(result.text).toContain("    message: >-\n      Hi {{first_name|friend}}. Reply STOP to opt out\n");
    const bare = merge([P1], "version: 1\n", ["one"]);
    expect(bare.text.startsWith("version: 1\norganization: Test Org\nprojects:\n  one:\n    id: p1\n")).toBe(
      true,
    );
    expect(bare.text).toContain("    message: >-\n");
  });
});
