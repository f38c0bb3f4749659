/**
 * The document checks of test/helpers/documents.ts keep the texts they found valid (so a journal's
 * lines are not checked again at each apply of a test): what was kept must never let a bad text
 * through, under the same schema or another.
 */
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkCliDocuments, checkJournals, checkLine } from "./documents.js";

const VERSION = `${JSON.stringify({
  format_version: 1,
  version: "0.1.0",
  node: "20.20.2",
  platform: "linux",
  arch: "x64",
  api_contract: "1.4.0",
})}\n`;

describe("checkCliDocuments after a valid text was kept", () => {
  it("passes the same valid text again", () => {
    checkCliDocuments(["version", "--json"], VERSION, tmpdir());
    expect(() => checkCliDocuments(["version", "--json"], VERSION, tmpdir())).not.toThrow();
  });

  it("fails an invalid text every time it is checked", () => {
    const bad = VERSION.replace('"format_version":1', '"format_version":2');
    for (let i = 0; i < 2; i++)
      expect(() => checkCliDocuments(["version", "--json"], bad, tmpdir())).toThrow(
        /not a valid version-result/,
      );
  });

  it("does not take a text valid for one schema as valid for another", () => {
    checkCliDocuments(["version", "--json"], VERSION, tmpdir());
    expect(() => checkCliDocuments(["validate", "--json"], VERSION, tmpdir())).toThrow(
      /not a valid validate-result/,
    );
  });

  it("fails a long invalid text (kept by its hash when valid) every time", () => {
    const long = `${VERSION}${" ".repeat(5000)}`;
    checkCliDocuments(["version", "--json"], long, tmpdir());
    const bad = `${VERSION.replace('"arch"', '"extra":1,"arch"')}${" ".repeat(5000)}`;
    for (let i = 0; i < 2; i++)
      expect(() => checkCliDocuments(["version", "--json"], bad, tmpdir())).toThrow(
        /not a valid version-result/,
      );
  });
});

describe("checkJournals after its lines were kept", () => {
  it("checks a line added since, and fails a bad line at each check", () => {
    const cwd = mkdtempSync(join(tmpdir(), "documents-"));
    const dir = join(cwd, ".campaignctl", "journal");
    mkdirSync(dir, { recursive: true });
    // A line valid as JSON but not as a journal event.
    writeFileSync(join(dir, "a.jsonl"), "");
    checkJournals(cwd);
    appendFileSync(join(dir, "a.jsonl"), '{"not":"an event"}\n');
    for (let i = 0; i < 2; i++) expect(() => checkJournals(cwd)).toThrow(/line 1 of a\.jsonl/);
  });
});

describe("checkLine (an apply event as the journal writes it)", () => {
  const line = JSON.stringify({
    type: "run-start",
    at: "2026-11-01T00:00:00.000Z",
    actions: 2,
    sendable: 1,
    parallelism: 4,
    wait_for_approval_ms: null,
  });

  it("passes a valid line again, and fails an invalid one every time", () => {
    checkLine("a journal event", "journal-event", line);
    expect(() => checkLine("a journal event", "journal-event", line)).not.toThrow();
    const bad = line.replace('"parallelism":4', '"parallelism":-4');
    for (let i = 0; i < 2; i++)
      expect(() => checkLine("a journal event", "journal-event", bad)).toThrow(
        /a journal event is not a valid journal-event/,
      );
  });

  it("does not take a line valid for one schema as valid for another", () => {
    checkLine("a journal event", "journal-event", line);
    expect(() => checkLine("a row", "email-row-result", line)).toThrow(/not a valid email-row-result/);
  });
});
