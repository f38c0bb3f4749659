import { describe, expect, it } from "vitest";
import { loadCampaign } from "../../cli/adapters/load-campaign.js";
import { lintCampaign } from "../../src/campaign/lint/index.js";
import { runCli } from "../helpers/run-cli.js";

const examples = new URL("../../examples/", import.meta.url).pathname;
/** The examples' story starts at the sandbox fixture's `clock.start`. */
const EXAMPLES_NOW = "2026-12-01T15:00:00Z";

describe("example campaign files", () => {
  const loaded = loadCampaign(["."], examples);
  const campaignFiles = loaded.campaign.files.filter((f) => f.path !== "sandbox.yaml");

  it("load with no errors or warnings, lint included (info notes are allowed)", () => {
    const problems = [
      ...loaded.diagnostics,
      ...lintCampaign(loaded.campaign, { now: new Date(EXAMPLES_NOW) }),
    ];
    expect(problems.filter((d) => d.range?.file !== "sandbox.yaml" && d.severity !== "info")).toEqual([]);
  });

  it("describe the example world of examples/README.md", () => {
    expect(campaignFiles.map((f) => f.path)).toEqual([
      "early-vote.yaml",
      "email.yaml",
      "gotv.yaml",
      "runoff-notice.yaml",
      "volunteers.yaml",
    ]);
    const view = loaded.campaign.projects.map((p) => [p.address, p.file, p.id, p.state, p.after]);
    expect(view).toEqual([
      ["early-vote-push", "early-vote.yaml", "9a000000-0000-4000-8000-000000000004", "paused", []],
      ["gotv-reminder", "gotv.yaml", "9a000000-0000-4000-8000-000000000001", "scheduled", []],
      ["gotv-followup", "gotv.yaml", "9a000000-0000-4000-8000-000000000002", "scheduled", ["gotv-reminder"]],
      ["runoff-notice-en", "runoff-notice.yaml", "9a000000-0000-4000-8000-000000000005", "draft", []],
      ["runoff-notice-es", "runoff-notice.yaml", "9a000000-0000-4000-8000-000000000006", "draft", []],
      ["volunteer-recruitment", "volunteers.yaml", "9a000000-0000-4000-8000-000000000003", "tested", []],
    ]);
    const byAddress = new Map(loaded.campaign.projects.map((p) => [p.address, p]));
    expect(byAddress.get("early-vote-push")?.pause).toEqual({ reason: "polling place change" });
    const volunteers = byAddress.get("volunteer-recruitment");
    expect(volunteers?.channel).toBe("toll-free");
    expect(volunteers?.media).toEqual(["rally-flyer.png"]);
    expect(volunteers?.linkTracking?.domain).toBe("d1000000-0000-4000-8000-000000000001");
    const reminder = byAddress.get("gotv-reminder");
    expect(reminder?.test?.contacts.length).toBeGreaterThanOrEqual(2);
    expect(reminder?.schedule?.timezone).toBe("America/Chicago");
    expect(reminder?.contactLists).toEqual(["Ward 3 Likely Voters"]);
    // Email and replies can be tried too: a list from a CSV, a campaign, reply rules on a project
    // and in a template (English and Spanish keywords).
    expect((loaded.campaign.emailLists ?? []).map((l) => [l.address, l.id, l.csv])).toEqual([
      ["volunteers-email", "e2000000-0000-4000-8000-000000000001", "lists/volunteers.csv"],
    ]);
    expect((loaded.campaign.emailCampaigns ?? []).map((c) => c.address)).toEqual(["volunteer-newsletter"]);
    const rules = (address: string) => byAddress.get(address)?.replies?.rules.map((r) => r.name);
    expect(rules("gotv-reminder")).toEqual(["hours"]);
    expect(rules("runoff-notice-en")).toEqual(["where", "who"]);
    expect(rules("runoff-notice-es")).toEqual(["where", "who"]);
  });

  it("each start with the schema comment for editors", () => {
    for (const file of campaignFiles)
      expect(file.text.split("\n")[0]).toBe(
        "# yaml-language-server: $schema=../schemas/campaign.schema.json",
      );
  });

  // Judged on the day of the examples' story (the fixture's clock.start), not today: past that day
  // the GOTV schedules are past by the system clock, and `validate` warns (see test/clock/).
  it("pass `campaignctl validate --strict` on the whole directory (the sandbox fixture is skipped)", async () => {
    const result = await runCli(["validate", "--strict", "--now", EXAMPLES_NOW], { cwd: examples });
    expect(result.stdout).toMatch(/^5 files, 6 projects: 0 errors, 0 warnings\b.*\n$/m);
    expect(result.stdout).not.toMatch(/(error|warning)\[/);
    expect(result.code).toBe(0);
  });
});
