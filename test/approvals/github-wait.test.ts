/**
 * In GitHub Actions, approvals are the pull request's reviews, read again (from a stand-in of the
 * GitHub API on loopback) just before a round of `apply PLANFILE --wait-for-approval` sends what
 * needs them: a reviewer who requests changes while apply waits for the test messages' approval
 * withdraws their approval, and the schedule that would go out afterwards is held, not sent.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { EARLY_VOTE, GOTV_REMINDER } from "../sandbox/helpers.js";
import { type FakeGithub, fakeGithub } from "./fake-github.js";
import { applyWaiting, approveTests } from "./waiting.js";
import { type ApprovalsWorld, approvalsWorld, sent } from "./world.js";

const TOKEN = "ghs_FakeWorkflowTokenNotARealOneXyzQw";
const HEAD = "1234567890abcdef1234567890abcdef12345678";
const ERIN = { login: "erin", id: 2 };
const FRANK = { login: "frank", id: 3 };

let world: ApprovalsWorld | undefined;
let github: FakeGithub | undefined;
afterEach(async () => {
  await world?.close();
  await github?.close();
  world = undefined;
  github = undefined;
});

/** Pull request #7 by dana at HEAD, planned on its pull_request event, approved by erin and frank. */
async function approvedOnGithub() {
  const w = await approvalsWorld("  require_approvals: {count: 2}\n", { autoApproveTests: false });
  world = w;
  const gh = await fakeGithub("riverside/campaigns", TOKEN);
  github = gh;
  gh.pr.head.sha = HEAD;
  mkdirSync(join(w.dir, "events"));
  const event = join(w.dir, "events", "pull_request.json");
  writeFileSync(event, JSON.stringify({ pull_request: { number: 7, head: { sha: HEAD } } }));
  const env = {
    ...w.env,
    GITHUB_ACTIONS: "true",
    GITHUB_REPOSITORY: "riverside/campaigns",
    GITHUB_API_URL: gh.url,
    GITHUB_TOKEN: TOKEN,
    GITHUB_EVENT_PATH: event,
  };
  const planned = await runCli(["plan", "examples", "--out", "plan.json"], { cwd: w.dir, env });
  expect(planned.code, planned.stderr).toBe(0);
  gh.reviews = [
    { user: ERIN, state: "APPROVED", commit_id: HEAD },
    { user: FRANK, state: "APPROVED", commit_id: HEAD },
  ];
  return { w, gh, env };
}

describe("GitHub reviews read again while apply waits", () => {
  test("a request for changes during the wait holds the schedule; the tests and the pause go", async () => {
    const { w, gh, env } = await approvedOnGithub();
    const run = await applyWaiting(w, env, async (n) => {
      if (n === 1) gh.reviews.push({ user: FRANK, state: "CHANGES_REQUESTED", commit_id: HEAD });
      await approveTests(w);
    });
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
    expect(run.code, run.stdout).toBe(1);
    const held = run.result.actions.find((a) => a.id === "gotv-reminder.schedule");
    expect(held).toMatchObject({ status: "failed", attempts: 0 });
    expect(held?.error).toMatchObject({ source: "campaignctl", code: "apply.approvals-missing" });
    expect(held?.error?.message).toContain("read again just before sending them, it has 1");
    expect(held?.error?.message).toContain("@frank (review 1002): requested changes (their last review)");
    const effects = await sent(w.sb);
    expect(effects).not.toContain(`${GOTV_REMINDER}:schedule`);
    expect(effects).toContain(`${GOTV_REMINDER}:test`);
    expect(effects).toContain(`${EARLY_VOTE}:pause`);
  }, 60_000);

  test("GitHub failing a moment (502s) when they are read again: read once more, the schedule goes out", async () => {
    const { w, gh, env } = await approvedOnGithub();
    // Before anything is sent, one 502; during the wait, two in a row.
    gh.failNext = 1;
    const run = await applyWaiting(w, env, async (n) => {
      if (n === 1) gh.failNext = 2;
      await approveTests(w);
    });
    expect(run.code, run.stdout).toBe(0);
    expect(gh.failNext).toBe(0);
    expect(run.result.actions.find((a) => a.id === "gotv-reminder.schedule")?.status).toBe("done");
    expect(await sent(w.sb)).toContain(`${GOTV_REMINDER}:schedule`);
  }, 60_000);

  test("GitHub down for good when they are read again: the schedule is held, approvals-unavailable", async () => {
    const { w, gh, env } = await approvedOnGithub();
    const run = await applyWaiting(w, env, async (n) => {
      if (n === 1) gh.failNext = 1_000;
      await approveTests(w);
    });
    expect(run.code, run.stdout).toBe(1);
    const held = run.result.actions.find((a) => a.id === "gotv-reminder.schedule");
    expect(held).toMatchObject({ status: "failed", attempts: 0 });
    expect(held?.error).toMatchObject({ code: "apply.approvals-unavailable" });
    expect(held?.error?.message).toContain("GitHub answered 502");
    expect(await sent(w.sb)).not.toContain(`${GOTV_REMINDER}:schedule`);
  }, 60_000);

  test("reviews unchanged: read again before the schedule, which goes out", async () => {
    const { w, gh, env } = await approvedOnGithub();
    const run = await applyWaiting(w, env, () => approveTests(w));
    expect(run.code, run.stdout).toBe(0);
    expect(await sent(w.sb)).toContain(`${GOTV_REMINDER}:schedule`);
    // Once before anything is sent, then again in each round that sends a schedule (two of them).
    const reads = gh.requests.filter((r) => r.path === "/repos/riverside/campaigns/pulls/7").length;
    expect(reads).toBe(3);
  }, 60_000);
});
