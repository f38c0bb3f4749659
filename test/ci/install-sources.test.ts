/**
 * An install that names only what we own: every workflow and action campaignctl ships (action.yml
 * and its shell, examples/ci/**, and the pipelines `campaignctl init` writes) installs campaignctl
 * from the project's own release, pinned (a release tag or commit of its repository, a tarball in the
 * checkout), never from a registry name the project has not published (`npm install campaignctl`,
 * `npx campaignctl`, `@latest`), in a job that holds CAMPAIGNCTL_API_KEY.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import { runCli } from "../helpers/run-cli.js";

/** An exact version or a full commit: what a ref or a package spec must pin. */
const PINNED_REF = /^(v\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?|[0-9a-f]{40})$/;

/**
 * What is wrong with one package spec as a default install source, or undefined when it is the
 * project's own and pinned: a git URL with a release tag or a commit, or a tarball file of the
 * checkout. A `${VAR:-default}` is judged by its default; a bare `$VAR` (the user's own setting, with
 * no default) names nothing.
 */
function specProblem(spec: string): string | undefined {
  const unquoted = spec.replace(/^["']|["']$/g, "");
  const withDefault = /^\$\{[A-Za-z0-9_]+:-(.*)\}$/.exec(unquoted);
  if (withDefault) return specProblem(withDefault[1] ?? "");
  if (/^\$\{?[A-Za-z0-9_]+\}?$/.test(unquoted)) return undefined;
  if (/^(git\+|git:|ssh:|github:|gitlab:|bitbucket:)|\.git(#|$)/.test(unquoted)) {
    const ref = unquoted.split("#")[1];
    return ref !== undefined && PINNED_REF.test(ref)
      ? undefined
      : `${unquoted}: a git URL without a release tag or commit`;
  }
  if (/^(\.{0,2}\/|file:).*\.t(ar\.)?gz$/.test(unquoted)) return undefined;
  if (/^[a-z]+:\/\//.test(unquoted))
    return `${unquoted}: a URL, with no integrity checked before the install`;
  return `${unquoted}: a registry name (the project publishes none; whoever owns the name runs with the key)`;
}

/** The package specs of every install command in a shell text (`npm install`, `npx`, pnpm, yarn). */
function installSpecs(shell: string): string[] {
  const specs: string[] = [];
  const command =
    /\b(npm(?:\s+--?[\w-]+(?:=\S+)?)*\s+(?:install|i|add|exec)|npx|pnpm\s+(?:add|dlx)|yarn\s+(?:global\s+)?(?:add|dlx)|bunx|bun\s+(?:add|x))\b([^\n;&|`]*)/g;
  for (const [, name, rest] of shell.matchAll(command)) {
    const words = (rest ?? "").trim().split(/\s+/).filter(Boolean);
    // npx/exec run the first operand (the rest are its arguments); install takes every operand.
    const operands = words.filter((w) => !w.startsWith("-"));
    const runs = /^(npx|npm\b.*\sexec|pnpm\s+dlx|yarn.*dlx|bunx|bun\s+x)$/.test(name ?? "");
    specs.push(...(runs ? operands.slice(0, 1) : operands));
  }
  return specs;
}

/** What is wrong with the installs in one shipped file. */
function problemsOf(path: string, text: string): string[] {
  const problems: string[] = [];
  // The whole text: run blocks, before_script, and comments that show a command to copy.
  // A command continued over lines (`npm install --global \` then the package) is one line.
  for (const line of text.replace(/\\\r?\n[\s#]*/g, " ").split("\n")) {
    for (const spec of lineSpecs(line)) {
      const problem = specProblem(spec);
      if (problem !== undefined) problems.push(`${path}: ${problem}`);
    }
    const uses = /\buses:\s*["']?([\w.-]+\/campaignctl)@([^\s"'#]+)/.exec(line);
    if (uses && !PINNED_REF.test(uses[2] ?? ""))
      problems.push(`${path}: uses: ${uses[1]}@${uses[2]}: not a release tag or commit`);
  }
  if (/\.ya?ml$/.test(path)) problems.push(...actionInputProblems(path, parse(text)));
  return problems;
}

function lineSpecs(line: string): string[] {
  return installSpecs(line.replace(/^\s*(#|-)\s*/, ""));
}

/** `with: package:` of the setup action: a variable, or a pinned spec. */
function actionInputProblems(path: string, doc: unknown): string[] {
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) for (const n of node) visit(n);
    else if (node !== null && typeof node === "object") {
      const step = node as Record<string, unknown>;
      if (typeof step.uses === "string" && /\/campaignctl@/.test(step.uses)) {
        const pkg = (step.with as Record<string, unknown> | undefined)?.package;
        if (typeof pkg === "string" && !/^\$\{\{\s*vars\.[A-Z_]+\s*\}\}$/.test(pkg)) {
          const problem = specProblem(pkg);
          if (problem !== undefined) found.push(`${path}: with: package: ${problem}`);
        }
      }
      for (const v of Object.values(step)) visit(v);
    }
  };
  visit(doc);
  return found;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe("the checker", () => {
  test.each([
    ["npm install --global campaignctl"],
    ["npm i -g campaignctl@0.1.0"],
    [`npm install --global --no-audit --no-fund "\${CAMPAIGNCTL_PACKAGE:-campaignctl@0.1.0}"`],
    ["npx campaignctl plan campaigns/"],
    ["npx --yes campaignctl@latest plan"],
    ["pnpm dlx campaignctl plan"],
    ["yarn global add campaignctl"],
    ["npm install -g github:your-org/campaignctl"],
    ["npm install -g github:your-org/campaignctl#main"],
    ["npm install -g https://example.com/campaignctl-0.1.0.tgz"],
    ["- uses: your-org/campaignctl@main"],
    ["  uses: your-org/campaignctl@latest"],
    ["npm install --global --no-audit \\\n  campaignctl@0.1.0"],
    ["    npm install --global \\\r\n      campaignctl"],
    ["npm --global install campaignctl@0.1.0"],
    ["npm -g i campaignctl"],
    ["npm --yes exec campaignctl -- plan"],
    ["bun add -g campaignctl"],
  ])("flags %j", (line) => {
    expect(problemsOf("x.sh", line)).not.toEqual([]);
  });

  test.each([
    [
      `npm install --global --no-audit --no-fund "\${CAMPAIGNCTL_PACKAGE:-github:your-org/campaignctl#v0.1.0}"`,
    ],
    ["npm install -g git+https://example.com/campaignctl.git#0123456789abcdef0123456789abcdef01234567"],
    ["npm install --global ./campaignctl-0.1.0.tgz"],
    ['npm install --global "$CAMPAIGNCTL_PACKAGE"'],
    ["- uses: your-org/campaignctl@v0.1.0"],
    ["  uses: your-org/campaignctl@0123456789abcdef0123456789abcdef01234567 # v0.1.0"],
    ["node .github/scripts/sticky-comment.mjs --body-file plan.md"],
  ])("passes %s", (line) => {
    expect(problemsOf("x.sh", line)).toEqual([]);
  });

  test("an action step's package input that names the registry", () => {
    const doc = "steps:\n  - uses: o/campaignctl@v0.1.0\n    with:\n      package: campaignctl\n";
    expect(problemsOf("w.yml", doc)).toEqual([
      "w.yml: with: package: campaignctl: a registry name (the project publishes none; whoever owns the name runs with the key)",
    ]);
  });
});

describe("what campaignctl ships", () => {
  test("examples/ci/**, action.yml and the setup script install nothing unpinned or unowned", () => {
    const files = [...filesUnder("examples/ci"), "action.yml", "scripts/setup-campaignctl.sh"];
    expect(files).toEqual(
      expect.arrayContaining([
        "examples/ci/github/campaign-plan.yml",
        "examples/ci/github/campaign-apply.yml",
        "examples/ci/gitlab/.gitlab-ci.yml",
      ]),
    );
    const problems = files.flatMap((f) => problemsOf(f, readFileSync(f, "utf8")));
    expect(problems).toEqual([]);
    // Each pipeline does install campaignctl, so the check above looked at something.
    for (const f of files.filter((f) => f.endsWith(".yml") && f.startsWith("examples/")))
      expect(readFileSync(f, "utf8")).toMatch(
        /uses: [\w.-]+\/campaignctl@v\d|npm install --global .*campaignctl#v\d/,
      );
  });

  test("the setup action's default is its own release, not a registry name", () => {
    const action = parse(readFileSync("action.yml", "utf8")) as {
      inputs: Record<string, { default: string }>;
    };
    expect(action.inputs.package?.default).toBe("");
    expect(action.inputs.version?.default).toBe("");
    const script = readFileSync("scripts/setup-campaignctl.sh", "utf8");
    expect(script).toContain(`package=\${CAMPAIGNCTL_PACKAGE:-}\n`);
  });

  test.each([["github"], ["gitlab"]])("the pipelines `init --ci %s` writes", async (ci) => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-init-sources-"));
    const run = await runCli(["init", dir, "--ci", ci]);
    expect(run.code, run.stderr).toBe(0);
    const written = filesUnder(dir).filter((f) => /\.ya?ml$/.test(f) && /(\.github|\.gitlab)/.test(f));
    expect(written.length).toBeGreaterThan(0);
    const problems = written.flatMap((f) => problemsOf(relative(dir, f), readFileSync(f, "utf8")));
    expect(problems).toEqual([]);
  });
});
