/**
 * The language server keeps the directory listings of policy discovery while each directory is
 * unchanged (cli/policy-discovery/discover.ts, `LookCache`): a policy file edited, removed, added or
 * misnamed beside the document is seen at the next check, whose findings equal a check that finds
 * the policy anew.
 */
import { mkdtempSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { loadPolicy } from "../../../cli/adapters/policy-file.js";
import { checkDocument, checkMemory, type DocumentCheckContext } from "../../../cli/lsp/check-document.js";
import type { LookCache } from "../../../cli/policy-discovery/discover.js";

const folder = mkdtempSync(join(tmpdir(), "campaignctl-lsp-policy-cache-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const policyPath = join(folder, "campaignctl.policy.yaml");
const POLICY = readFileSync(new URL("../../../examples/campaignctl.policy.yaml", import.meta.url), "utf8");
const path = join(folder, "a.yaml");
const TEXT = `version: 1
organization: Riverside Democrats
defaults:
  channel: 10dlc
  brand: Riverside Democrats
  campaign: GOTV 2026
  phone_numbers: ["+15035550101"]
  contact_lists: [Ward 3 Likely Voters]
  test:
    contacts:
      - phone: "+15035550150"
projects:
  p-1:
    id: 9b000001-0000-4000-8000-000000000001
    message: "Hi, Ward 3 votes Tuesday"
    state: scheduled
    schedule:
      at: "2026-12-07T22:00:00-06:00"
      timezone: America/Chicago
`;
writeFileSync(path, TEXT);
const context: DocumentCheckContext = {
  flags: {},
  cwd: folder,
  now: new Date("2026-11-01T00:00:00Z"),
  clock: "--now",
};

test("a policy file changed, removed, misnamed or added is seen at the next check", () => {
  const memory = checkMemory();
  let age = 0;
  const codes = () => {
    // The folder's time set back (a distinct time after each change), so its listing is kept.
    age += 1;
    utimesSync(folder, 1_000_000 + age, 1_000_000 + age);
    checkDocument(path, TEXT, context, undefined, memory);
    expect(memory.looks.has(folder)).toBe(true);
    const cached = checkDocument(path, TEXT, context, undefined, memory);
    expect(cached).toEqual(checkDocument(path, TEXT, context));
    return cached.map((d) => d.code).filter((c) => c.startsWith("policy."));
  };
  expect(codes()).toEqual([]);
  writeFileSync(policyPath, POLICY);
  expect(codes()).toEqual(expect.arrayContaining(["policy.require-opt-out-language", "policy.send-window"]));
  writeFileSync(
    policyPath,
    POLICY.replace("require_opt_out_language: true", "require_opt_out_language: false"),
  );
  expect(codes()).not.toContain("policy.require-opt-out-language");
  expect(codes()).toContain("policy.send-window");
  renameSync(policyPath, join(folder, "campaignctl-policy.yaml"));
  expect(codes().length).toBeGreaterThan(0); // the near-miss name is reported
  rmSync(join(folder, "campaignctl-policy.yaml"));
  expect(codes()).toEqual([]);
});

test("an unchanged directory is not listed again; a changed one is", () => {
  const looks: LookCache = new Map();
  writeFileSync(join(folder, "notes.txt"), "changed just now\n");
  loadPolicy({}, [path], folder, looks);
  // Directories changed in the last two seconds (the temp folder) are listed at every run.
  const kept = [...looks.entries()].find(([dir]) => dir !== folder);
  expect(kept).toBeDefined();
  loadPolicy({}, [path], folder, looks);
  expect(looks.get(kept?.[0] ?? "")).toBe(kept?.[1]);
  expect(looks.has(folder)).toBe(false);
});
