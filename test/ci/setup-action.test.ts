/**
 * The setup action (action.yml, a composite action) and its shell, scripts/setup-campaignctl.sh,
 * run for real: against an `npm pack` tarball of this repository (made once for the file, from the
 * dist/ that `npm test` has just built) and against a release tag of a git repository made from
 * that tarball by scripts/git-release.sh, each installed into a temporary prefix with stand-in
 * GITHUB_PATH and GITHUB_OUTPUT files. npm may fetch the dependencies from the registry (the npm
 * cache serves them when it can).
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parse } from "yaml";

const SCRIPT = resolve("scripts/setup-campaignctl.sh");

/** A GitHub Actions expression, `${{ e }}`. */
const expr = (e: string) => `\${{ ${e} }}`;
const VERSION = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;

let work = "";
let tarball = "";

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "campaignctl-setup-action-"));
  // --ignore-scripts: no rebuild of dist/ under the feet of the other test files.
  const packed = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  tarball = join(work, (JSON.parse(packed) as { filename: string }[])[0]?.filename ?? "");
}, 120_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** What the step added to the job's PATH and outputs. */
  readonly path: string;
  readonly output: string;
}

/** Runs the action's shell as a step would, with fresh GITHUB_PATH and GITHUB_OUTPUT files. */
function runSetup(name: string, inputs: Record<string, string>, github = true): Promise<Run> {
  const githubPath = join(work, `${name}.path`);
  const githubOutput = join(work, `${name}.output`);
  writeFileSync(githubPath, "");
  writeFileSync(githubOutput, "");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? tmpdir(),
    RUNNER_OS: "Linux",
    RUNNER_TEMP: work,
    npm_config_prefer_offline: "true",
    npm_config_update_notifier: "false",
    ...(github ? { GITHUB_PATH: githubPath, GITHUB_OUTPUT: githubOutput } : {}),
    ...inputs,
  };
  return new Promise((done) => {
    execFile("bash", [SCRIPT], { env, cwd: work }, (error, stdout, stderr) => {
      done({
        code: error ? (typeof error.code === "number" ? error.code : 1) : 0,
        stdout,
        stderr,
        path: readFileSync(githubPath, "utf8"),
        output: readFileSync(githubOutput, "utf8"),
      });
    });
  });
}

describe("scripts/setup-campaignctl.sh, the action's shell", () => {
  test("installs the tarball into a prefix, puts its bin on PATH and outputs the version", async () => {
    const prefix = join(work, "prefix-tarball");
    const run = await runSetup("tarball", {
      CAMPAIGNCTL_PACKAGE: tarball,
      CAMPAIGNCTL_VERSION: VERSION,
      CAMPAIGNCTL_PREFIX: prefix,
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.path).toBe(`${prefix}/bin\n`);
    expect(run.output).toBe(`version=${VERSION}\npath=${prefix}/bin\n`);
    expect(run.stdout).toContain(`campaignctl ${VERSION} is on PATH (${prefix}/bin)`);
    const printed = execFileSync(join(prefix, "bin", "campaignctl"), ["--version"], { encoding: "utf8" });
    expect(printed.trim()).toBe(VERSION);

    // Asked for another version than the tarball holds: an error, and nothing put on PATH.
    const wrong = await runSetup("tarball-wrong", {
      CAMPAIGNCTL_PACKAGE: tarball,
      CAMPAIGNCTL_VERSION: "9.9.9",
      CAMPAIGNCTL_PREFIX: prefix,
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain(
      `::error title=setup-campaignctl::${tarball} installed campaignctl ${VERSION}, not the version asked for (9.9.9)`,
    );
    expect([wrong.path, wrong.output]).toEqual(["", ""]);
  }, 180_000);

  test("installs from a git URL, at the release tag v<version> that scripts/git-release.sh made", async () => {
    const repo = join(work, "campaignctl.git");
    execFileSync("git", ["init", "--quiet", "--bare", repo]);
    // npm resolves a git URL through the repository's HEAD: give the branch one (empty) commit.
    const git = (...args: string[]) =>
      execFileSync(
        "git",
        ["--git-dir", repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", ...args],
        {
          encoding: "utf8",
        },
      ).trim();
    git(
      "update-ref",
      "HEAD",
      git("commit-tree", git("hash-object", "-t", "tree", "/dev/null"), "-m", "init"),
    );
    execFileSync("bash", ["scripts/git-release.sh", tarball, repo], { stdio: "ignore" });
    const prefix = join(work, "prefix-git");
    const run = await runSetup("git", {
      CAMPAIGNCTL_PACKAGE: `git+file://${repo}`,
      CAMPAIGNCTL_VERSION: `v${VERSION}`,
      CAMPAIGNCTL_PREFIX: prefix,
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`Installing campaignctl (git+file://${repo}#v${VERSION})`);
    expect(run.path).toBe(`${prefix}/bin\n`);
    expect(run.output).toBe(`version=${VERSION}\npath=${prefix}/bin\n`);
    const printed = execFileSync(join(prefix, "bin", "campaignctl"), ["--version"], { encoding: "utf8" });
    expect(printed.trim()).toBe(VERSION);
    // The release tree: the package as packed, plus the action; no script for npm to prepare.
    const files = execFileSync("git", ["--git-dir", repo, "ls-tree", "-r", "--name-only", `v${VERSION}`], {
      encoding: "utf8",
    }).split("\n");
    expect(files).toEqual(
      expect.arrayContaining(["action.yml", "scripts/setup-campaignctl.sh", "dist/cli/main.js", "LICENSE"]),
    );
    const manifest = JSON.parse(
      execFileSync("git", ["--git-dir", repo, "show", `v${VERSION}:package.json`], { encoding: "utf8" }),
    ) as Record<string, unknown>;
    expect(manifest.scripts).toBeUndefined();
  }, 180_000);

  test("outside GitHub Actions (no GITHUB_PATH) it says so and installs nothing", async () => {
    const prefix = join(work, "prefix-none");
    const run = await runSetup("none", { CAMPAIGNCTL_PACKAGE: tarball, CAMPAIGNCTL_PREFIX: prefix }, false);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("GITHUB_PATH is not set");
    expect(existsSync(prefix)).toBe(false);
  });
});

describe("action.yml", () => {
  type Doc = Record<string, unknown>;
  const action = parse(readFileSync("action.yml", "utf8")) as Doc;
  const text = readFileSync("action.yml", "utf8");
  const script = readFileSync(SCRIPT, "utf8");
  const steps = (action.runs as { using: string; steps: Doc[] }).steps;

  test("is a composite action whose one step runs scripts/setup-campaignctl.sh", () => {
    expect((action.runs as Doc).using).toBe("composite");
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({
      id: "install",
      shell: "bash",
      run: 'bash "$GITHUB_ACTION_PATH/scripts/setup-campaignctl.sh"',
    });
    expect(existsSync(SCRIPT)).toBe(true);
  });

  test("its inputs exist, reach the script through the environment, and its outputs are the script's", () => {
    const inputs = action.inputs as Record<string, Doc>;
    expect(Object.keys(inputs).sort()).toEqual(["package", "version"]);
    expect(inputs.version?.default).toBe("latest");
    expect(inputs.package?.default).toBe("campaignctl");
    // Every `inputs.X` used is declared.
    for (const [, name] of text.matchAll(/\binputs\.([A-Za-z0-9_-]+)/g))
      expect(inputs).toHaveProperty(name ?? "");
    // Passed as environment variables that the script reads; never spliced into the shell text.
    expect(steps[0]?.env).toEqual({
      CAMPAIGNCTL_VERSION: expr("inputs.version"),
      CAMPAIGNCTL_PACKAGE: expr("inputs.package"),
    });
    expect(String(steps[0]?.run)).not.toContain("${{");
    for (const name of ["CAMPAIGNCTL_VERSION", "CAMPAIGNCTL_PACKAGE"])
      expect(script).toContain(`\${${name}:-`);
    const outputs = action.outputs as Record<string, Doc>;
    expect(Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, v.value]))).toEqual({
      version: expr("steps.install.outputs.version"),
      path: expr("steps.install.outputs.path"),
    });
    expect(script).toContain('echo "version=$installed"');
    expect(script).toContain('echo "path=$bin"');
  });
});
