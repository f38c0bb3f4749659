/**
 * The CI pipelines in examples/ci/ parse, have the triggers, jobs and concurrency they promise, and
 * every `campaignctl` command in them is a real command with real flags: each is extracted from the
 * workflow's scripts and run, in order, against the embedded sandbox in a temp dir holding a copy of
 * the example campaign as `campaigns/`. The plan pipelines run for every pull request (a required
 * check must always report) and skip the plan when no campaign file changed: that shell is run in
 * real git repositories. README step 6 and docs/ci.md name exactly the secrets and variables the
 * pipelines read.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import { runCli } from "../helpers/run-cli.js";

type Doc = Record<string, unknown>;

/** A GitHub Actions expression, `${{ e }}`. */
const expr = (e: string) => `\${{ ${e} }}`;

/** A mapping member that must be there. */
function at(doc: unknown, key: string): Doc {
  const value = (doc as Doc)[key];
  if (typeof value !== "object" || value === null) throw new Error(`no ${key}`);
  return value as Doc;
}

function load(path: string): Doc {
  return parse(readFileSync(path, "utf8")) as Doc;
}

const VERSION = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;

const GH_PLAN = "examples/ci/github/campaign-plan.yml";
const GH_APPLY = "examples/ci/github/campaign-apply.yml";
const GITLAB = "examples/ci/gitlab/.gitlab-ci.yml";

/** The shell scripts of a GitHub workflow's steps, or of a GitLab pipeline's jobs, in order. */
function scripts(doc: Doc): string[] {
  const out: string[] = [];
  const jobs = (doc.jobs ?? doc) as Record<string, Doc>;
  for (const job of Object.values(jobs)) {
    if (typeof job !== "object" || job === null) continue;
    for (const step of (job.steps as Doc[] | undefined) ?? [])
      if (typeof step.run === "string") out.push(step.run);
    for (const line of (job.script as string[] | undefined) ?? []) out.push(line);
  }
  return out;
}

/** The step that installs campaignctl with the setup action (action.yml at the repository root). */
function installStep(steps: readonly Doc[]): Doc | undefined {
  return steps.find((s) => s.name === "Install campaignctl");
}

/**
 * Runs a shell script as a CI step does (`bash -e`), in `cwd`, with a GITHUB_OUTPUT file; without
 * ~/.bashrc, as on a runner: a bash whose stdin is a socket (node's pipes are) reads it as if run
 * by sshd, whatever the machine put there (pyenv's setup: 110 ms of CPU a run on the development
 * machine, and output that is not the step's).
 */
function runShell(script: string, cwd: string, env: Record<string, string> = {}) {
  const output = join(mkdtempSync(join(tmpdir(), "campaignctl-ci-out-")), "output");
  writeFileSync(output, "");
  const result = spawnSync("bash", ["--noprofile", "--norc", "-e", "-o", "pipefail", "-c", script], {
    cwd,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), GITHUB_OUTPUT: output, ...env },
  });
  return { code: result.status, stdout: result.stdout, output: readFileSync(output, "utf8") };
}

/** `git` in `cwd` with an identity of its own; its output trimmed. */
function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=ci", "-c", "user.email=ci@example.invalid", ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

/** Writes files (path: text) under `dir`. */
function write(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** The files of every pull request's base commit. */
const BASE_FILES = { "campaigns/gotv.yaml": "version: 1\n", "README.md": "# campaigns\n" };

let baseRepo: { dir: string; base: string } | undefined;

/** A repository holding only the base commit, made once for the file; copied, never changed. */
function baseRepository(): { dir: string; base: string } {
  if (baseRepo === undefined) {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-ci-git-base-"));
    git(dir, "init", "--quiet");
    write(dir, BASE_FILES);
    git(dir, "add", "-A");
    git(dir, "commit", "--quiet", "-m", "base");
    baseRepo = { dir, base: git(dir, "rev-parse", "HEAD") };
  }
  return baseRepo;
}

const pullRequests = new Map<string, { dir: string; base: string }>();

/**
 * A repository with a base commit and, on top of it, a pull request's commit changing `changed`:
 * a copy of the base repository (one `git init` and base commit for the file, not one per
 * repository), made once per `changed` and shared by the GitHub and GitLab cases, which only read
 * it (the GitLab ones clone it).
 */
function pullRequestRepo(changed: Record<string, string>): { dir: string; base: string } {
  const key = JSON.stringify(changed);
  const made = pullRequests.get(key);
  if (made !== undefined) return made;
  const { dir: baseDir, base } = baseRepository();
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-ci-git-"));
  cpSync(baseDir, dir, { recursive: true });
  write(dir, changed);
  git(dir, "add", "-A");
  git(dir, "commit", "--quiet", "-m", "pull request");
  pullRequests.set(key, { dir, base });
  return { dir, base };
}

/** Which files changing starts the plan (true) or lets it pass at once (false). */
const CHANGE_CASES: readonly { what: string; changed: Record<string, string>; plans: boolean }[] = [
  { what: "only a README", changed: { "README.md": "# campaigns, edited\n" }, plans: false },
  { what: "a file outside campaigns/", changed: { "docs/notes.md": "notes\n" }, plans: false },
  { what: "a campaign file", changed: { "campaigns/gotv.yaml": "version: 1\n# edited\n" }, plans: true },
  { what: "a new campaign file", changed: { "campaigns/sub/new.yaml": "version: 1\n" }, plans: true },
  { what: "a policy at the root", changed: { "campaignctl.policy.yaml": "version: 1\n" }, plans: true },
  { what: "a .yml policy at the root", changed: { "campaignctl.policy.yml": "version: 1\n" }, plans: true },
];

/** Each shell line that runs campaignctl, continuation lines joined. */
function campaignctlLines(doc: Doc): string[] {
  return scripts(doc)
    .flatMap((s) => s.replace(/\\\n\s*/g, " ").split("\n"))
    .map((l) => l.trim())
    .filter((l) => /^campaignctl\s/.test(l));
}

/** Shell words of a simple command line: double and single quotes, $VAR and ${VAR} from `vars`. */
function words(line: string, vars: Record<string, string>): string[] {
  const expand = (s: string) =>
    s.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_, name: string) => {
      const value = vars[name];
      if (value === undefined) throw new Error(`unknown variable ${name} in: ${line}`);
      return value;
    });
  const out: string[] = [];
  for (const m of line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) {
    if (m[1] !== undefined) out.push(expand(m[1]));
    else if (m[2] !== undefined) out.push(m[2]);
    else out.push(expand(m[3] ?? ""));
  }
  return out;
}

/** The exit code each command of the pipelines must give on the example campaign. */
function expectedCode(argv: readonly string[]): number {
  switch (argv[0]) {
    case "validate":
    case "preview":
      return 0;
    case "plan":
      return 2; // actions pending: the example campaign has test sends and a pause to do
    case "apply":
      return 0; // done or deferred (a schedule waits for its test's approval)
    default:
      throw new Error(`a command the pipelines should not run: ${argv[0]}`);
  }
}

/** A fresh temp dir holding a copy of the example campaign as `campaigns/`. */
function exampleCampaignCopy(): string {
  const cwd = mkdtempSync(join(tmpdir(), "campaignctl-ci-"));
  cpSync("examples", join(cwd, "campaigns"), { recursive: true });
  return cwd;
}

/**
 * Runs a pipeline's campaignctl lines in order in `cwd` (by default a fresh copy of the example
 * campaign; or a copy of where an earlier pipeline ran, to go on from its files).
 */
async function runPipeline(
  lines: readonly string[],
  pipelineVars: Record<string, string>,
  cwd = exampleCampaignCopy(),
) {
  // The CI's own variables, as the runner would set them.
  const vars = {
    GALLERY_URL: "https://github.com/o/r/actions/runs/1/artifacts/2",
    CI_JOB_URL: "https://gitlab.com/o/r/-/jobs/3",
    ...pipelineVars,
  };
  const results: { line: string; code: number; stderr: string }[] = [];
  for (const line of lines) {
    const [, command = "", ...rest] = words(line, vars);
    // Against the embedded sandbox instead of the API: no key, no network.
    const argv =
      command === "plan" || command === "apply" ? [command, "--sandbox", ...rest] : [command, ...rest];
    const result = await runCli(argv, { cwd, env: {} });
    results.push({ line, code: result.code, stderr: result.stderr });
    expect(result.stderr, line).not.toMatch(/unknown option|unknown command|too many arguments/i);
    expect(result.code, `${line}\n${result.stderr}`).toBe(expectedCode(argv));
  }
  return { cwd, results };
}

let planWorkflow: ReturnType<typeof runPipeline> | undefined;

/**
 * The plan workflow's campaignctl lines run once for the file (their checks with them), read by
 * its own test and gone on from, in a copy, by the apply workflow's: the apply job downloads what
 * the plan job saved.
 */
function planWorkflowRun(): ReturnType<typeof runPipeline> {
  planWorkflow ??= runPipeline(campaignctlLines(load(GH_PLAN)), { CAMPAIGN_DIR: "campaigns/" });
  return planWorkflow;
}

describe("GitHub Actions: campaign-plan.yml", () => {
  const doc = load(GH_PLAN);
  /** The step of the `changes` job that tells whether a campaign file changed. */
  const diffStep = () => (at(at(doc, "jobs"), "changes").steps as Doc[]).find((s) => s.id === "diff");

  test("runs on every pull request (no paths filter) and skips the plan job when no campaign file changed", () => {
    // A required check that never reports blocks the merge: the workflow always starts, and the
    // `plan` job is skipped (which passes a required check) when the `changes` job finds nothing.
    expect(doc.on).toEqual({ pull_request: null });
    const jobs = doc.jobs as Record<string, Doc>;
    expect(Object.keys(jobs)).toEqual(["changes", "plan"]);
    expect(jobs.changes?.outputs).toEqual({ campaigns: expr("steps.diff.outputs.campaigns") });
    expect((at(jobs, "changes").steps as Doc[])[0]?.with).toEqual({ "fetch-depth": 2 });
    expect(jobs.plan?.needs).toBe("changes");
    expect(jobs.plan?.if).toBe("needs.changes.outputs.campaigns == 'true'");
  });

  test.each(CHANGE_CASES)(
    "the changes job, when a pull request changes $what: plan $plans",
    ({ changed, plans }) => {
      const step = diffStep();
      const { dir } = pullRequestRepo(changed);
      const run = runShell(String(step?.run), dir, { CAMPAIGN_DIR: "campaigns/" });
      expect(run.code).toBe(0);
      expect(run.output).toBe(`campaigns=${plans}\n`);
      if (!plans) expect(run.stdout).toContain("No campaign file changed");
    },
  );

  test("the changes job plans when in doubt: the base commit was not fetched", () => {
    const step = diffStep();
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-ci-git-"));
    git(dir, "init", "--quiet");
    write(dir, { "README.md": "x\n" });
    git(dir, "add", "-A");
    git(dir, "commit", "--quiet", "-m", "only commit");
    const run = runShell(String(step?.run), dir, { CAMPAIGN_DIR: "campaigns/" });
    expect(run.output).toBe("campaigns=true\n");
  });

  test("one plan per pull request at a time, with a comment permission", () => {
    expect(doc.concurrency).toEqual({
      group: `campaign-plan-${expr("github.event.pull_request.number")}`,
      "cancel-in-progress": true,
    });
    expect(doc.permissions).toMatchObject({ "pull-requests": "write", contents: "read" });
    const steps = ((doc.jobs as Record<string, Doc>).plan?.steps ?? []) as Doc[];
    const names = steps.map((s) => s.name ?? s.uses);
    expect(names).toEqual([
      "actions/checkout@v4",
      "actions/setup-node@v4",
      "Install campaignctl",
      "Validate",
      "Plan",
      "Preview gallery",
      "Upload the preview gallery",
      "Upload the plan",
      "Post the plan as one sticky comment",
      "Check the plan's exit code",
    ]);
    // The setup action of this repository (action.yml), at this version's release tag.
    expect(installStep(steps)?.uses).toMatch(
      new RegExp(`^[\\w.-]+/campaignctl@v${VERSION.replaceAll(".", "\\.")}$`),
    );
    expect(installStep(steps)?.with).toEqual({
      version: VERSION,
      package: expr("vars.CAMPAIGNCTL_PACKAGE"),
      integrity: expr("vars.CAMPAIGNCTL_INTEGRITY"),
    });
    const upload = steps.find((s) => s.name === "Upload the plan");
    expect(upload?.with).toMatchObject({ name: "campaign-plan" });
    const comment = steps.find((s) => s.name === "Post the plan as one sticky comment");
    expect(comment?.run).toContain(
      "node .github/scripts/sticky-comment.mjs --body-file plan.md --marker campaignctl-plan",
    );
    expect(comment?.env).toMatchObject({ GITHUB_TOKEN: expr("github.token") });
    const plan = steps.find((s) => s.name === "Plan");
    expect(plan?.env).toEqual({
      CAMPAIGNCTL_API_KEY: expr("secrets.CAMPAIGNCTL_API_KEY"),
      GALLERY_URL: expr(
        "format('{0}/{1}/actions/runs/{2}#artifacts', github.server_url, github.repository, github.run_id)",
      ),
    });
  });

  test("its campaignctl commands run against the sandbox with the expected exit codes", async () => {
    const lines = campaignctlLines(doc);
    expect(lines.map((l) => l.split(" ")[1])).toEqual(["validate", "plan", "preview"]);
    const { cwd, results } = await planWorkflowRun();
    expect(results.map((r) => r.line)).toEqual(lines);
    for (const file of ["plan.json", "plan.md", "gallery/index.html"])
      expect(existsSync(join(cwd, file)), file).toBe(true);
    // The gallery artifact is built from the saved plan: it names the lists and the total cost.
    const gallery = readFileSync(join(cwd, "gallery/index.html"), "utf8");
    expect(gallery).toContain("Ward 3 Likely Voters");
    // The plan comment links the preview gallery artifact.
    expect(readFileSync(join(cwd, "plan.md"), "utf8")).toContain(
      "https://github.com/o/r/actions/runs/1/artifacts/2",
    );
  }, 90_000);
});

describe("GitHub Actions: campaign-apply.yml", () => {
  const doc = load(GH_APPLY);

  test("runs on pushes to main, never two at once, with the key from the secret store", () => {
    expect(doc.on).toEqual({ push: { branches: ["main"], paths: ["campaigns/**"] } });
    expect(doc.concurrency).toEqual({
      group: `campaign-apply-${expr("github.repository")}`,
      "cancel-in-progress": false,
    });
    const steps = ((doc.jobs as Record<string, Doc>).apply?.steps ?? []) as Doc[];
    // The same setup action and version as the plan workflow.
    const planSteps = ((load(GH_PLAN).jobs as Record<string, Doc>).plan?.steps ?? []) as Doc[];
    expect(installStep(steps)).toEqual(installStep(planSteps));
    const download = steps.find((s) => s.uses === "actions/download-artifact@v4");
    expect(download?.with).toMatchObject({
      name: "campaign-plan",
      "run-id": expr("steps.find.outputs.run"),
    });
    const apply = steps.find((s) => typeof s.run === "string" && s.run.startsWith("campaignctl apply"));
    // The token reads the pull request's reviews under require_approvals; only pull-requests: read.
    expect(apply?.env).toEqual({
      CAMPAIGNCTL_API_KEY: expr("secrets.CAMPAIGNCTL_API_KEY"),
      GITHUB_TOKEN: expr("github.token"),
      PULL_REQUEST: expr("steps.find.outputs.pr"),
    });
    expect(doc.permissions).toEqual({ contents: "read", actions: "read", "pull-requests": "read" });
    const upload = steps.find((s) => s.name === "Upload the apply reports");
    expect(String(at(upload, "with").path)).toContain("apply.xml");
    expect(String(at(upload, "with").path)).toContain("apply.md");
  });

  test("applies exactly the plan file the plan workflow saved", async () => {
    const lines = campaignctlLines(doc);
    expect(lines).toEqual([
      'campaignctl apply plan.json --require-policy --pull-request "$PULL_REQUEST" --junit apply.xml --markdown apply.md',
    ]);
    // Where the plan workflow ran (its lines run and checked once, planWorkflowRun), copied.
    const planned = await planWorkflowRun();
    expect(planned.results.map((r) => r.line)).toEqual(campaignctlLines(load(GH_PLAN)));
    const cwd = mkdtempSync(join(tmpdir(), "campaignctl-ci-apply-"));
    cpSync(planned.cwd, cwd, { recursive: true });
    await runPipeline(lines, { CAMPAIGN_DIR: "campaigns/", PULL_REQUEST: "7" }, cwd);
    for (const file of ["apply.xml", "apply.md"]) expect(existsSync(join(cwd, file)), file).toBe(true);
  }, 90_000);
});

describe("GitLab CI: .gitlab-ci.yml", () => {
  const doc = load(GITLAB);
  const jobs = doc as Record<string, Doc>;

  test("plans in merge-request pipelines and applies on the default branch, one apply at a time", () => {
    expect(doc.stages).toEqual(["plan", "apply"]);
    // Every merge request gets the job (no `changes:`): "Pipelines must succeed" never waits for a
    // pipeline that was not created; the job's first script passes at once when nothing changed.
    expect(jobs["campaign-plan"]?.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"' }]);
    expect((at(jobs, "default").before_script as string[])[0]).toBe(
      `env -u CAMPAIGNCTL_API_KEY npm install --global --no-audit --no-fund "\${CAMPAIGNCTL_PACKAGE:-github:your-org/campaignctl#v${VERSION}}"`,
    );
    expect(at(at(jobs, "campaign-plan"), "artifacts").paths).toEqual(["plan.json", "plan.md", "gallery/"]);
    expect(jobs["campaign-apply"]?.resource_group).toBe("campaign-apply");
    expect(String((at(jobs, "campaign-apply").rules as Doc[])[0]?.if)).toContain("$CI_DEFAULT_BRANCH");
    expect(at(at(at(jobs, "campaign-apply"), "artifacts"), "reports").junit).toBe("apply.xml");
    expect(scripts(doc).join("\n")).toContain(
      "node .gitlab/scripts/sticky-comment.mjs --gitlab --body-file plan.md",
    );
  });

  test.each(CHANGE_CASES)(
    "the plan job, when a merge request changes $what: plan $plans",
    ({ changed, plans }) => {
      const check = (at(jobs, "campaign-plan").script as string[])[0] ?? "";
      // The merge request's branch, cloned from the project as the runner does (shallow).
      const origin = pullRequestRepo(changed);
      const dir = mkdtempSync(join(tmpdir(), "campaignctl-ci-clone-"));
      git(dir, "clone", "--quiet", "--depth=1", `file://${origin.dir}`, ".");
      const run = runShell(`${check}\necho PLANNING`, dir, {
        CAMPAIGN_DIR: "campaigns/",
        CI_MERGE_REQUEST_DIFF_BASE_SHA: origin.base,
      });
      expect(run.code).toBe(0);
      expect(run.stdout.includes("PLANNING")).toBe(plans);
      if (!plans) expect(run.stdout).toContain("No campaign file changed");
    },
  );

  test("the plan job plans when in doubt: the base commit cannot be fetched", () => {
    const check = (at(jobs, "campaign-plan").script as string[])[0] ?? "";
    const origin = pullRequestRepo({ "README.md": "edited\n" });
    const run = runShell(`${check}\necho PLANNING`, origin.dir, {
      CAMPAIGN_DIR: "campaigns/",
      CI_MERGE_REQUEST_DIFF_BASE_SHA: "0123456789012345678901234567890123456789",
    });
    expect(run.stdout).toContain("PLANNING");
  });

  test("its campaignctl commands run against the sandbox with the expected exit codes", async () => {
    const lines = campaignctlLines(doc);
    expect(lines.map((l) => l.split(" ")[1])).toEqual(["validate", "preview", "plan", "apply"]);
    const vars = (doc.variables ?? {}) as Record<string, string>;
    const { cwd } = await runPipeline(lines, vars);
    for (const file of ["plan.json", "apply.xml", "apply.md"])
      expect(existsSync(join(cwd, file)), file).toBe(true);
  }, 90_000);
});

describe("the example campaign is not disturbed by the pipelines in examples/ci", () => {
  test("validate examples/ reads only the campaign files", async () => {
    const result = await runCli(["validate", "examples/", "--json"], { env: {} });
    const files = (JSON.parse(result.stdout) as { files: { path: string }[] }).files.map((f) => f.path);
    expect(files.filter((f) => f.includes("/ci/"))).toEqual([]);
    expect(result.code).toBe(0);
  });
});

describe("README step 6 and docs/ci.md name exactly the secrets and variables the pipelines read", () => {
  /** `secrets.NAME` and `vars.NAME` in the GitHub workflows' expressions: name → where it is kept. */
  const github = new Map<string, string>();
  for (const file of [GH_PLAN, GH_APPLY]) {
    for (const [, inner = ""] of readFileSync(file, "utf8").matchAll(/\$\{\{([^}]*)\}\}/g))
      for (const [, kind = "", name = ""] of inner.matchAll(/\b(secrets|vars)\.([A-Za-z_][A-Za-z0-9_]*)/g))
        github.set(name, kind);
  }

  /** The rows of docs/ci.md's table "Secrets and variables": name, GitHub cell, GitLab cell. */
  function docsRows(): { name: string; github: string; gitlab: string }[] {
    const text = readFileSync("docs/ci.md", "utf8");
    const section = text.slice(text.indexOf("\n## Secrets and variables\n"));
    const body = section.slice(1, section.indexOf("\n## ", 1));
    return body
      .split("\n")
      .filter((l) => /^\| `[A-Z]/.test(l))
      .map((l) => {
        const cells = l.split(" | ").map((c) => c.replace(/^\| |\s*\|$/g, "").trim());
        return { name: (cells[0] ?? "").replaceAll("`", ""), github: cells[2] ?? "", gitlab: cells[3] ?? "" };
      });
  }

  test("the workflows read a secret and two variables", () => {
    expect(Object.fromEntries(github)).toEqual({
      CAMPAIGNCTL_API_KEY: "secrets",
      CAMPAIGNCTL_PACKAGE: "vars",
      CAMPAIGNCTL_INTEGRITY: "vars",
    });
  });

  test("docs/ci.md: the GitHub column lists exactly those, each as the workflows read it", () => {
    const rows = docsRows().filter((r) => r.github !== "—");
    expect(rows.map((r) => r.name).sort()).toEqual([...github.keys()].sort());
    for (const row of rows) expect(row.github).toContain(`\`${github.get(row.name)}.${row.name}\``);
  });

  test("docs/ci.md: the GitLab column lists exactly the variables the pipeline's header names", () => {
    const text = readFileSync(GITLAB, "utf8");
    const header = [...text.matchAll(/^# {3}([A-Z][A-Z0-9_]+) /gm)].map((m) => m[1]);
    const rows = docsRows().filter((r) => r.gitlab !== "—");
    expect(rows.map((r) => r.name).sort()).toEqual([...header].sort());
    // Every variable the scripts read that GitLab or the pipeline itself does not set is listed;
    // and the API key, which campaignctl reads from the environment.
    const doc = load(GITLAB) as Record<string, Doc>;
    const own = Object.keys(doc.variables ?? {});
    const shell = [...((doc.default?.before_script as string[]) ?? []), ...scripts(doc)].join("\n");
    const read = [...shell.matchAll(/\$\{?([A-Z][A-Z0-9_]*)/g)]
      .map((m) => m[1] ?? "")
      .filter((name) => !name.startsWith("CI_") && !own.includes(name));
    expect(rows.map((r) => r.name)).toEqual(
      expect.arrayContaining([...new Set(read), "CAMPAIGNCTL_API_KEY"]),
    );
  });

  test("README step 6 names exactly the GitHub ones", () => {
    const readme = readFileSync("README.md", "utf8");
    const start = readme.indexOf("**6. Put it in CI");
    const step = readme.slice(start, readme.indexOf("\n## ", start));
    expect(start).toBeGreaterThan(0);
    const named = new Set([...step.matchAll(/`([A-Z][A-Z0-9_]{2,})`/g)].map((m) => m[1]));
    expect([...named].sort()).toEqual([...github.keys()].sort());
  });
});
