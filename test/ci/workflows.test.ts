/**
 * The CI pipelines in examples/ci/ parse, have the triggers, jobs and concurrency they promise, and
 * every `campaignctl` command in them is a real command with real flags: each is extracted from the
 * workflow's scripts and run, in order, against the embedded sandbox in a temp dir holding a copy of
 * the example campaign as `campaigns/`.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

/** Runs a pipeline's campaignctl lines in order in a fresh copy of the example campaign. */
async function runPipeline(lines: readonly string[], pipelineVars: Record<string, string>) {
  // The CI's own variables, as the runner would set them.
  const vars = {
    GALLERY_URL: "https://github.com/o/r/actions/runs/1/artifacts/2",
    CI_JOB_URL: "https://gitlab.com/o/r/-/jobs/3",
    ...pipelineVars,
  };
  const cwd = mkdtempSync(join(tmpdir(), "campaignctl-ci-"));
  cpSync("examples", join(cwd, "campaigns"), { recursive: true });
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

describe("GitHub Actions: campaign-plan.yml", () => {
  const doc = load(GH_PLAN);

  test("runs on pull requests, one plan per pull request at a time, with a comment permission", () => {
    expect(Object.keys(doc.on as Doc)).toEqual(["pull_request"]);
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
      "Preview gallery",
      "Upload the preview gallery",
      "Plan",
      "Upload the plan",
      "Post the plan as one sticky comment",
      "Check the plan's exit code",
    ]);
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
      GALLERY_URL: expr("steps.gallery.outputs.artifact-url"),
    });
  });

  test("its campaignctl commands run against the sandbox with the expected exit codes", async () => {
    const lines = campaignctlLines(doc);
    expect(lines.map((l) => l.split(" ")[1])).toEqual(["validate", "preview", "plan"]);
    const { cwd } = await runPipeline(lines, { CAMPAIGN_DIR: "campaigns/" });
    for (const file of ["plan.json", "plan.md", "gallery/index.html"])
      expect(existsSync(join(cwd, file)), file).toBe(true);
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
    const download = steps.find((s) => s.uses === "actions/download-artifact@v4");
    expect(download?.with).toMatchObject({
      name: "campaign-plan",
      "run-id": expr("steps.find.outputs.run"),
    });
    const apply = steps.find((s) => typeof s.run === "string" && s.run.startsWith("campaignctl apply"));
    expect(apply?.env).toEqual({ CAMPAIGNCTL_API_KEY: expr("secrets.CAMPAIGNCTL_API_KEY") });
    const upload = steps.find((s) => s.name === "Upload the apply reports");
    expect(String(at(upload, "with").path)).toContain("apply.xml");
    expect(String(at(upload, "with").path)).toContain("apply.md");
  });

  test("applies exactly the plan file the plan workflow saved", async () => {
    const lines = [...campaignctlLines(load(GH_PLAN)), ...campaignctlLines(doc)];
    expect(campaignctlLines(doc)).toEqual([
      "campaignctl apply plan.json --junit apply.xml --markdown apply.md",
    ]);
    const { cwd } = await runPipeline(lines, { CAMPAIGN_DIR: "campaigns/" });
    for (const file of ["apply.xml", "apply.md"]) expect(existsSync(join(cwd, file)), file).toBe(true);
  }, 90_000);
});

describe("GitLab CI: .gitlab-ci.yml", () => {
  const doc = load(GITLAB);
  const jobs = doc as Record<string, Doc>;

  test("plans in merge-request pipelines and applies on the default branch, one apply at a time", () => {
    expect(doc.stages).toEqual(["plan", "apply"]);
    expect(jobs["campaign-plan"]?.rules).toEqual([
      { if: '$CI_PIPELINE_SOURCE == "merge_request_event"', changes: ["campaigns/**/*"] },
    ]);
    expect(at(at(jobs, "campaign-plan"), "artifacts").paths).toEqual(["plan.json", "plan.md", "gallery/"]);
    expect(jobs["campaign-apply"]?.resource_group).toBe("campaign-apply");
    expect(String((at(jobs, "campaign-apply").rules as Doc[])[0]?.if)).toContain("$CI_DEFAULT_BRANCH");
    expect(at(at(at(jobs, "campaign-apply"), "artifacts"), "reports").junit).toBe("apply.xml");
    expect(scripts(doc).join("\n")).toContain(
      "node .gitlab/scripts/sticky-comment.mjs --gitlab --body-file plan.md",
    );
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
