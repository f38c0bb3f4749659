/**
 * Each campaign file's assembly kept across the runs of one process, by name and text (a file over
 * 64 KiB by name and its bytes' digest) (cli/adapters/load-campaign.ts, over
 * src/text/bounded-memo.ts): the suite's in-process runs load the same
 * unchanged files run after run. The memo answers only for the same name and text, and what a run
 * got is frozen: a change throws instead of reaching the next run.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadCampaign } from "../../cli/adapters/load-campaign.js";

const GOTV = readFileSync(new URL("../../examples/gotv.yaml", import.meta.url), "utf8");

/** A repository holding `gotv.yaml` with `text`. */
function repo(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-load-memo-"));
  mkdirSync(join(dir, ".git"));
  writeFileSync(join(dir, "gotv.yaml"), text);
  return dir;
}

describe("loadCampaign across the runs of one process", () => {
  test("an unchanged file is assembled once: the next run gets the same, frozen, projects", () => {
    const dir = repo(GOTV);
    const first = loadCampaign(["gotv.yaml"], dir);
    const second = loadCampaign(["gotv.yaml"], dir);
    expect(first.diagnostics).toEqual([]);
    expect(second.campaign.projects.map((p) => p.address)).toEqual(["gotv-reminder", "gotv-followup"]);
    for (const [i, p] of second.campaign.projects.entries()) expect(p).toBe(first.campaign.projects[i]);
    const project = second.campaign.projects[0] as { message?: unknown };
    expect(Object.isFrozen(project)).toBe(true);
    expect(() => {
      project.message = "changed by a run";
    }).toThrow(TypeError);
    expect(loadCampaign(["gotv.yaml"], dir).campaign.projects[0]?.message).toBe(
      first.campaign.projects[0]?.message,
    );
  });

  test("the same file with another text is assembled again (the text, not the path, is the key)", () => {
    const dir = repo(GOTV);
    const before = loadCampaign(["gotv.yaml"], dir);
    writeFileSync(join(dir, "gotv.yaml"), GOTV.replace("gotv-followup:", "gotv-later:"));
    const after = loadCampaign(["gotv.yaml"], dir);
    expect(before.campaign.projects.map((p) => p.address)).toEqual(["gotv-reminder", "gotv-followup"]);
    expect(after.campaign.projects.map((p) => p.address)).toEqual(["gotv-reminder", "gotv-later"]);
  });

  test("the same text under another name is its own file: findings name the file they are in", () => {
    const dir = repo(`${GOTV}\nunknown_key: 1\n`);
    copyFileSync(join(dir, "gotv.yaml"), join(dir, "copy.yaml"));
    const files = (paths: string[]) =>
      loadCampaign(paths, dir).diagnostics.map((d) => `${d.code} ${d.range?.file}`);
    expect(files(["gotv.yaml"])).toContain("campaign.unknown-key gotv.yaml");
    expect(files(["copy.yaml"])).toContain("campaign.unknown-key copy.yaml");
    expect(files(["copy.yaml"]).filter((d) => d.endsWith("gotv.yaml"))).toEqual([]);
  });

  test("a file over 64 KiB is kept by its bytes' digest; one over 1 MiB is not kept", () => {
    // A long comment makes the file large; its projects are the example's.
    const large = `${GOTV}\n# ${"x".repeat(70_000)}\n`;
    const dir = repo(large);
    const first = loadCampaign(["gotv.yaml"], dir);
    expect(first.diagnostics).toEqual([]);
    for (const [i, p] of loadCampaign(["gotv.yaml"], dir).campaign.projects.entries())
      expect(p).toBe(first.campaign.projects[i]);
    // One byte changed: another digest, assembled again.
    writeFileSync(join(dir, "gotv.yaml"), large.replace("gotv-followup:", "gotv-later:"));
    expect(loadCampaign(["gotv.yaml"], dir).campaign.projects.map((p) => p.address)).toEqual([
      "gotv-reminder",
      "gotv-later",
    ]);
    const huge = repo(`${GOTV}\n# ${"x".repeat(1 << 20)}\n`);
    const once = loadCampaign(["gotv.yaml"], huge).campaign.projects[0];
    expect(loadCampaign(["gotv.yaml"], huge).campaign.projects[0]).not.toBe(once);
    expect(loadCampaign(["gotv.yaml"], huge).campaign.projects[0]?.message).toBe(once?.message);
  });
});
