/**
 * The language server's incremental check (cli/lsp/incremental-check.ts) can never drift from
 * validate's: along a series of edits of one document (a tag misspelt and put back in a message,
 * lines inserted and deleted above a project, an `after:` made unknown, an id made a duplicate, a
 * key misspelt, YAML broken and fixed, a project added, `defaults` changed), the findings checked
 * with the server's memory equal the document checked whole at every step (the whole check is
 * validate's, test/cli/lsp-corpus.test.ts), alone and in a workspace folder with another file and
 * a policy. And the edits of one project are checked incrementally, the others whole.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { loadPolicy } from "../../../cli/adapters/policy-file.js";
import {
  type CheckMemory,
  checkDocument,
  checkMemory,
  type DocumentCheckContext,
  type Workspace,
} from "../../../cli/lsp/check-document.js";
import { checkIncrementally, checkWhole, jobKeyOf } from "../../../cli/lsp/incremental-check.js";
import { type ProjectSplit, splitProjects } from "../../../cli/lsp/project-chunks.js";
import type { ValidateJob } from "../../../cli/validate/validate-check.js";
import { decodeCampaignFile } from "../../../src/campaign/decode.js";
import type { FileCheck } from "../../../src/campaign/file-check.js";
import type { CampaignFile } from "../../../src/campaign/model.js";

const HEAD = `# yaml-language-server: $schema=../schemas/campaign.schema.json
version: 1
organization: Riverside Democrats
merge_defaults:
  first_name: friend
fields: [polling_place]
defaults:
  channel: 10dlc
  brand: Riverside Democrats
  campaign: GOTV 2026
  phone_numbers: ["+15035550101", "+15035550102"]
  contact_lists: [Ward 3 Likely Voters]
  test:
    contacts:
      - phone: "+15035550150"
projects:
`;

function project(n: number): string {
  const after = n % 3 === 0 ? "" : `    after: [p-${n - 1}]\n`;
  return `  p-${n}:
    id: 9b${String(n).padStart(6, "0")}-0000-4000-8000-${String(n).padStart(12, "0")}
    name: Ward ${n} turnout
    # the reminder
    message: "Hi {{first_name|friend}}, Ward ${n} votes Tuesday at {{polling_place|your polling place}}. Reply STOP to opt out"
    state: scheduled
    schedule:
      at: "2026-12-0${1 + (n % 8)}T${n % 2 === 0 ? "10" : "22"}:00:00-06:00"
      timezone: America/Chicago
${after}
`;
}

const FIRST = HEAD + [1, 2, 3, 4, 5, 6].map(project).join("");
const OTHER = `${HEAD}  q-1:
    id: 9c000000-0000-4000-8000-000000000001
    message: "Hi {{first_name}}, see you Tuesday. Reply STOP to opt out"
    state: scheduled
    schedule:
      at: "2026-12-02T10:00:00-06:00"
      timezone: America/Chicago
    after: [p-2]
`;

/** Each edit: a name and how it changes the text. */
const EDITS: readonly (readonly [string, (text: string) => string])[] = [
  ["misspell a tag in p-4's message", (t) => replaceIn(t, "p-4", "{{first_name|", "{{frist_name|")],
  ["put it back", (t) => replaceIn(t, "p-4", "{{frist_name|", "{{first_name|")],
  [
    "insert lines above p-3 (in p-2)",
    (t) => replaceIn(t, "p-2", "    # the reminder\n", "    # one\n    # two\n\n"),
  ],
  ["an emoji in p-5's message", (t) => replaceIn(t, "p-5", "Tuesday", "Tuesday 🗳️")],
  ["delete the lines again", (t) => replaceIn(t, "p-2", "    # one\n    # two\n\n", "    # the reminder\n")],
  ["no opt-out wording in p-1", (t) => replaceIn(t, "p-1", ". Reply STOP to opt out", "")],
  ["an unknown `after:` in p-5", (t) => replaceIn(t, "p-5", "after: [p-4]", "after: [p-44]")],
  [
    "p-6 takes p-2's id",
    (t) =>
      replaceIn(t, "p-6", "9b000006-0000-4000-8000-000000000006", "9b000002-0000-4000-8000-000000000002"),
  ],
  [
    "give it back",
    (t) =>
      replaceIn(t, "p-6", "9b000002-0000-4000-8000-000000000002", "9b000006-0000-4000-8000-000000000006"),
  ],
  ["misspell a key in p-3", (t) => replaceIn(t, "p-3", "    schedule:\n", "    shedule:\n")],
  [
    "a tag misspelt in p-4 while p-3's key is wrong",
    (t) => replaceIn(t, "p-4", "{{first_name|", "{{frist_name|"),
  ],
  ["p-4's tag put back", (t) => replaceIn(t, "p-4", "{{frist_name|", "{{first_name|")],
  ["fix the key", (t) => replaceIn(t, "p-3", "    shedule:\n", "    schedule:\n")],
  ["break the YAML (an unclosed quote)", (t) => replaceIn(t, "p-4", 'message: "Hi', 'message: "Hi \\"')],
  ["an unclosed quote for good", (t) => replaceIn(t, "p-4", 'message: "Hi \\"', "message: 'Hi")],
  ["fix the YAML", (t) => replaceIn(t, "p-4", "message: 'Hi", 'message: "Hi')],
  ["misspell the tag again", (t) => replaceIn(t, "p-4", "{{first_name|", "{{frist_name|")],
  ["add a project", (t) => t + project(7)],
  ["change p-7's schedule to the past", (t) => replaceIn(t, "p-7", '"2026-12-08T', '"2026-10-08T')],
  ["change `defaults`", (t) => t.replace("campaign: GOTV 2026", "campaign: GOTV 2027")],
  ["misspell p-1's key as p-2 (a duplicate)", (t) => t.replace("  p-1:\n", "  p-2:\n")],
  ["and back", (t) => t.replace("  p-2:\n    id: 9b000001", "  p-1:\n    id: 9b000001")],
  ["p-7 sends within a day of the clock", (t) => replaceIn(t, "p-7", '"2026-10-08T', '"2026-11-01T')],
  ["a tag misspelt in p-2", (t) => replaceIn(t, "p-2", "{{first_name|", "{{frist_name|")],
  ["p-7 sends next year", (t) => replaceIn(t, "p-7", '"2026-11-01T', '"2027-11-01T')],
  ["the tag put back in p-2", (t) => replaceIn(t, "p-2", "{{frist_name|", "{{first_name|")],
  ["no final line break", (t) => t.trimEnd()],
  ["a tag misspelt in the last project", (t) => replaceIn(t, "p-7", "{{first_name|", "{{frist_name|")],
  ["a line added to the last project", (t) => `${t}\n    # last`],
  ["a tab in a message", (t) => replaceIn(t, "p-6", "votes Tuesday", "votes\tTuesday")],
];

/** `text` with `from` replaced by `to` inside the entry of project `address` (which must hold it). */
function replaceIn(text: string, address: string, from: string, to: string): string {
  const start = text.indexOf(`\n  ${address}:\n`);
  const next = text.indexOf("\n  p-", start + 1);
  const end = next < 0 ? text.length : next;
  const at = text.indexOf(from, start);
  if (start < 0 || at < 0 || at >= end) throw new Error(`test bug: ${from} not in ${address}`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

const folder = mkdtempSync(join(tmpdir(), "campaignctl-lsp-incremental-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
copyFileSync(
  new URL("../../../examples/campaignctl.policy.yaml", import.meta.url),
  join(folder, "campaignctl.policy.yaml"),
);
const path = join(folder, "a.yaml");
writeFileSync(path, FIRST);
writeFileSync(join(folder, "b.yaml"), OTHER);
const context: DocumentCheckContext = {
  flags: {},
  cwd: folder,
  now: new Date("2026-11-01T00:00:00Z"),
  clock: "--now",
};

/** The other file's check and the folder's reads, kept across checks as the server keeps them. */
const cache = new Map();
const reads = new Map();

/** The workspace with `text` in the document's buffer; `fresh`: nothing kept from earlier checks. */
function workspaceFor(text: string, fresh = false): Workspace {
  return fresh
    ? { folder, buffers: new Map([[path, text]]), cache: new Map(), reads: new Map() }
    : { folder, buffers: new Map([[path, text]]), cache, reads };
}

describe("the incremental check equals the whole check after every edit", () => {
  for (const [inWorkspace, clockMoves] of [
    [false, false],
    [true, false],
    [true, true],
  ] as const) {
    const name = `${inWorkspace ? "in a workspace folder with another file" : "the document alone"}${clockMoves ? ", the clock moving a minute at each edit" : ""}`;
    test(name, () => {
      const memory: CheckMemory = checkMemory();
      let text = FIRST;
      let now = context.now.getTime();
      // The whole check of a moving clock keeps nothing (the other file's check is kept by content).
      const check = (m?: CheckMemory) =>
        checkDocument(
          path,
          text,
          clockMoves ? { flags: {}, cwd: folder, now: new Date(now) } : context,
          inWorkspace ? workspaceFor(text, clockMoves && m !== memory) : undefined,
          m,
        );
      expect(check(memory)).toEqual(check());
      const codes = new Set<string>();
      for (const [name, edit] of EDITS) {
        text = edit(text);
        if (clockMoves) now += 60_000;
        const wholeBefore = memory.counts.whole;
        const mine = check(memory);
        // An edit checked whole with the memory is the whole check itself (nothing reused): made once.
        const whole =
          memory.counts.whole > wholeBefore ? mine : check({ ...checkMemory(), looks: memory.looks });
        for (const d of whole) codes.add(d.code);
        expect(mine, name).toEqual(whole);
      }
      // Both ways were taken along the series.
      expect(memory.counts.whole).toBeGreaterThan(0);
      expect(memory.counts.incremental).toBeGreaterThan(EDITS.length / 3);
      // The series reaches the findings it is about.
      for (const code of [
        "message.unknown-tag",
        "lint.non-gsm-character",
        "lint.opt-out-missing",
        "policy.require-opt-out-language",
        "campaign.after-unknown",
        "campaign.duplicate-id",
        "campaign.unknown-key",
        "campaign.unclosed-quote",
        "campaign.duplicate-key",
      ])
        expect([...codes], code).toContain(code);
    });
  }
});

describe("which edits are checked incrementally", () => {
  const policy = loadPolicy({}, [path], folder);
  const job: ValidateJob = {
    now: context.now.getTime(),
    clock: "--now",
    policy: policy.ok ? policy.policy : null,
  };
  const key = jobKeyOf(job);
  const fileOf = (text: string): CampaignFile => {
    const file = decodeCampaignFile(path, Buffer.from(text, "utf8")).file;
    if (file === undefined) throw new Error("test bug: the text does not decode");
    return file;
  };
  // The whole checks of the texts the edits start from, made once.
  const wholes = new Map<string, ReturnType<typeof checkWhole>>();
  const wholeOf = (text: string) => {
    const known = wholes.get(text) ?? checkWhole(fileOf(text), job, key);
    wholes.set(text, known);
    return known;
  };
  const step = (before: string, after: string): FileCheck | undefined => {
    const split = splitProjects(after);
    if (split === undefined) return undefined;
    return checkIncrementally(wholeOf(before), fileOf(after), split, job, key, new Map())?.check;
  };

  test.each([
    ["a tag misspelt in a message", (t: string) => replaceIn(t, "p-4", "{{first_name|", "{{frist_name|")],
    [
      "lines inserted in a project",
      (t: string) => replaceIn(t, "p-2", "    # the reminder\n", "    # one\n\n"),
    ],
    ["an unknown `after:`", (t: string) => replaceIn(t, "p-5", "after: [p-4]", "after: [p-44]")],
  ])("%s: incrementally, and as the whole check", (_, edit) => {
    const after = edit(FIRST);
    const checked = step(FIRST, after);
    expect(checked).toBeDefined();
    expect(checked?.diagnostics.length).toBe(checkWhole(fileOf(after), job, key).check.diagnostics.length);
  });

  test("a file without a final line break: its last project incrementally", () => {
    const before = FIRST.trimEnd();
    const after = replaceIn(before, "p-6", "{{first_name|", "{{frist_name|");
    const checked = step(before, after);
    const whole = [...checkWhole(fileOf(after), job, key).check.diagnostics];
    expect(checked?.diagnostics).toEqual(expect.arrayContaining(whole));
    expect(checked?.diagnostics.length).toBe(whole.length);
  });

  test("a tag misspelt a minute later (no `--now`): incrementally; a schedule near the clock: whole", () => {
    const later: ValidateJob = { ...job, now: (job.now as number) + 60_000 };
    const edit = (t: string) => replaceIn(t, "p-4", "{{first_name|", "{{frist_name|");
    const again = (before: string, after: string) =>
      checkIncrementally(
        wholeOf(before),
        fileOf(after),
        splitProjects(after) as ProjectSplit,
        later,
        key,
        new Map(),
      );
    expect(again(FIRST, edit(FIRST))).toBeDefined();
    const near = replaceIn(FIRST, "p-6", '"2026-12-07T', '"2026-11-01T');
    expect(again(near, edit(near))).toBeUndefined();
    // Flow style too.
    const flow = replaceIn(
      FIRST,
      "p-6",
      '    schedule:\n      at: "2026-12-07T10:00:00-06:00"\n      timezone: America/Chicago\n',
      '    schedule: {timezone: America/Chicago, at: "2026-11-01T10:00:00-06:00"}\n',
    );
    expect(again(flow, edit(flow))).toBeUndefined();
    const flowLater = flow.replace('at: "2026-11-01T', 'at: "2027-11-01T');
    expect(again(flowLater, edit(flowLater))).toBeDefined();
  });

  test.each([
    [
      "a key misspelt (schema errors)",
      (t: string) => replaceIn(t, "p-3", "    schedule:\n", "    shedule:\n"),
    ],
    ["an unclosed quote", (t: string) => replaceIn(t, "p-4", 'message: "Hi', "message: 'Hi")],
    ["`defaults` changed", (t: string) => t.replace("campaign: GOTV 2026", "campaign: GOTV 2027")],
    ["a project added", (t: string) => t + project(7)],
    [
      "two projects changed",
      (t: string) => replaceIn(replaceIn(t, "p-1", "Ward 1", "Ward 9"), "p-2", "Ward 2", "Ward 9"),
    ],
    ["an anchor", (t: string) => replaceIn(t, "p-2", "    state: scheduled", "    state: &s scheduled")],
  ])("%s: checked whole", (_, edit) => {
    expect(step(FIRST, edit(FIRST))).toBeUndefined();
  });

  test("a tag misspelt while another project has a schema error: checked whole", () => {
    const broken = replaceIn(FIRST, "p-3", "    schedule:\n", "    shedule:\n");
    expect(step(broken, replaceIn(broken, "p-4", "{{first_name|", "{{frist_name|"))).toBeUndefined();
  });
});

describe("the cut into projects", () => {
  test("head, entries and tail make the text; each entry knows its offset and line", () => {
    const text = `${FIRST}# the end\nfields: [x]\n`;
    const split = splitProjects(text) as ProjectSplit;
    expect(split.head + split.chunks.map((c) => c.text).join("") + split.tail).toBe(text);
    expect(split.chunks.map((c) => c.address)).toEqual(["p-1", "p-2", "p-3", "p-4", "p-5", "p-6"]);
    const lines = text.split("\n");
    for (const chunk of split.chunks) {
      expect(text.slice(chunk.offset).startsWith(`  ${chunk.address}:\n`)).toBe(true);
      expect(lines[chunk.line]).toBe(`  ${chunk.address}:`);
      expect(chunk.text.split("\n").length - 1).toBe(chunk.lines);
    }
    expect(split.tail).toBe("fields: [x]\n");
    expect(lines[split.tailLine]).toBe("fields: [x]");
    expect(text.slice(split.tailOffset)).toBe(split.tail);
  });

  test.each([
    ["a tab", FIRST.replace("Ward 1 turnout", "Ward 1\tturnout")],
    ["an alias", FIRST.replace("state: scheduled", "state: *s")],
    ["a flow map of projects", `${HEAD.replace("projects:\n", "projects: {}\n")}`],
    ["a quoted project key", FIRST.replace("  p-1:\n", '  "p-1":\n')],
    ["a key at one space", FIRST.replace("    name: Ward 1", " name: Ward 1")],
    ["templates", `${FIRST}templates: {}\n`],
    ["a capacity block", `${FIRST}capacity: {}\n`],
    ["a second document", `${FIRST}---\n`],
  ])("no cut with %s", (_, text) => {
    expect(splitProjects(text)).toBeUndefined();
  });
});
