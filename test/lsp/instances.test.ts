/**
 * An edit of one template instance is checked alone (cli/lsp/incremental-check.ts) with the same
 * findings as the file checked whole, also where the findings across projects are checked again
 * and point at instances after the edited one (their origins moved with the edit).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { checkDocument, checkMemory, type DocumentCheckContext } from "../../cli/lsp/check-document.js";
import { splitProjects } from "../../cli/lsp/project-chunks.js";
import { templatesText } from "./corpora.js";

const folder = mkdtempSync(join(tmpdir(), "campaignctl-lsp-instances-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const path = join(folder, "counties.yaml");
const context: DocumentCheckContext = { flags: {}, cwd: folder, now: new Date("2026-11-01T00:00:00Z") };

test("the instances of a template file are its entries", () => {
  const text = templatesText(4);
  const split = splitProjects(text);
  expect(split?.kind).toBe("instances");
  expect(split?.chunks.map((c) => c.address)).toEqual(["county-01", "county-02", "county-03", "county-04"]);
  expect(`${split?.head}${split?.chunks.map((c) => c.text).join("")}${split?.tail}`).toBe(text);
  // A second template with instances, or projects beside the templates: no cut.
  expect(splitProjects(`${text}projects:\n  p-1:\n    id: x\n`)).toBeUndefined();
  expect(
    splitProjects(
      text.replace("templates:\n", "templates:\n  other:\n    instances:\n      a-1:\n        id: x\n"),
    ),
  ).toBeUndefined();
});

test("an instance's id and length changed while two later instances share an id: incrementally, as whole", () => {
  const first = templatesText(9).replace(
    "id: 9a000000-0000-4000-8000-000000000008",
    "id: 9a000000-0000-4000-8000-000000000009",
  );
  const edited = first.replace(
    "id: 9a000000-0000-4000-8000-000000000002\n",
    "id: 9a000000-0000-4000-8000-000000000022\n        contact_lists: [Spanish Speakers, Likely Voters]\n",
  );
  const memory = checkMemory();
  checkDocument(path, first, context, undefined, memory);
  const incremental = checkDocument(path, edited, context, undefined, memory);
  expect(memory.counts).toEqual({ incremental: 1, whole: 0 });
  const whole = checkDocument(path, edited, context);
  expect(whole.map((d) => d.code)).toContain("campaign.duplicate-id");
  expect(incremental).toEqual(whole);
  // What the checks across files read of each instance (where it is written) moved with the edit.
  const fresh = checkMemory();
  checkDocument(path, edited, context, undefined, fresh);
  expect(memory.documents.get(path)?.own.check.projects).toEqual(
    fresh.documents.get(path)?.own.check.projects,
  );
});

test("an instance edited to bring others in with a merge key: the error validate gives, never a silent drop", () => {
  const first = templatesText(4);
  const edited = first.replace(
    "id: 9a000000-0000-4000-8000-000000000002\n",
    "id: 9a000000-0000-4000-8000-000000000002\n      !!merge <<:\n        stop-1: {organization: X, id: 9a000000-0000-4000-8000-000000000099, language: en, state: paused}\n",
  );
  expect(edited).not.toBe(first);
  const memory = checkMemory();
  checkDocument(path, first, context, undefined, memory);
  const incremental = checkDocument(path, edited, context, undefined, memory);
  const whole = checkDocument(path, edited, context);
  expect(incremental).toEqual(whole);
  expect(whole.map((d) => d.code)).toEqual(["campaign.yaml-merge-key"]);
});
