/**
 * Finding the policy files: every campaignctl.policy.yaml above each campaign file read, up to the
 * repository root (the first directory holding `.git`), never above it, combined as floors; files
 * that lead to different chains of policy files stop the run with policy.ambiguous unless --policy
 * is given; --policy adds to the policies found, never replaces them (issue 16).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { policyNearMiss } from "../../src/campaign/policy-file-name.js";
import { choosePolicies } from "../../src/policy/choose-policies.js";
import { type DirectoryLook, policyChain } from "../../src/policy/policy-chain.js";
import { runCli } from "../helpers/run-cli.js";

const FORBID_AT_NOW = "version: 1\nrules:\n  forbid_at_now: true\n";

/** A campaign file whose one project is scheduled `at: now` (line 15, column 11). */
const AT_NOW = `version: 1
organization: Riverside Democrats
projects:
  gotv-reminder:
    id: 9a000000-0000-4000-8000-000000000001
    channel: 10dlc
    brand: Riverside Democrats
    campaign: GOTV 2026
    phone_numbers: ["+15035550101"]
    contact_lists: [Ward 3 Likely Voters]
    name: GOTV Reminder
    message: "Polls are open 7am-7pm. Reply STOP to opt out"
    state: scheduled
    schedule:
      at: now
      timezone: America/Chicago
`;

/**
 * A temp dir `outer/` holding `repo/` (with a `.git` directory) and `repo/campaigns/gotv/gotv.yaml`;
 * `files` are written relative to `outer/`. Returns the repository root.
 */
function tree(files: Record<string, string>): string {
  const outer = mkdtempSync(join(tmpdir(), "campaignctl-policy-walk-"));
  const repo = join(outer, "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(join(repo, "campaigns", "gotv"), { recursive: true });
  writeFileSync(join(repo, "campaigns", "gotv", "gotv.yaml"), AT_NOW);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(outer, path, ".."), { recursive: true });
    writeFileSync(join(outer, path), text);
  }
  return repo;
}

describe("policy discovery", () => {
  test.each([["campaigns/gotv/"], ["campaigns/gotv/gotv.yaml"]])(
    "a policy at the repository root applies to %s",
    async (given) => {
      const cwd = tree({ "repo/campaignctl.policy.yaml": FORBID_AT_NOW });
      const r = await runCli(["validate", given], { cwd });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(
        "campaigns/gotv/gotv.yaml:15:11: error[policy.forbid-at-now]: gotv-reminder:",
      );
      expect(r.stdout).toContain("note: the policy's rule forbid_at_now at campaignctl.policy.yaml:3:3");
      // From a subdirectory, the same policy, shown as the path was given.
      const below = await runCli(["validate", "."], { cwd: join(cwd, "campaigns", "gotv") });
      expect(below.code).toBe(1);
      expect(below.stdout).toContain("gotv.yaml:15:11: error[policy.forbid-at-now]");
      expect(below.stdout).toContain("at ../../campaignctl.policy.yaml:3:3");
    },
  );

  test.each([
    ["a .git directory", "dir"],
    ["a .git file (a submodule, a worktree)", "file"],
  ])("a nested repository (%s) does not end the search: the root policy applies", async (_, kind) => {
    const repo = tree({ "repo/campaignctl.policy.yaml": FORBID_AT_NOW });
    const nested = join(repo, "campaigns", "gotv");
    if (kind === "dir") mkdirSync(join(nested, ".git"));
    else writeFileSync(join(nested, ".git"), "gitdir: ../../.git/modules/gotv\n");
    const cwd = join(repo, "..");
    const r = await runCli(["validate", "repo/campaigns/gotv/"], { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("repo/campaigns/gotv/gotv.yaml:15:11: error[policy.forbid-at-now]");
    expect(r.stdout).toContain("policy: repo/campaignctl.policy.yaml");
  });

  test("a root policy named campaignctl.policy.yml applies, and is never read as a campaign file", async () => {
    const cwd = tree({ "repo/campaignctl.policy.yml": FORBID_AT_NOW });
    const r = await runCli(["validate", "."], { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("campaigns/gotv/gotv.yaml:15:11: error[policy.forbid-at-now]");
    expect(r.stdout).toContain("policy: campaignctl.policy.yml\n1 file, 1 project: 1 error");
    const json = await runCli(["validate", ".", "--json"], { cwd });
    expect(JSON.parse(json.stdout)).toMatchObject({
      files: [{ path: "campaigns/gotv/gotv.yaml" }],
      policy_files: ["campaignctl.policy.yml"],
    });
  });

  test("both spellings in one directory are policy.ambiguous", async () => {
    const cwd = tree({
      "repo/campaignctl.policy.yml": FORBID_AT_NOW,
      "repo/campaignctl.policy.yaml": FORBID_AT_NOW,
    });
    const r = await runCli(["validate", "campaigns/"], { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      "error[policy.ambiguous]: two policy files in one directory: campaignctl.policy.yaml and campaignctl.policy.yml",
    );
  });

  test.each([
    ["Campaignctl.policy.yaml", "campaignctl.policy.yaml"],
    ["campaignctl.polcy.yaml", "campaignctl.policy.yaml"],
    ["campaigncl.policy.yml", "campaignctl.policy.yml"],
  ])("a misspelt root policy (%s) stops the run, naming it", async (name, meant) => {
    const cwd = tree({ [`repo/${name}`]: FORBID_AT_NOW });
    for (const given of ["campaigns/gotv/", "."]) {
      const r = await runCli(["validate", given], { cwd });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(
        `${name}:1:1: error[policy.file-misnamed]: ${name} looks like a policy file but is not named campaignctl.policy.yaml or campaignctl.policy.yml, so it is not read: did you mean ${meant}?`,
      );
      // Never read as a campaign file either.
      expect(r.stdout).not.toContain("campaign.");
    }
    const plan = await runCli(["plan", "--sandbox", "campaigns/gotv/"], { cwd, env: {} });
    expect(plan.code).toBe(1);
    expect(plan.stdout + plan.stderr).toContain("error[policy.file-misnamed]");
  });

  test("--require-policy fails a run that finds no policy, and passes one that does", async () => {
    const cwd = tree({});
    const bare = await runCli(["validate", "campaigns/gotv/"], { cwd });
    // No policy applies: the run says so (the floor that is missing is the one to see), and passes.
    expect(bare.code).toBe(0);
    expect(bare.stdout).toContain("policy: none\n");
    expect(bare.stdout).not.toContain("policy.");
    const required = await runCli(["validate", "campaigns/gotv/", "--require-policy"], { cwd });
    expect(required.code).toBe(1);
    expect(required.stdout).toContain(
      "error[policy.required]: --require-policy: no policy file applies to the campaign file",
    );
    const json = await runCli(["validate", "campaigns/gotv/", "--require-policy", "--json"], { cwd });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      policy_files: [],
      diagnostics: [expect.objectContaining({ code: "policy.required", severity: "error" })],
    });
    for (const command of [["plan"], ["apply", "--auto-approve"]]) {
      const r = await runCli([...command, "--sandbox", "campaigns/gotv/", "--require-policy"], {
        cwd,
        env: {},
      });
      expect(r.code, command[0]).toBe(1);
      expect(r.stdout + r.stderr).toContain("error[policy.required]");
    }
    writeFileSync(join(cwd, "lenient.yaml"), "version: 1\nrules:\n  max_estimated_cost_usd: 500\n");
    const named = await runCli(
      ["validate", "campaigns/gotv/", "--require-policy", "--policy", "lenient.yaml"],
      { cwd },
    );
    expect(named.code, named.stdout + named.stderr).toBe(0);
    expect(named.stdout).toContain("policy: lenient.yaml\n");
    writeFileSync(join(cwd, "campaignctl.policy.yaml"), FORBID_AT_NOW);
    const found = await runCli(["validate", "campaigns/gotv/", "--require-policy"], { cwd });
    expect(found.code).toBe(1);
    expect(found.stdout).toContain("error[policy.forbid-at-now]");
    expect(found.stdout).not.toContain("policy.required");
  });

  test("a policy above the repository root is not read, and never in silence: an error naming it", async () => {
    const cwd = tree({ "campaignctl.policy.yaml": FORBID_AT_NOW });
    const r = await runCli(["validate", "campaigns/gotv/", "--json"], { cwd });
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as {
      policy_files: string[];
      diagnostics: { code: string; message: string }[];
    };
    expect(doc.policy_files).toEqual([]);
    expect(doc.diagnostics.map((d) => d.code)).toEqual(["policy.outside-repository"]);
    expect(doc.diagnostics[0]?.message).toContain(
      "../campaignctl.policy.yaml is a policy file above the outermost repository root . (it holds .git)",
    );
    // Named with --policy, it is read (and applies): no error about it.
    const named = await runCli(["validate", "campaigns/gotv/", "--policy", "../campaignctl.policy.yaml"], {
      cwd,
    });
    expect(named.code).toBe(1);
    expect(named.stdout).toContain("error[policy.forbid-at-now]");
    expect(named.stdout).not.toContain("policy.outside-repository");
  });

  test("a tree without its root's .git and a stray .git below (a copy, a Docker context): the root policy is not lost in silence", async () => {
    const outer = mkdtempSync(join(tmpdir(), "campaignctl-policy-export-"));
    mkdirSync(join(outer, "campaigns", "gotv"), { recursive: true });
    writeFileSync(join(outer, "campaigns", "gotv", "gotv.yaml"), AT_NOW);
    writeFileSync(join(outer, "campaigns", "gotv", ".git"), "gitdir: ../../.git/modules/gotv\n");
    writeFileSync(join(outer, "campaignctl.policy.yaml"), FORBID_AT_NOW);
    // The team's own policy below the stray .git satisfies --require-policy: the root's must still not vanish.
    writeFileSync(
      join(outer, "campaigns", "gotv", "campaignctl.policy.yaml"),
      "version: 1\nrules:\n  min_test_contacts: 0\n",
    );
    const r = await runCli(["validate", "campaigns/gotv/", "--require-policy"], { cwd: outer });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(
      "error[policy.outside-repository]: campaignctl.policy.yaml is a policy file above the outermost repository root campaigns/gotv",
    );
  });

  test("policies above a file combine; files that lead to different chains stop with policy.ambiguous", async () => {
    const cwd = tree({
      "repo/campaignctl.policy.yaml": FORBID_AT_NOW,
      "repo/campaigns/gotv/campaignctl.policy.yaml": "version: 1\nrules:\n  min_test_contacts: 1\n",
      "repo/campaigns/early/campaignctl.policy.yaml": FORBID_AT_NOW,
      "repo/campaigns/early/early.yaml": AT_NOW.replace("gotv-reminder", "early-vote").replace(
        "0001",
        "0002",
      ),
    });
    // gotv's own policy does not mention `at: now`: the root's rule still holds for it.
    const nearest = await runCli(["validate", "campaigns/gotv/"], { cwd });
    expect(nearest.code).toBe(1);
    expect(nearest.stdout).toContain("campaigns/gotv/gotv.yaml:15:11: error[policy.forbid-at-now]");

    const both = await runCli(["validate", "campaigns/gotv/", "campaigns/early/"], { cwd });
    expect(both.code).toBe(1);
    expect(both.stdout + both.stderr).toContain(
      "error[policy.ambiguous]: the campaign files lead to different policy files: " +
        "campaigns/gotv/campaignctl.policy.yaml (nearest to campaigns/gotv/gotv.yaml), " +
        "campaigns/early/campaignctl.policy.yaml (nearest to campaigns/early/early.yaml)",
    );
    expect(both.stdout + both.stderr).toContain("--policy FILE");
    expect(both.stdout + both.stderr).toContain(
      "campaignctl.policy.yaml (nearest to campaigns/gotv/gotv.yaml)",
    );
    const plan = await runCli(["plan", "--sandbox", "campaigns/gotv/", "campaigns/early/"], { cwd, env: {} });
    expect(plan.code).toBe(1);
    expect(plan.stdout + plan.stderr).toContain("policy.ambiguous");

    // --policy resolves it: every policy found is a floor, and --policy goes on top.
    const named = await runCli(
      ["validate", "campaigns/gotv/", "campaigns/early/", "--policy", "campaignctl.policy.yaml"],
      { cwd },
    );
    expect(named.code).toBe(1);
    expect(named.stdout).not.toContain("policy.ambiguous");
    expect(named.stdout).toContain("campaigns/gotv/gotv.yaml:15:11: error[policy.forbid-at-now]");
    expect(named.stdout).toContain("campaigns/early/early.yaml:15:11: error[policy.forbid-at-now]");
  });

  test("a policy inside the directory given is found from the files under it", async () => {
    const cwd = tree({ "repo/campaigns/gotv/campaignctl.policy.yaml": FORBID_AT_NOW });
    for (const given of ["campaigns/", "."]) {
      const r = await runCli(["validate", given], { cwd });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(
        "campaigns/gotv/gotv.yaml:15:11: error[policy.forbid-at-now]: gotv-reminder:",
      );
      expect(r.stdout).toContain(
        "note: the policy's rule forbid_at_now at campaigns/gotv/campaignctl.policy.yaml:3:3",
      );
    }
  });

  test("a directory whose files lead to a nested policy and an outer one is policy.ambiguous", async () => {
    const cwd = tree({
      "repo/campaignctl.policy.yaml": FORBID_AT_NOW,
      "repo/campaigns/gotv/campaignctl.policy.yaml": "version: 1\nrules:\n  min_test_contacts: 1\n",
      "repo/campaigns/other.yaml": AT_NOW.replace("gotv-reminder", "other").replace("0001", "0002"),
    });
    const r = await runCli(["validate", "campaigns/"], { cwd });
    expect(r.code).toBe(1);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toBe(
      "error[policy.ambiguous]: the campaign files lead to different policy files: " +
        "campaigns/gotv/campaignctl.policy.yaml (nearest to campaigns/gotv/gotv.yaml), " +
        "campaignctl.policy.yaml (nearest to campaigns/other.yaml)",
    );
    expect(r.stdout).not.toContain("error[policy.forbid-at-now]");
    const json = await runCli(["validate", "campaigns/", "--json"], { cwd });
    const doc = JSON.parse(json.stdout) as { diagnostics: { code: string; range?: unknown }[] };
    expect(doc.diagnostics.filter((d) => d.code.startsWith("policy."))).toEqual([
      expect.objectContaining({ code: "policy.ambiguous" }),
    ]);
  });

  test("a file with no policy above it takes the policy the run's other files lead to", async () => {
    const cwd = tree({
      "repo/campaigns/gotv/campaignctl.policy.yaml": FORBID_AT_NOW,
      "loose/other.yaml": AT_NOW.replace("gotv-reminder", "other").replace("0001", "0002"),
    });
    const r = await runCli(["validate", "campaigns/", "../loose/"], { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain("policy.ambiguous");
    expect(r.stdout).toContain("campaigns/gotv/gotv.yaml:15:11: error[policy.forbid-at-now]");
    expect(r.stdout).toContain("../loose/other.yaml:15:11: error[policy.forbid-at-now]");
  });

  test("a run with no campaign files has no discovered policy", async () => {
    const cwd = tree({
      "repo/empty/campaignctl.policy.yaml": "version: 1\nrules:\n  forbid_at_now: maybe\n",
    });
    const r = await runCli(["validate", "empty/"], { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain("error[cli.no-input]");
    expect(r.stdout + r.stderr).not.toContain("policy.");
  });

  test.each([
    [
      "--policy to a file with another rule",
      { "repo/lenient.yaml": "version: 1\nrules:\n  min_test_contacts: 1\n" },
      ["--policy", "lenient.yaml"],
    ],
    [
      "--policy to an empty policy",
      { "repo/empty.yaml": "version: 1\nrules: {}\n" },
      ["--policy", "empty.yaml"],
    ],
    [
      "an empty nearer policy file",
      { "repo/campaigns/gotv/campaignctl.policy.yaml": "version: 1\nrules: {}\n" },
      [],
    ],
  ])("%s keeps the root policy's forbid_at_now", async (_name, files, flags) => {
    const cwd = tree({ "repo/campaignctl.policy.yaml": FORBID_AT_NOW, ...files });
    const r = await runCli(["validate", "campaigns/gotv/", ...flags], { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("campaigns/gotv/gotv.yaml:15:11: error[policy.forbid-at-now]");
    expect(r.stdout).toContain("note: the policy's rule forbid_at_now at campaignctl.policy.yaml:3:3");
  });

  test("a nearer policy that sets a looser value is refused unless it says loosens:", async () => {
    const looser = "version: 1\nrules:\n  forbid_at_now: false\n";
    const cwd = tree({
      "repo/campaignctl.policy.yaml": FORBID_AT_NOW,
      "repo/campaigns/gotv/campaignctl.policy.yaml": looser,
    });
    const refused = await runCli(["validate", "campaigns/gotv/"], { cwd });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(
      "campaigns/gotv/campaignctl.policy.yaml:3:3: error[policy.loosens-ancestor]: campaigns/gotv/campaignctl.policy.yaml sets forbid_at_now to off, looser than campaignctl.policy.yaml's on",
    );
    writeFileSync(join(cwd, "campaigns/gotv/campaignctl.policy.yaml"), `${looser}loosens: [forbid_at_now]\n`);
    const loosened = await runCli(["validate", "campaigns/gotv/"], { cwd });
    expect(loosened.code).toBe(0);
    expect(loosened.stdout).not.toContain("error[policy.forbid-at-now]");
    expect(loosened.stdout).toContain(
      "warning[policy.loosened]: the policy's forbid_at_now is loosened by campaigns/gotv/campaignctl.policy.yaml: on -> off",
    );
  });

  test("--loosen-policy turns a rule off for the run, visibly; plan --json records it", async () => {
    const cwd = tree({ "repo/campaignctl.policy.yaml": FORBID_AT_NOW });
    const r = await runCli(["validate", "campaigns/gotv/", "--loosen-policy", "forbid_at_now", "--json"], {
      cwd,
    });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      diagnostics: { code: string; severity: string; message: string }[];
    };
    expect(doc.diagnostics.filter((d) => d.code.startsWith("policy."))).toEqual([
      expect.objectContaining({
        severity: "warning",
        code: "policy.loosened",
        message: "the policy's forbid_at_now is loosened by --loosen-policy: on -> off",
      }),
    ]);
    const strict = await runCli(
      ["validate", "campaigns/gotv/", "--loosen-policy", "forbid_at_now", "--strict"],
      { cwd },
    );
    expect(strict.code).toBe(1);
    const typo = await runCli(["validate", "campaigns/gotv/", "--loosen-policy", "forbid_now"], { cwd });
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain("not a policy rule");
  });

  test("a policy file that exists but cannot be read is an error, never skipped", async () => {
    const cwd = tree({});
    mkdirSync(join(cwd, "campaignctl.policy.yaml"));
    const r = await runCli(["validate", "campaigns/gotv/"], { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(
      "error[cli.file-unreadable]: cannot read the policy file campaignctl.policy.yaml: it is a directory, not a regular file",
    );
  });
});

describe("the walk up (a file system given as a table)", () => {
  const NAME = "campaignctl.policy.yaml";
  type Dir = Partial<DirectoryLook>;
  const walk = (fs: Record<string, Dir>, start = "/r/c/g") => {
    const w = policyChain({ absolute: start, shown: "c/g" }, (dir) => ({
      policies: fs[dir]?.policies ?? [],
      nearMisses: fs[dir]?.nearMisses ?? [],
      repository: fs[dir]?.repository ?? false,
    }));
    return { chain: w.chain.map((p) => p.shown), nearMisses: w.nearMisses.map((p) => p.shown) };
  };

  test.each<[string, Record<string, Dir>, string[]]>([
    [
      "every one up from the start directory, farthest first",
      { "/r/c/g": { policies: [NAME] }, "/r": { policies: [NAME] } },
      [`${NAME}`, `c/g/${NAME}`],
    ],
    ["a parent", { "/r/c": { policies: [NAME] } }, [`c/${NAME}`]],
    ["at the repository root", { "/r": { repository: true, policies: [NAME] } }, [NAME]],
    ["not above the repository root", { "/r": { repository: true }, "/": { policies: [NAME] } }, []],
    ["up to the filesystem root without a repository", { "/": { policies: [NAME] } }, [`../${NAME}`]],
    [
      "a nested repository does not end the walk: the outermost one does",
      {
        "/r/c/g": { repository: true },
        "/r/c": { repository: true, policies: [NAME] },
        "/r": { repository: true, policies: ["campaignctl.policy.yml"] },
        "/": { policies: [NAME] },
      },
      ["campaignctl.policy.yml", `c/${NAME}`],
    ],
    ["the .yml spelling", { "/r/c": { policies: ["campaignctl.policy.yml"] } }, ["c/campaignctl.policy.yml"]],
  ])("%s", (_, fs, shown) => {
    expect(walk(fs).chain).toEqual(shown);
  });

  test("policy files above the outermost repository root are returned apart, never in the chain", () => {
    const w = policyChain({ absolute: "/r/c/g", shown: "c/g" }, (dir) => ({
      policies: dir === "/" || dir === "/r" ? [NAME] : [],
      nearMisses: [],
      repository: dir === "/r/c",
    }));
    expect(w.chain).toEqual([]);
    expect(w.outside.map((p) => [p.shown, p.root.shown])).toEqual([
      [`../${NAME}`, "c"],
      [NAME, "c"],
    ]);
    // Without a repository, the walk reads up to the filesystem root: nothing is outside.
    const bare = policyChain({ absolute: "/r/c/g", shown: "c/g" }, () => ({
      policies: [NAME],
      nearMisses: [],
      repository: false,
    }));
    expect(bare.outside).toEqual([]);
    expect(bare.chain).toHaveLength(4);
  });

  test("misspelt policy files on the way are reported, up to the outermost repository only", () => {
    expect(
      walk({
        "/r/c/g": { nearMisses: ["Campaignctl.policy.yaml"], repository: true },
        "/r": { repository: true, nearMisses: ["campaignctl.polcy.yaml"] },
        "/": { nearMisses: ["campaigncl.policy.yaml"] },
      }).nearMisses,
    ).toEqual(["campaignctl.polcy.yaml", "c/g/Campaignctl.policy.yaml"]);
  });

  test.each<[string, string | undefined]>([
    ["Campaignctl.policy.yaml", "campaignctl.policy.yaml"],
    ["CAMPAIGNCTL.POLICY.YML", "campaignctl.policy.yml"],
    ["campaignctl.polcy.yaml", "campaignctl.policy.yaml"],
    ["campaigncl.policy.yaml", "campaignctl.policy.yaml"],
    ["campaignctl-policy.yaml", "campaignctl.policy.yaml"],
    ["campaignctl.policies.yaml", "campaignctl.policy.yaml"],
    [".campaignctl.policy.yaml", "campaignctl.policy.yaml"],
    ["campaignctl.policy.yaml", undefined],
    ["campaignctl.policy.yml", undefined],
    ["campaignctl.yaml", undefined],
    ["gotv.yaml", undefined],
    ["voting-policy.yaml", undefined],
    ["policy.yaml", undefined],
    ["campaignctl.policy.yaml~", undefined],
    ["campaignctl.policy.yaml.bak", undefined],
    ["campaignctl.policy.yml.orig", undefined],
    ["Campaignctl.policy.yaml~", "campaignctl.policy.yaml"],
  ])("a file named %s is a near miss of %s", (name, meant) => {
    expect(policyNearMiss(name)).toBe(meant);
  });

  test("two spellings of one file are one policy; two chains are policy.ambiguous, each named once", () => {
    const at = (file: string, shown: string, identity: string) => ({
      file,
      chain: [{ absolute: identity, shown, identity }],
    });
    expect(choosePolicies([], false)).toEqual({ kind: "layers", layers: [] });
    const one = choosePolicies(
      [at("a/x.yaml", "p.yaml", "/r/p"), at("/r/a/y.yaml", "/r/p.yaml", "/r/p")],
      false,
    );
    expect(one.kind === "layers" && one.layers.map((l) => l.shown)).toEqual(["p.yaml"]);
    const files = [
      at("a/x.yaml", "a/p.yaml", "/r/a/p"),
      at("a/y.yaml", "a/p.yaml", "/r/a/p"),
      at("b/x.yaml", "b/p.yaml", "/r/b/p"),
      at("b/y.yaml", "b/p.yaml", "/r/b/p"),
    ];
    const withFlag = choosePolicies(files, true);
    expect(withFlag.kind === "layers" && withFlag.layers.map((l) => l.shown)).toEqual([
      "a/p.yaml",
      "b/p.yaml",
    ]);
    const two = choosePolicies(files, false);
    expect(two.kind === "ambiguous" && two.diagnostic).toMatchObject({
      severity: "error",
      code: "policy.ambiguous",
      message:
        "the campaign files lead to different policy files: a/p.yaml (nearest to a/x.yaml), b/p.yaml (nearest to b/x.yaml)",
    });
  });
});
