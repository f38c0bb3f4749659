/**
 * Campaign files assembled once per content in a process (cli/adapters/load-campaign.ts, through
 * src/text/bounded-memo.ts): every plan, apply, status and watch run in-process loads its files
 * again, and the suite's runs load the same unchanged files again and again. The memo must never
 * answer for another text or another name, and nothing a run does to what it got may reach the
 * next run (the kept campaign is frozen).
 */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { loadCampaign } from "../../cli/adapters/load-campaign.js";

function copyOfGotv(): string {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-load-memo-"));
  copyFileSync("examples/gotv.yaml", join(dir, "gotv.yaml"));
  return dir;
}

const reminderMessage = (dir: string, file = "gotv.yaml") =>
  loadCampaign([file], dir).campaign.projects.find((p) => p.address === "gotv-reminder")?.message;

test("the same files load to the same (kept) campaign, frozen", () => {
  const dir = copyOfGotv();
  const first = loadCampaign(["gotv.yaml"], dir);
  const second = loadCampaign(["gotv.yaml"], join(dir, "."));
  expect(first.diagnostics).toEqual([]);
  expect(second.campaign).toBe(first.campaign);
  expect(second.diagnostics).toEqual(first.diagnostics);
  const project = first.campaign.projects[0];
  expect(Object.isFrozen(project)).toBe(true);
  expect(() => {
    (first.campaign.projects as unknown[]).push(project);
  }).toThrow(TypeError);
});

test("another text, or the same text under another name, is assembled again", () => {
  const dir = copyOfGotv();
  const before = reminderMessage(dir);
  expect(before).toContain("Reply STOP to opt out");
  const path = join(dir, "gotv.yaml");
  writeFileSync(path, readFileSync(path, "utf8").replace("Reply STOP to opt out", "Text STOP to opt out"));
  const after = reminderMessage(dir);
  expect(after).toContain("Text STOP to opt out");
  expect(after).not.toBe(before);
  copyFileSync(path, join(dir, "renamed.yaml"));
  const renamed = loadCampaign(["renamed.yaml"], dir);
  expect(renamed.campaign.files.map((f) => f.path)).toEqual(["renamed.yaml"]);
  expect(renamed.campaign).not.toBe(loadCampaign(["gotv.yaml"], dir).campaign);
});
