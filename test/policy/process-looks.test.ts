/**
 * Policy discovery keeps its directory listings across the runs of one process
 * (cli/policy-discovery/discover.ts, `PROCESS_LOOKS`): the in-process runs of a test worker walk
 * the same directories up to `/` a few thousand times. A listing is used again only while its
 * directory is unchanged, so a policy file added, edited or removed is seen by the next run; and
 * a cache keeps at most `MAX_KEPT_LOOKS` directories.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { loadPolicy } from "../../cli/adapters/policy-file.js";
import { type LookCache, MAX_KEPT_LOOKS, PROCESS_LOOKS } from "../../cli/policy-discovery/discover.js";
import { runCli } from "../helpers/run-cli.js";

const root = mkdtempSync(join(tmpdir(), "campaignctl-process-looks-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const POLICY = readFileSync(new URL("../../examples/campaignctl.policy.yaml", import.meta.url), "utf8");
const CAMPAIGN = `version: 1
organization: Riverside Democrats
defaults:
  channel: 10dlc
  brand: Riverside Democrats
  campaign: GOTV 2026
  phone_numbers: ["+15035550101"]
  contact_lists: [Ward 3 Likely Voters]
projects:
  p-1:
    id: 9b000001-0000-4000-8000-000000000001
    message: "Hi, Ward 3 votes Tuesday"
    state: scheduled
    schedule:
      at: "2026-12-07T22:00:00-06:00"
      timezone: America/Chicago
`;

test("an in-process run sees a policy file added, edited or removed since the last run", async () => {
  const folder = mkdtempSync(join(root, "repo-"));
  mkdirSync(join(folder, ".git"));
  writeFileSync(join(folder, "a.yaml"), CAMPAIGN);
  let age = 0;
  const policyCodes = async () => {
    // The folder's times set back (a distinct time after each change), so its listing is kept.
    age += 1;
    utimesSync(folder, 1_000_000 + age, 1_000_000 + age);
    const run = await runCli(["validate", "a.yaml", "--json", "--now", "2026-11-01T00:00:00Z"], {
      cwd: folder,
    });
    const kept = PROCESS_LOOKS.get(folder);
    expect(kept).toBeDefined();
    // Run again unchanged: the folder's listing is the one kept.
    const again = await runCli(["validate", "a.yaml", "--json", "--now", "2026-11-01T00:00:00Z"], {
      cwd: folder,
    });
    expect(PROCESS_LOOKS.get(folder)).toBe(kept);
    expect(again.stdout).toBe(run.stdout);
    const document = JSON.parse(run.stdout) as { diagnostics: { code: string }[] };
    return document.diagnostics.map((d) => d.code).filter((c) => c.startsWith("policy."));
  };
  expect(await policyCodes()).toEqual([]);
  writeFileSync(join(folder, "campaignctl.policy.yaml"), POLICY);
  expect(await policyCodes()).toEqual(
    expect.arrayContaining(["policy.require-opt-out-language", "policy.send-window"]),
  );
  // Edited: the file's text is read at every run (only listings are kept).
  writeFileSync(
    join(folder, "campaignctl.policy.yaml"),
    POLICY.replace("require_opt_out_language: true", "require_opt_out_language: false"),
  );
  expect(await policyCodes()).not.toContain("policy.require-opt-out-language");
  rmSync(join(folder, "campaignctl.policy.yaml"));
  writeFileSync(join(folder, "campaignctl.polcy.yaml"), POLICY);
  expect(await policyCodes()).toEqual(["policy.file-misnamed"]);
  rmSync(join(folder, "campaignctl.polcy.yaml"));
  expect(await policyCodes()).toEqual([]);
});

test(`a cache keeps at most ${MAX_KEPT_LOOKS} directories, those looked into last`, () => {
  let dir = mkdtempSync(join(root, "deep-"));
  const chain = [dir];
  for (let i = 0; i < MAX_KEPT_LOOKS + 20; i++) {
    dir = join(dir, "d");
    mkdirSync(dir);
    chain.push(dir);
  }
  writeFileSync(join(dir, "a.yaml"), CAMPAIGN);
  for (const d of chain) utimesSync(d, 1_000_000, 1_000_000);
  const looks: LookCache = new Map();
  loadPolicy({}, [join(dir, "a.yaml")], root, looks);
  expect(looks.size).toBe(MAX_KEPT_LOOKS);
  // The walk goes up: the deepest directories, looked into first, were dropped.
  expect(looks.has(dir)).toBe(false);
  expect(looks.has(chain[0] ?? "")).toBe(true);
});
