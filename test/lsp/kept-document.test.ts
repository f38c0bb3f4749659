/**
 * Hover and completion read a checked document entry by entry (cli/lsp/kept-document.ts) instead
 * of parsing it whole, with the same answers: at every line of several projects (the first, a
 * middle one, the last, one without a final line break) and of the head (a message in `defaults`
 * that the first project without its own takes), the hover from the kept cut equals the hover on
 * the whole text, range included, and was read from one entry; the file's organization, fields
 * and merge defaults read from the head and tail equal the whole text's. The cut is not kept for
 * a text the last check was not of, a file with a schema error, or a template file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { checkDocument, checkMemory, type DocumentCheckContext } from "../../cli/lsp/check-document.js";
import { documentFacts } from "../../cli/lsp/document-facts.js";
import { type HoverSources, hoverAt } from "../../cli/lsp/hover.js";
import { factsOf, hoverInDocument, keptCut } from "../../cli/lsp/kept-document.js";
import type { SnapshotOrganization } from "../../src/plan/snapshot.js";
import { projectsText, templatesText } from "./corpora.js";

const folder = mkdtempSync(join(tmpdir(), "campaignctl-lsp-kept-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const path = join(folder, "edited.yaml");
const context: DocumentCheckContext = {
  flags: {},
  cwd: folder,
  now: new Date("2026-11-01T00:00:00Z"),
  clock: "--now",
};

const ORGANIZATION: SnapshotOrganization = {
  id: "org-1",
  name: "Riverside Democrats",
  contact_lists: [{ id: "cl-1", name: "Ward 3 Likely Voters" }],
  phone_numbers: [],
  brands: [{ id: "b-1", name: "Riverside Democrats" }],
  registrations: [],
  tracking_domains: [],
  merge_fields: ["first_name", "polling_place"],
  projects: [],
};

/** 17 projects (more than the head's 16 tries), the first without a message of its own: it takes `defaults`'. */
const TEXT = projectsText("p", 17)
  .replace(
    "\ndefaults:\n",
    '\ndefaults:\n  message: "Hello {{first_name}} from the defaults. Reply STOP to opt out"\n',
  )
  .replace(/( {2}p-1:\n(?: {4}.*\n)*?) {4}message: .*\n/, "$1")
  .trimEnd();

/** A few offsets on every line of `text` from `from` to `to`: its start, its middle, its end. */
function offsetsIn(text: string, from: number, to: number): number[] {
  const out: number[] = [];
  let at = from;
  while (at < to) {
    const end = text.indexOf("\n", at);
    const stop = end < 0 ? text.length : end;
    out.push(at, at + Math.floor((stop - at) / 2), stop);
    at = stop + 1;
  }
  return out;
}

describe("hover and completion on a checked document read it entry by entry", () => {
  test("every line of four projects and of the head: the same hover as the whole text's, from one entry", () => {
    const memory = checkMemory();
    checkDocument(path, TEXT, context, undefined, memory);
    const cut = keptCut(memory, path, TEXT);
    expect(cut?.chunks.length).toBe(17);
    if (cut === undefined) return;
    const entry = (n: number) => cut.chunks[n - 1] as { offset: number; text: string };
    const offsets = [
      ...offsetsIn(TEXT, 0, entry(1).offset),
      ...[1, 2, 9, 17].flatMap((n) =>
        offsetsIn(TEXT, entry(n).offset, entry(n).offset + entry(n).text.length),
      ),
    ];
    const explained = new Set<string>();
    const sources: HoverSources = { organization: ORGANIZATION };
    for (const offset of offsets) {
      const kept = hoverInDocument(path, TEXT, offset, sources, cut);
      const whole = hoverAt(path, TEXT, offset, sources);
      expect(kept.hover, `at ${offset}: ${TEXT.slice(offset, offset + 30)}`).toEqual(whole);
      // A place in the head no project explains may be read whole (a key of `defaults`, not its value).
      if (offset >= entry(1).offset || whole !== undefined)
        expect(kept.read, `at ${offset}: ${JSON.stringify(TEXT.slice(offset - 10, offset + 20))}`).toBe(
          "entry",
        );
      if (whole !== undefined) explained.add(whole.markdown.split("\n")[0] as string);
    }
    // The offsets reach a message (one of `defaults`), a schedule and the names.
    expect([...explained].join("\n")).toContain("**p-1**: what a contact receives");
    expect([...explained].join("\n")).toContain("**p-17** sends at:");
    expect([...explained].join("\n")).toContain("`Ward 3 Likely Voters`:");
    expect(factsOf(TEXT, cut)).toEqual(documentFacts(TEXT));
    expect(factsOf(TEXT, cut).organization).toBe("Riverside Democrats");
  });

  test("no project takes a value of the head: the whole text answers, as before", () => {
    const text = TEXT.replace("  p-2:\n", '  p-2:\n    message: "Hi. Reply STOP to opt out"\n').replace(
      /( {2}p-1:\n)/,
      '$1    message: "Hi. Reply STOP to opt out"\n',
    );
    const memory = checkMemory();
    checkDocument(path, text, context, undefined, memory);
    const cut = keptCut(memory, path, text);
    const offset = text.indexOf("from the defaults");
    const kept = hoverInDocument(path, text, offset, {}, cut);
    expect(kept).toEqual({ hover: hoverAt(path, text, offset, {}), read: "whole" });
  });

  test("the cut is kept only for the text last checked, with every project valid, of `projects:`", () => {
    const memory = checkMemory();
    checkDocument(path, TEXT, context, undefined, memory);
    expect(keptCut(memory, path, `${TEXT}\n`)).toBeUndefined();
    const broken = TEXT.replace("    state: scheduled\n", "    state: schedule\n");
    checkDocument(path, broken, context, undefined, memory);
    expect(keptCut(memory, path, broken)).toBeUndefined();
    const templates = templatesText(3);
    checkDocument(path, templates, context, undefined, memory);
    expect(keptCut(memory, path, templates)).toBeUndefined();
    const offset = templates.indexOf("Courthouse");
    expect(hoverInDocument(path, templates, offset, {}, undefined).read).toBe("whole");
  });
});
