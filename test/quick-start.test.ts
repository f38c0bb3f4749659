/**
 * The README's quick start, end to end through the CLI: the example campaign planned and applied
 * against the embedded sandbox until the live projects match the files. The example's email list
 * stays planned (the API has no read of email lists: every apply upserts its rows again, and the
 * API replays the batch, so nothing is written twice).
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
  test("converges on the example campaign; then only the email list is synced again (replayed)", async () => {
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
      const again = await cli("plan", "--sandbox", "examples/", "--json");
      if (plannedIds(again.stdout, "planned").length + plannedIds(again.stdout, "deferred").length === 0)
        break;
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
    expect(plannedIds(last.stdout, "planned")).toEqual([]);
    expect(plannedIds(last.stdout, "deferred")).toEqual([]);
    // What is left is the email list's sync, planned on every run: pending changes (2).
    const lastPlan = JSON.parse(last.stdout) as { email: { lists: { address: string; verdict: string }[] } };
    expect(lastPlan.email.lists.map((l) => [l.address, l.verdict])).toEqual([
      ["volunteers-email", "planned"],
    ]);
    expect(last.code).toBe(2);

    // No texting action left: a machine still gets a result document, no project request is sent,
    // and the email list's batch is sent again with its key and replayed by the API.
    const idle = await cli("apply", "--sandbox", "--auto-approve", "--json", "examples/");
    expect(idle.code).toBe(0);
    expect(idle.stderr).toContain("apply: 0 of 0 actions to send");
    const result = JSON.parse(idle.stdout) as {
      actions: unknown[];
      requests: { by_endpoint: object };
      email: { lists: { address: string; batches: { outcome: string }[] }[] };
    };
    expect(result.actions).toEqual([]);
    expect(Object.keys(result.requests.by_endpoint).filter((e) => e.startsWith("POST"))).toEqual([
      "POST /email/lists/{id}/contacts",
    ]);
    expect(result.email.lists.map((l) => [l.address, l.batches.map((b) => b.outcome)])).toEqual([
      ["volunteers-email", ["replayed"]],
    ]);
  }, 60_000);
});
