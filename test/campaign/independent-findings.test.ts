/**
 * Every independent finding in one run (issue 24): a file with independent mistakes spread across
 * `defaults` and projects reports all of them in one `validate` (codes and positions), a schema error
 * in one key hides only the findings that read that key (no second, misleading finding about it),
 * and validate applies the policy's `min_test_contacts` to a sending project with no `test:` block.
 * Through the CLI in-process; every JSON document is checked against its schema (runCli).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assembleFile } from "../../src/campaign/assemble.js";
import { checkFileInPlace } from "../../src/campaign/file-check.js";
import { FINDING_READS, findingTrusted, keyTrust, projectUntrusted } from "../../src/campaign/key-trust.js";
import { LINT_CODES } from "../../src/diagnostics/codes/lint.js";
import { MESSAGE_CODES } from "../../src/diagnostics/codes/message.js";
import { runCli } from "../helpers/run-cli.js";
import { campaignFile } from "./helpers.js";

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-findings-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

interface JsonDiagnostic {
  readonly code: string;
  readonly severity: string;
  readonly range?: {
    readonly start: { line: number; column: number };
    readonly end: { line: number; column: number };
  };
}

const at = (d: JsonDiagnostic) =>
  `${d.code}@${d.range?.start.line}:${d.range?.start.column}-${d.range?.end.line}:${d.range?.end.column}`;

const FIVE_MISTAKES = `version: 1
defaults:
  contact_lists: [Ward 3 Likely Voters]
  suppresion_lists: [Do Not Text]
projects:
  gotv-reminder:
    id: 9a000000-0000-4000-8000-000000000001
    message: "Hi {{frist_name|friend}}, vote Tuesday! Reply STOP to opt out"
    state: scheduled
    test:
      contacts: [{phone: "+447700900123"}]
    schedule: {at: "2026-12-07T22:00:00-06:00", timezone: America/Chicago}
  gotv-followup:
    id: 9a000000-0000-4000-8000-000000000002
    message: "Polls close at 7pm. Find your polling place at vote.example.org"
    state: scheduled
    schedule: {at: "2026-12-08T10:00:00-06:00", timezone: America/Chicago}
`;

const POLICY = "version: 1\nrules:\n  min_test_contacts: 1\n";

async function validateJson(files: Record<string, string>, extra: readonly string[] = []) {
  const cwd = dirWith(files);
  const result = await runCli(["validate", "--json", ...extra, "campaign.yaml"], { cwd });
  const doc = JSON.parse(result.stdout) as { diagnostics: JsonDiagnostic[]; summary: unknown };
  return { code: result.code, doc, found: doc.diagnostics.map(at).sort() };
}

describe("validate reports every independent finding in one run", () => {
  it("a key typo in defaults, a merge-tag typo, a missing opt-out, a 22:00 send, a UK test phone, a scheduled project with no test block", async () => {
    const { code, doc, found } = await validateJson(
      { "campaign.yaml": FIVE_MISTAKES, "team.policy.yaml": POLICY },
      ["--policy", "team.policy.yaml"],
    );
    expect(code).toBe(1);
    expect(found).toEqual(
      [
        "campaign.unknown-key@4:3-4:19", // suppresion_lists, in defaults
        "message.unknown-tag@8:20-8:30", // {{frist_name}}
        "campaign.test-phone-not-nanp@11:26-11:41", // +44...
        "lint.quiet-hours@12:20-12:47", // 22:00 in Chicago
        "lint.opt-out-missing@15:14-15:79", // no STOP, no footer
        "policy.min-test-contacts@16:12-16:21", // scheduled, no test: block
      ].sort(),
    );
    expect(doc.summary).toEqual({ errors: 5, warnings: 1 });
  });

  it("without the policy, the same five file mistakes", async () => {
    const { found } = await validateJson({ "campaign.yaml": FIVE_MISTAKES });
    expect(found.map((f) => f.split("@")[0])).toEqual(
      [
        "campaign.unknown-key",
        "message.unknown-tag",
        "campaign.test-phone-not-nanp",
        "lint.quiet-hours",
        "lint.opt-out-missing",
      ].sort(),
    );
  });
});

/** The findings of one file checked alone (validate's per-file check), as `code@line:column`. */
function findings(text: string): string[] {
  const checked = checkFileInPlace(campaignFile("c.yaml", text), { now: null });
  return checked.diagnostics.map((d) => `${d.code}@${d.range?.start.line}:${d.range?.start.column}`).sort();
}

describe("a schema error hides only the findings that read the broken key", () => {
  it("a broken schedule: the message's findings stay, and no 'schedule missing' follows from it", () => {
    const text = `version: 1
projects:
  a:
    id: p1
    message: "Vote at bit.ly/x {{frist_name}}"
    contact_lists: [Ward 3]
    state: scheduled
    schedule: {at: "tomorrow at 9", timezone: America/Chicago}
`;
    expect(findings(text)).toEqual(
      [
        "campaign.schema-format@8:20",
        "message.unknown-tag@5:34",
        "lint.url-shortener@5:23",
        "lint.opt-out-missing@5:14",
      ].sort(),
    );
  });

  it("a misspelt key is the key it was meant to be: opt_out_footr hides the opt-out finding, not the others", () => {
    const text = `version: 1
defaults:
  opt_out_footr: true
projects:
  a:
    id: p1
    message: "Vote {{frist_name|friend}} today"
`;
    const found = findings(text);
    expect(found).toContain("campaign.unknown-key@3:3");
    expect(found).toContain("message.unknown-tag@7:22");
    expect(found.some((f) => f.startsWith("lint.opt-out-missing"))).toBe(false);
  });

  it("a misspelt key beside the key it was meant to be leaves that key judged (mesage beside message; defualts beside defaults)", () => {
    const text = `version: 1
defaults:
  contact_lists: [Ward 3]
defualts:
  state: scheduled
projects:
  a:
    id: p1
    mesage: "old text"
    message: "Vote {{last_nme}}"
`;
    expect(findings(text)).toEqual(
      [
        "campaign.unknown-key@4:1",
        "campaign.unknown-key@9:5",
        "message.unknown-tag@10:22",
        "lint.opt-out-missing@10:14",
      ].sort(),
    );
  });

  it("defaults that are not a map: the projects' own findings stay; none that could inherit from defaults", () => {
    const text = `version: 1
defaults: [oops]
projects:
  a:
    id: p1
    message: "Vote {{frist_name|friend}} today. Reply STOP to opt out"
    test:
      contacts: [{phone: "+447700900123"}]
`;
    const found = findings(text);
    expect(found).toContain("message.unknown-tag@6:22");
    expect(found).toContain("campaign.test-phone-not-nanp@8:26");
  });

  it("projects with schema errors are never planned: they stay out of the file's projects", () => {
    const text =
      "version: 1\nprojects:\n  a:\n    id: p1\n    state: sent\n    message: Hi\n  b:\n    id: p2\n";
    expect(assembleFile(campaignFile("c.yaml", text)).projects.map((p) => p.address)).toEqual(["b"]);
  });
});

describe("keyTrust", () => {
  it("maps schema errors to untrusted keys: a key's own errors, a misspelt key and the key it was meant to be, defaults", () => {
    const trust = keyTrust([
      { instancePath: "/projects/a/schedule/at", keyword: "format", params: {} },
      {
        instancePath: "/projects/b",
        keyword: "additionalProperties",
        params: { additionalProperty: "shedule" },
      },
      { instancePath: "/defaults/guard", keyword: "type", params: {} },
      { instancePath: "/fields/0", keyword: "pattern", params: {} },
    ]);
    expect(trust.fileWide).toBe(false);
    expect(trust.outsideProjects).toBe(true);
    expect([...(projectUntrusted(trust, "a", ["id", "schedule"]) ?? [])].sort()).toEqual([
      "fields",
      "guard",
      "schedule",
    ]);
    expect([...(projectUntrusted(trust, "b", ["id", "guard"]) ?? [])].sort()).toEqual([
      "fields",
      "schedule",
      "shedule",
    ]);
    expect(keyTrust([{ instancePath: "/version", keyword: "const", params: {} }]).fileWide).toBe(true);
    const notAMap = keyTrust([{ instancePath: "/projects/a", keyword: "type", params: {} }]);
    expect(projectUntrusted(notAMap, "a", [])).toBeNull();
  });

  it("every code a per-project check of campaign files can give says which keys it reads", () => {
    const perProject = [...Object.keys(LINT_CODES), ...Object.keys(MESSAGE_CODES)].filter(
      (code) => code !== "lint.after-sends-first", // across projects: never run on a partial project
    );
    expect(perProject.filter((code) => !(code in FINDING_READS))).toEqual([]);
    expect(findingTrusted("lint.quiet-hours", new Set(["message"]))).toBe(true);
    expect(findingTrusted("lint.quiet-hours", new Set(["schedule"]))).toBe(false);
    expect(findingTrusted("campaign.duplicate-id", new Set())).toBe(false);
  });
});

describe("lint.non-gsm-character through validate --json", () => {
  it("an emoji and a curly apostrophe twice: codes, places, related, severity by cost; the document is schema-valid", async () => {
    const text = `version: 1
projects:
  a:
    id: p1
    message: "We’re voting Tuesday, and we’d love you there too. Polls open 7am. Reply STOP to opt out 🗳"
`;
    const cwd = dirWith({ "campaign.yaml": text });
    const result = await runCli(["validate", "--json", "campaign.yaml"], { cwd });
    const doc = JSON.parse(result.stdout) as {
      diagnostics: (JsonDiagnostic & {
        message: string;
        hint?: string;
        related?: { range: JsonDiagnostic["range"] }[];
      })[];
    };
    const found = doc.diagnostics.filter((d) => d.code === "lint.non-gsm-character");
    expect(found.map((d) => [at(d), d.severity])).toEqual([
      ["lint.non-gsm-character@5:17-5:18", "warning"],
      ["lint.non-gsm-character@5:104-5:106", "warning"],
    ]);
    const [quote, emoji] = found;
    expect(quote?.message).toContain("’ (U+2019), 2 times,");
    expect(quote?.message).toContain("2 segments per recipient instead of 1 in GSM-7");
    expect(quote?.hint).toBe("write ' instead of ’ (GSM-7 has it)");
    expect(quote?.related?.map((r) => `${r.range?.start.line}:${r.range?.start.column}`)).toEqual(["5:43"]);
    expect(emoji?.message).toContain("🗳 (U+1F5F3)");
  });
});
