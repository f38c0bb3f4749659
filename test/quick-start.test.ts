/**
 * The README's quick start, end to end through the CLI: the example campaign planned and applied
 * against the embedded sandbox until the live world matches the files.
 */
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "./helpers/run-cli.js";

function plannedIds(json: string, status: string): string[] {
  const doc = JSON.parse(json) as { projects: { actions: { id: string; status: string }[] }[] };
  return doc.projects.flatMap((p) => p.actions.filter((a) => a.status === status).map((a) => a.id)).sort();
}

describe("quick start: plan, apply, plan again against the embedded sandbox", () => {
  test("converges on the example campaign, then has nothing to do", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "campaignctl-quick-start-"));
    cpSync("examples", join(cwd, "examples"), { recursive: true });
    const cli = (...argv: string[]) => runCli(argv, { cwd, env: {} });

    const first = await cli("plan", "--sandbox", "examples/", "--json", "--detailed-exitcode");
    expect(first.code).toBe(2);
    expect(plannedIds(first.stdout, "planned")).toEqual([
      "early-vote-push.pause",
      "gotv-reminder.test",
      "volunteer-recruitment.test",
    ]);
    expect(plannedIds(first.stdout, "deferred")).toEqual([
      "gotv-followup.schedule",
      "gotv-followup.test",
      "gotv-reminder.schedule",
    ]);

    // Each apply does what is sendable; the embedded sandbox approves test sends at once, so the
    // schedules waiting for approval become sendable on the next run.
    const done: string[] = [];
    for (let run = 0; run < 4; run++) {
      const applied = await cli("apply", "--sandbox", "--auto-approve", "--json", "examples/");
      expect(applied.code).toBe(0);
      const result = JSON.parse(applied.stdout) as { actions: { id: string; status: string }[] };
      done.push(...result.actions.filter((a) => a.status === "done").map((a) => a.id));
      const again = await cli("plan", "--sandbox", "examples/", "--detailed-exitcode");
      if (again.code === 0) break;
    }
    expect(done.sort()).toEqual([
      "early-vote-push.pause",
      "gotv-followup.schedule",
      "gotv-followup.test",
      "gotv-reminder.schedule",
      "gotv-reminder.test",
      "volunteer-recruitment.test",
    ]);

    const last = await cli("plan", "--sandbox", "examples/", "--json", "--detailed-exitcode");
    expect(last.code).toBe(0);
    expect(plannedIds(last.stdout, "planned")).toEqual([]);
    expect(plannedIds(last.stdout, "deferred")).toEqual([]);

    // Nothing left to send: a machine still gets a result document, and nothing is sent.
    const idle = await cli("apply", "--sandbox", "--auto-approve", "--json", "examples/");
    expect(idle.code).toBe(0);
    expect(idle.stderr).toContain("No changes. Nothing to apply");
    const result = JSON.parse(idle.stdout) as { actions: unknown[]; requests: { by_endpoint: object } };
    expect(result.actions).toEqual([]);
    expect(Object.keys(result.requests.by_endpoint).filter((e) => e.startsWith("POST"))).toEqual([]);
  }, 60_000);
});
