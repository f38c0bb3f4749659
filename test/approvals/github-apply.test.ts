/**
 * Issue 37 point 6 in GitHub Actions: approvals are the approving reviews of the pull request by
 * people other than its author, read with the workflow's token from a stand-in of the GitHub API on
 * loopback, and bound to the saved plan through the commit it was made from (the pull request's head,
 * which `plan --out` records from the event payload). One valid approval sends nothing; the author's,
 * a bot's, an approval of another commit, one withdrawn by a request for changes do not count; two
 * distinct reviewers apply (their approvals on the second page of reviews). A plan whose commit is no
 * longer the head, a token that would travel in the clear, no token, no pull request: nothing is sent,
 * and the token is never printed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { parse } from "yaml";
import type { ApplyResult } from "../../src/apply/types.js";
import type { Plan } from "../../src/plan/types.js";
import { runCli } from "../helpers/run-cli.js";
import { GOTV_FOLLOWUP, GOTV_REMINDER } from "../sandbox/helpers.js";
import { type FakeGithub, fakeGithub } from "./fake-github.js";
import { type ApprovalsWorld, approvalsWorld, sent } from "./world.js";

const TOKEN = "ghs_FakeWorkflowTokenNotARealOneXyzQw";
const HEAD = "1234567890abcdef1234567890abcdef12345678";
const MERGE = "fedcba0987654321fedcba0987654321fedcba09";
const OLD = "0000000000aaaaaaaaaa0000000000aaaaaaaaaa";
const DANA = { login: "dana", id: 1 };
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

/** A world and a pull request #7 by dana whose head is HEAD, and the GitHub Actions environment. */
async function setUp() {
  const w = await approvalsWorld("  require_approvals: {count: 2}\n");
  world = w;
  const gh = await fakeGithub("riverside/campaigns", TOKEN);
  github = gh;
  gh.pr.head.sha = HEAD;
  mkdirSync(join(w.dir, "events"));
  const event = (name: string, payload: unknown) => {
    const path = join(w.dir, "events", `${name}.json`);
    writeFileSync(path, JSON.stringify(payload));
    return path;
  };
  const actions = {
    ...w.env,
    GITHUB_ACTIONS: "true",
    GITHUB_REPOSITORY: "riverside/campaigns",
    GITHUB_API_URL: gh.url,
    GITHUB_TOKEN: TOKEN,
  };
  // The plan job runs on the pull_request event: GITHUB_SHA is the merge commit nobody reviews.
  const planEnv = {
    ...actions,
    GITHUB_SHA: MERGE,
    GITHUB_EVENT_PATH: event("pull_request", { pull_request: { number: 7, head: { sha: HEAD } } }),
  };
  // The apply job runs on the push to main: no pull request in the event; --pull-request names it.
  const applyEnv = {
    ...actions,
    GITHUB_SHA: MERGE,
    GITHUB_EVENT_PATH: event("push", { ref: "refs/heads/main" }),
  };
  return { w, gh, planEnv, applyEnv };
}

async function applyPlan(w: ApprovalsWorld, env: Record<string, string>, ...flags: string[]) {
  const run = await runCli(["apply", "plan.json", "--json", ...flags], { cwd: w.dir, env });
  // Not printed, and not even masked by the output's redactor: it never reached the output.
  expect(run.stdout + run.stderr).not.toContain(TOKEN);
  expect(run.stdout + run.stderr).not.toContain("[redacted]");
  return { run, result: JSON.parse(run.stdout) as ApplyResult };
}

function refusal(result: ApplyResult, code: string): string {
  const found = result.refused.find((d) => d.code === code);
  expect(found, JSON.stringify(result.refused)).toBeDefined();
  return found?.message ?? "";
}

describe("approvals from GitHub reviews", () => {
  test("the pull request's head commit is recorded; one valid approval sends nothing; two apply", async () => {
    const { w, gh, planEnv, applyEnv } = await setUp();
    const planned = await runCli(["plan", "examples", "--out", "plan.json"], { cwd: w.dir, env: planEnv });
    expect(planned.code, planned.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(join(w.dir, "plan.json"), "utf8")) as Plan;
    expect(saved.commit).toBe(HEAD);
    expect(planned.stderr).toContain(`approving reviews of the pull request at commit ${HEAD.slice(0, 12)}`);

    gh.pr.requested_reviewers = [FRANK];
    gh.reviews = [
      { user: ERIN, state: "APPROVED", commit_id: HEAD },
      { user: DANA, state: "APPROVED", commit_id: HEAD },
      { user: FRANK, state: "APPROVED", commit_id: OLD },
      { user: { login: "ci-bot", id: 9, type: "Bot" }, state: "APPROVED", commit_id: HEAD },
      { user: { login: "gus", id: 4 }, state: "APPROVED", commit_id: HEAD },
      { user: { login: "gus", id: 4 }, state: "CHANGES_REQUESTED", commit_id: HEAD },
    ];
    const one = await applyPlan(w, applyEnv, "--pull-request", "7");
    expect(one.run.code).toBe(1);
    const message = refusal(one.result, "apply.approvals-missing");
    expect(message).toContain("needs 2 approvals by people other than its author");
    expect(message).toContain("it has 1 (reviews of pull request #7 of riverside/campaigns)");
    expect(message).toContain("approved by @erin (review 1000)");
    expect(message).toContain("author: @dana");
    expect(message).toContain("@dana (review 1001): by the plan's author (@dana)");
    expect(message).toContain(
      `@frank (review 1002): approved commit ${OLD.slice(0, 12)}, not the commit the plan was made from (${HEAD.slice(0, 12)})`,
    );
    expect(message).toContain("@ci-bot (review 1003): a bot's review does not count");
    expect(message).toContain("@gus (review 1005): requested changes (their last review)");
    expect(message).toContain("missing: 1 more approval (could approve: @frank)");
    expect(await sent(w.sb)).toEqual([]);
    // Read with the workflow's token, and nothing else asked of GitHub.
    expect(new Set(gh.requests.map((r) => r.authorization))).toEqual(new Set([`Bearer ${TOKEN}`]));
    expect(gh.requests.map((r) => r.path)).toEqual([
      "/repos/riverside/campaigns/pulls/7",
      "/repos/riverside/campaigns/pulls/7/reviews?per_page=100&page=1",
    ]);

    // Frank approves the head; the approvals are on the second page of 100 reviews.
    gh.reviews = [
      ...Array.from({ length: 100 }, () => ({
        user: { login: "gus", id: 4 },
        state: "COMMENTED",
        commit_id: HEAD,
      })),
      { user: ERIN, state: "APPROVED", commit_id: HEAD },
      { user: FRANK, state: "APPROVED", commit_id: HEAD },
    ];
    const two = await applyPlan(w, applyEnv, "--pull-request", "7");
    expect(two.run.code, two.run.stdout).toBe(0);
    expect(two.run.stderr).toContain("by @erin (review 1100), @frank (review 1101); author: @dana");
    expect(gh.requests.at(-1)?.path).toBe("/repos/riverside/campaigns/pulls/7/reviews?per_page=100&page=2");
    const effects = await sent(w.sb);
    expect(effects).toContain(`${GOTV_REMINDER}:schedule`);
    expect(effects).toContain(`${GOTV_FOLLOWUP}:schedule`);
    // The token is in no file the run wrote.
    const journals = join(w.dir, ".campaignctl", "journal");
    expect(existsSync(journals)).toBe(true);
    for (const file of readdirSync(journals))
      expect(readFileSync(join(journals, file), "utf8")).not.toContain(TOKEN);
  }, 120_000);

  test("the shipped campaign-apply.yml passes the token and the pull request to apply", async () => {
    const { w, gh, planEnv, applyEnv } = await setUp();
    const workflow = parse(readFileSync("examples/ci/github/campaign-apply.yml", "utf8")) as {
      jobs: { apply: { steps: { run?: string; env?: Record<string, string> }[] } };
    };
    const step = workflow.jobs.apply.steps.find((s) => s.run?.startsWith("campaignctl apply"));
    const expr = (e: string) => `\${{ ${e} }}`;
    expect(step?.env?.GITHUB_TOKEN).toBe(expr("github.token"));
    expect(step?.env?.PULL_REQUEST).toBe(expr("steps.find.outputs.pr"));
    const argv = (step?.run ?? "")
      .split(" ")
      .slice(1)
      .map((word) => (word === '"$PULL_REQUEST"' ? "7" : word));
    expect(
      (await runCli(["plan", "examples", "--out", "plan.json"], { cwd: w.dir, env: planEnv })).code,
    ).toBe(0);
    gh.reviews = [{ user: ERIN, state: "APPROVED", commit_id: HEAD }];
    const one = await runCli(argv, { cwd: w.dir, env: applyEnv });
    expect(one.code).toBe(1);
    expect(one.stdout).toContain("apply.approvals-missing");
    gh.reviews.push({ user: FRANK, state: "APPROVED", commit_id: HEAD });
    const two = await runCli(argv, { cwd: w.dir, env: applyEnv });
    expect(two.code, two.stdout).toBe(0);
    expect(readFileSync(join(w.dir, "apply.md"), "utf8")).toContain("Apply complete: 6 done");
  }, 120_000);

  /**
   * The world of the refusals below, planned once for them (the plan job's `plan --out`, as each
   * would make it): none sends anything (each checks the sandbox's effects stay empty) or changes the
   * world, so each starts where the plan left it. Each sets the pull request's head, its reviews and
   * the request log it reads.
   */
  let refusals: ReturnType<typeof plannedWorld> | undefined;
  async function plannedWorld() {
    const set = await setUp();
    // setUp's world and GitHub are closed after the describe, not after each test.
    world = undefined;
    github = undefined;
    const planned = await runCli(["plan", "examples", "--out", "plan.json"], {
      cwd: set.w.dir,
      env: set.planEnv,
    });
    expect(planned.code, planned.stderr).toBe(0);
    return set;
  }
  afterAll(async () => {
    // A failed plan failed its test already; here only what was started is closed.
    const set = await refusals?.catch(() => undefined);
    await set?.w.close();
    await set?.gh.close();
  });

  /** The refusals' world, its pull request's head at `head`, approved by `reviews`, no request made yet. */
  async function refusalWorld(head: string, reviews: FakeGithub["reviews"]) {
    refusals ??= plannedWorld();
    const set = await refusals;
    set.gh.pr.head.sha = head;
    set.gh.reviews = reviews;
    set.gh.requests.length = 0;
    return set;
  }

  test("a plan whose commit is no longer the head cannot be approved, even by reviews of that commit", async () => {
    // A push after the plan: the head moved on, and the old commit's approvals stay on the pull request.
    const { w, planEnv } = await refusalWorld(OLD, [
      { user: ERIN, state: "APPROVED", commit_id: HEAD },
      { user: FRANK, state: "APPROVED", commit_id: HEAD },
    ]);
    // On the pull_request event the number comes from the event payload.
    const moved = await applyPlan(w, planEnv);
    expect(moved.run.code).toBe(1);
    expect(refusal(moved.result, "apply.approvals-missing")).toContain(
      `the plan was made from commit ${HEAD.slice(0, 12)}, but the head of pull request #7 is ${OLD.slice(0, 12)}`,
    );
    expect(await sent(w.sb)).toEqual([]);
  }, 60_000);

  test.each([
    {
      what: "a token that would travel in the clear",
      env: { GITHUB_API_URL: "http://github.example.com" },
      says: "GITHUB_API_URL (http://github.example.com) is not https",
    },
    { what: "no token", env: { GITHUB_TOKEN: "" }, says: "GITHUB_TOKEN is not set" },
    {
      what: "a token GitHub refuses",
      env: { GITHUB_TOKEN: "ghs_wrong" },
      says: "GitHub refused the token (401)",
    },
    { what: "no pull request", env: {}, flags: [], says: "no pull request to read approvals from" },
  ])(
    "$what: nothing is sent, and the token is not printed",
    async ({ env, flags, says }) => {
      const { w, gh, applyEnv } = await refusalWorld(HEAD, [
        { user: ERIN, state: "APPROVED", commit_id: HEAD },
        { user: FRANK, state: "APPROVED", commit_id: HEAD },
      ]);
      const refused = await applyPlan(w, { ...applyEnv, ...env }, ...(flags ?? ["--pull-request", "7"]));
      expect(refused.run.code).toBe(1);
      expect(refusal(refused.result, "apply.approvals-unavailable")).toContain(says);
      expect(await sent(w.sb)).toEqual([]);
      if (says.includes("https")) expect(gh.requests).toEqual([]);
    },
    60_000,
  );
  test("reviews beyond the pages read are never left out silently: a later request for changes could withdraw an approval", async () => {
    const { w, gh, planEnv, applyEnv } = await setUp();
    const planned = await runCli(["plan", "examples", "--out", "plan.json"], { cwd: w.dir, env: planEnv });
    expect(planned.code, planned.stderr).toBe(0);
    // Erin and Frank approve the head first; 3000 comments later Frank requests changes (review 4001).
    gh.reviews = [
      { user: ERIN, state: "APPROVED", commit_id: HEAD },
      { user: FRANK, state: "APPROVED", commit_id: HEAD },
      ...Array.from({ length: 2999 }, () => ({
        user: { login: "gus", id: 4 },
        state: "COMMENTED",
        commit_id: HEAD,
      })),
      { user: FRANK, state: "CHANGES_REQUESTED", commit_id: HEAD },
    ];
    const refused = await applyPlan(w, applyEnv, "--pull-request", "7");
    expect(refused.run.code).toBe(1);
    expect(refusal(refused.result, "apply.approvals-unavailable")).toContain("3000 reviews or more");
    expect(await sent(w.sb)).toEqual([]);
  });
});
