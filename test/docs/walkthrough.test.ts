/**
 * The README's "Your first campaign" walkthrough, run as written: its shell blocks and YAML edits
 * in the order the README gives them, in a fresh directory against the embedded sandbox (each
 * `campaignctl` command in-process; `init … && cd …` and `rm` as a shell would; each YAML block
 * merged into the imported file). Each command must exit as the walkthrough says. Then the first
 * pipeline run (issue 35 point 6): the campaignctl commands of the pipelines `init` wrote, as those
 * files write them (and of the GitLab pipeline `init --ci gitlab` writes), on what the walkthrough
 * produced, against the same sandbox: every step passes, with `--require-policy` satisfied by the
 * policy `init` wrote.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { parse, parseDocument } from "yaml";
import { runCli } from "../helpers/run-cli.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** The walkthrough section of the README. */
function walkthrough(): string {
  const start = README.indexOf("## Your first campaign");
  const end = README.indexOf("\n## ", start + 1);
  expect(start).toBeGreaterThan(-1);
  return README.slice(start, end === -1 ? undefined : end);
}

/** One thing the walkthrough asks for: a shell line, or a YAML snippet to merge into the file. */
type Step = { readonly kind: "sh"; readonly line: string } | { readonly kind: "yaml"; readonly text: string };

/** The section's `sh` lines (comments and `echo $?` left out) and `yaml` blocks, in order. */
function stepsOf(section: string): Step[] {
  return [...section.matchAll(/^```(sh|yaml)\n([\s\S]*?)^```/gm)].flatMap((m): Step[] =>
    m[1] === "yaml"
      ? [{ kind: "yaml", text: m[2] ?? "" }]
      : (m[2] ?? "")
          .split("\n")
          .map((l) => l.replace(/\s+#.*$/, "").trim())
          .filter((l) => l !== "" && !/^echo \$\?$/.test(l))
          .map((line) => ({ kind: "sh", line })),
  );
}

/** Shell words: double-quoted strings kept whole. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? "");
}

/** Merges a snippet (`defaults:` keys, `projects: {address: keys}`) into the imported file. */
function mergeInto(file: string, snippet: string): void {
  const doc = parseDocument(readFileSync(file, "utf8"));
  const edit = parse(snippet) as Record<string, Record<string, unknown>>;
  for (const [top, keys] of Object.entries(edit))
    for (const [key, value] of Object.entries(keys)) {
      if (top !== "projects") doc.setIn([top, key], value);
      else
        for (const [inner, v] of Object.entries(value as Record<string, unknown>)) {
          expect(doc.hasIn(["projects", key]), `no project ${key} to edit`).toBe(true);
          doc.setIn(["projects", key, inner], v);
        }
    }
  writeFileSync(file, doc.toString());
}

/** What the walkthrough says each campaignctl command ends with, in order. */
const EXPECTED: readonly [string, number][] = [
  ["init", 0],
  ["import", 0],
  ["plan", 0], // nothing to do, and the policy satisfied
  ["validate", 0],
  ["preview", 0],
  ["plan", 2], // actions pending
  ["apply", 0],
  ["plan", 0], // the world matches the files
  ["validate", 0], // step 6: the pipeline's checks, --require-policy
  ["plan", 0],
];

/** Runs the walkthrough in a fresh directory; returns the campaign repository it made. */
async function runWalkthrough(): Promise<string> {
  const section = walkthrough();
  const address = /test send of the project `([a-z0-9-]+)`/.exec(section)?.[1] ?? "";
  // The clone the walkthrough starts in, in a directory of its own: `init ../my-campaigns` beside it.
  let cwd = join(mkdtempSync(join(tmpdir(), "campaignctl-walkthrough-")), "campaignctl");
  mkdirSync(cwd);
  const ran: [string, number][] = [];
  for (const step of stepsOf(section)) {
    if (step.kind === "yaml") {
      // The edit goes into the file import wrote (beside the policy init wrote).
      const files = readdirSync(join(cwd, "campaigns")).filter(
        (f) => /\.yaml$/.test(f) && !f.startsWith("campaignctl."),
      );
      expect(files).toHaveLength(1);
      mergeInto(join(cwd, "campaigns", files[0] ?? ""), step.text);
      continue;
    }
    for (const part of step.line.split(/\s*&&\s*/)) {
      const [program, ...args] = words(part);
      if (program === "alias") continue;
      if (program === "cd") cwd = resolve(cwd, args[0] ?? "");
      else if (program === "rm") for (const a of args) rmSync(join(cwd, a));
      else if (program === "campaignctl") {
        const result = await runCli(args, { cwd, env: {} });
        const expected = EXPECTED[ran.length];
        expect(args[0], part).toBe(expected?.[0]);
        expect(result.code, `${part}\n${result.stdout}\n${result.stderr}`).toBe(expected?.[1]);
        if (ran.length === 5)
          expect(result.stdout).toContain(`${address}.test: planned, draft -> awaiting_test`);
        ran.push([args[0] ?? "", result.code]);
      } else throw new Error(`the walkthrough runs a command this test does not know: ${part}`);
    }
  }
  expect(ran).toEqual(EXPECTED);
  expect(existsSync(join(cwd, "campaigns/campaignctl.policy.yaml"))).toBe(true);
  return cwd;
}

/** The `campaignctl` lines of a pipeline's scripts (GitHub steps' `run`, GitLab jobs' `script`). */
function pipelineLines(path: string): string[] {
  const doc = parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  const jobs = (doc.jobs ?? doc) as Record<string, Record<string, unknown>>;
  const scripts = Object.values(jobs).flatMap((job) =>
    typeof job !== "object" || job === null
      ? []
      : [
          ...((job.steps as { run?: unknown }[] | undefined) ?? []).flatMap((s) =>
            typeof s.run === "string" ? [s.run] : [],
          ),
          ...((job.script as string[] | undefined) ?? []),
        ],
  );
  return scripts
    .flatMap((s) => s.replace(/\\\n\s*/g, " ").split("\n"))
    .map((l) => l.trim())
    .filter((l) => /^campaignctl\s/.test(l));
}

/** Runs each line as the runner would (variables expanded), against the embedded sandbox. */
async function runPipeline(
  lines: readonly string[],
  cwd: string,
  vars: Record<string, string>,
): Promise<string[]> {
  const commands: string[] = [];
  for (const line of lines) {
    const expanded = line.replace(/\$\{?([A-Z_][A-Z0-9_]*)\}?/g, (_, name: string) => {
      const value = vars[name];
      if (value === undefined) throw new Error(`unknown variable ${name} in: ${line}`);
      return value;
    });
    const [, command = "", ...rest] = words(expanded);
    const argv =
      command === "plan" || command === "apply" ? [command, "--sandbox", ...rest] : [command, ...rest];
    const result = await runCli(argv, { cwd, env: {} });
    // Every step passes: 0 (a plan's 2, actions pending, passes too; here there is nothing to do).
    expect(result.code, `${line}\n${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stderr).not.toContain("policy.required");
    commands.push(command);
  }
  return commands;
}

describe("README walkthrough: your first campaign", () => {
  let made: Promise<string> | undefined;
  const walked = () => {
    made ??= runWalkthrough();
    return made;
  };

  test("runs as written against the embedded sandbox", async () => {
    await walked();
  }, 120_000);

  test("the first run of the pipelines init wrote passes on what it made", async () => {
    const repo = await walked();
    const plan = join(repo, ".github/workflows/campaign-plan.yml");
    const apply = join(repo, ".github/workflows/campaign-apply.yml");
    const github = mkdtempSync(join(tmpdir(), "campaignctl-first-pipeline-"));
    cpSync(repo, github, { recursive: true });
    const vars = {
      CAMPAIGN_DIR: "campaigns/",
      GALLERY_URL: "https://github.com/o/r/actions/runs/1#artifacts",
      // The pull request the apply workflow's find step names (approvals are read only in Actions).
      PULL_REQUEST: "7",
    };
    expect(await runPipeline(pipelineLines(plan), github, vars)).toEqual(["validate", "plan", "preview"]);
    expect(await runPipeline(pipelineLines(apply), github, vars)).toEqual(["apply"]);
    // The GitLab pipeline `init --ci gitlab` writes, on the same files.
    const gitlab = mkdtempSync(join(tmpdir(), "campaignctl-first-pipeline-"));
    cpSync(repo, gitlab, { recursive: true });
    const file = join(ROOT, "examples/ci/gitlab/.gitlab-ci.yml");
    const gitlabVars = {
      ...((parse(readFileSync(file, "utf8")) as { variables: Record<string, string> }).variables ?? {}),
      CI_JOB_URL: "https://gitlab.com/o/r/-/jobs/3",
    };
    expect(await runPipeline(pipelineLines(file), gitlab, gitlabVars)).toEqual([
      "validate",
      "preview",
      "plan",
      "apply",
    ]);
  }, 120_000);
});
