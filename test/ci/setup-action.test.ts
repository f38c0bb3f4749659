/**
 * The setup action (action.yml, a composite action) and its shell, scripts/setup-campaignctl.sh, run
 * for real up to the install, offline: every refusal happens before npm is asked for anything, and
 * npm, were it asked, could reach only a closed port on loopback (no registry). The installs
 * themselves (the action's own release by default, a tarball checked against its integrity, a git
 * release tag) need the dependencies from the registry: scripts/install-check.sh, which .ci/run
 * runs after the tests, does them. The release tree scripts/git-release.sh makes is checked here.
 */
import { execFile, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parse } from "yaml";
import { NO_REGISTRY, packedPackage } from "./packed.js";

const SCRIPT = resolve("scripts/setup-campaignctl.sh");

/** A GitHub Actions expression, `${{ e }}`. */
const expr = (e: string) => `\${{ ${e} }}`;
const VERSION = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;

let work = "";
let tarball = "";
/** The tarball's sha512 as npm prints it (`npm pack --json`). */
let integrity = "";

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "campaignctl-setup-action-"));
  // Packed once a pass (--ignore-scripts: no rebuild of dist/ under the feet of the other test
  // files; offline), shared with test/ci/package-contents.test.ts: read only here.
  ({ tarball, integrity } = await packedPackage());
}, 200_000);

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

/** Runs the action's shell (`script`) as a step would, with fresh GITHUB_PATH and GITHUB_OUTPUT files. */
function runSetup(
  name: string,
  inputs: Record<string, string>,
  github = true,
  script = SCRIPT,
): Promise<Run> {
  const githubPath = join(work, `${name}.path`);
  const githubOutput = join(work, `${name}.output`);
  writeFileSync(githubPath, "");
  writeFileSync(githubOutput, "");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? tmpdir(),
    RUNNER_OS: "Linux",
    RUNNER_TEMP: work,
    ...NO_REGISTRY,
    ...(github ? { GITHUB_PATH: githubPath, GITHUB_OUTPUT: githubOutput } : {}),
    ...inputs,
  };
  return new Promise((done) => {
    // As the action's step runs it, a bash inside a bash: neither reads ~/.bashrc (an outer
    // `--norc`, and the inner one at SHLVL 2). Here the one bash is told so: its stdin is one of
    // node's sockets, which otherwise makes bash read ~/.bashrc as if run by sshd.
    execFile("bash", ["--noprofile", "--norc", script], { env, cwd: work }, (error, stdout, stderr) => {
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

/** A refusal: exit 1, the message as a GitHub error annotation, nothing installed, PATH and outputs untouched. */
function expectRefused(run: Run, prefix: string, message: string): void {
  expect(run.code, run.stdout + run.stderr).toBe(1);
  expect(run.stdout).toContain(`::error title=setup-campaignctl::${message}`);
  expect(run.stdout).not.toContain("Installing campaignctl");
  expect([run.path, run.output]).toEqual(["", ""]);
  expect(existsSync(prefix)).toBe(false);
}

/** A directory whose `node` prints `version` for `node --version` (and fails for anything else). */
function nodeThatSays(version: string): string {
  const dir = join(work, `node-${version}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "node"),
    `#!/bin/sh\n[ "$*" = --version ] && { echo ${version}; exit 0; }\necho "node $*: not this stand-in" >&2\nexit 9\n`,
    { mode: 0o755 },
  );
  return dir;
}

describe("scripts/setup-campaignctl.sh refuses, before installing anything", () => {
  test.each(["v20.18.3", "v19.99.0", "v18.20.4"])("a Node.js older than 20.19: %s", async (node) => {
    const prefix = join(work, "prefix-old-node");
    expectRefused(
      await runSetup("old-node", {
        PATH: `${nodeThatSays(node)}:${process.env.PATH ?? ""}`,
        CAMPAIGNCTL_PREFIX: prefix,
      }),
      prefix,
      `campaignctl needs Node.js 20.19 or newer; this is ${node}: use actions/setup-node`,
    );
  });

  test.each(["v20.19.0", "v21.0.0", "v24.11.1"])(
    "Node.js %s is new enough: the script goes on to the next check",
    async (node) => {
      const prefix = join(work, "prefix-new-node");
      expectRefused(
        await runSetup("new-node", {
          PATH: `${nodeThatSays(node)}:${process.env.PATH ?? ""}`,
          CAMPAIGNCTL_VERSION: "latest",
          CAMPAIGNCTL_PREFIX: prefix,
        }),
        prefix,
        "version 'latest' is not an exact version (0.1.0)",
      );
    },
  );

  test.each([
    ["latest", "version 'latest' is not an exact version (0.1.0)"],
    ["^0.1.0", "version '^0.1.0' is not an exact version (0.1.0)"],
    ["0.1", "version '0.1' is not an exact version (0.1.0)"],
  ])("a version that is not exact: %s", async (version, message) => {
    const prefix = join(work, "prefix-range");
    expectRefused(
      await runSetup("range", { CAMPAIGNCTL_VERSION: version, CAMPAIGNCTL_PREFIX: prefix }),
      prefix,
      message,
    );
  });

  test.each([
    ["campaignctl", "campaignctl names no version: set version, or write campaignctl@<version>"],
    ["campaignctl@latest", "campaignctl@latest is not an exact version: name one (campaignctl@0.1.0)"],
    ["campaignctl@^0.1.0", "campaignctl@^0.1.0 is not an exact version: name one (campaignctl@0.1.0)"],
    ["@your-org/campaignctl@0.x", "@your-org/campaignctl@0.x is not an exact version"],
    ["github:your-org/campaignctl", "github:your-org/campaignctl names no release: add #v<version>"],
  ])("an unpinned package: %s", async (pkg, message) => {
    const prefix = join(work, "prefix-unpinned");
    expectRefused(
      await runSetup("unpinned", { CAMPAIGNCTL_PACKAGE: pkg, CAMPAIGNCTL_PREFIX: prefix }),
      prefix,
      message,
    );
  });

  test("a tarball URL without integrity", async () => {
    const prefix = join(work, "prefix-url");
    const url = "https://example.invalid/campaignctl-0.1.0.tgz";
    expectRefused(
      await runSetup("url", { CAMPAIGNCTL_PACKAGE: url, CAMPAIGNCTL_PREFIX: prefix }),
      prefix,
      `a tarball URL needs integrity (sha512-..., from \`npm pack --json\` of the release): without it, whoever controls ${url} controls what runs`,
    );
  });

  test("integrity that is not npm's sha512", async () => {
    const prefix = join(work, "prefix-badformat");
    const run = await runSetup("badformat", {
      CAMPAIGNCTL_PACKAGE: tarball,
      CAMPAIGNCTL_INTEGRITY: "sha1-abc",
      CAMPAIGNCTL_PREFIX: prefix,
    });
    expectRefused(run, prefix, "integrity must be a sha512 in npm's format (sha512-<base64>)");
  });

  test("a tarball whose sha512 is not the pinned one, naming the one it has (npm's)", async () => {
    expect(integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    const other = `sha512-${Buffer.from("not the release").toString("base64").padEnd(86, "A").slice(0, 86)}==`;
    const prefix = join(work, "prefix-mismatch");
    const run = await runSetup("mismatch", {
      CAMPAIGNCTL_PACKAGE: tarball,
      CAMPAIGNCTL_INTEGRITY: other,
      CAMPAIGNCTL_PREFIX: prefix,
    });
    expectRefused(
      run,
      prefix,
      `${tarball} has integrity ${integrity}, not the pinned ${other}: nothing installed`,
    );
  });

  test("the action used at a ref that is not a release (no dist/): use a release tag", async () => {
    const action = join(work, "not-a-release");
    mkdirSync(join(action, "scripts"), { recursive: true });
    cpSync(SCRIPT, join(action, "scripts", "setup-campaignctl.sh"));
    cpSync("action.yml", join(action, "action.yml"));
    cpSync("package.json", join(action, "package.json"));
    const prefix = join(work, "prefix-not-a-release");
    const run = await runSetup(
      "not-a-release",
      { CAMPAIGNCTL_PREFIX: prefix },
      true,
      join(action, "scripts", "setup-campaignctl.sh"),
    );
    expectRefused(
      run,
      prefix,
      `this action is not at a release (no dist/ in ${action}): use it at a release tag made by scripts/git-release.sh (uses: <owner>/campaignctl@v<version>), or set package`,
    );
  });

  test("outside GitHub Actions (no GITHUB_PATH) it says so and installs nothing", async () => {
    const prefix = join(work, "prefix-none");
    const run = await runSetup("none", { CAMPAIGNCTL_PACKAGE: tarball, CAMPAIGNCTL_PREFIX: prefix }, false);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("GITHUB_PATH is not set");
    expect(existsSync(prefix)).toBe(false);
  });
});

describe("scripts/git-release.sh", () => {
  test("tags the package as packed, with the action, and no script for npm to prepare", () => {
    const repo = join(work, "campaignctl.git");
    execFileSync("git", ["init", "--quiet", "--bare", repo]);
    // Loose objects stored uncompressed (git's zlib over the package's 17 MB was a third of the
    // script's CPU time here): what the tag holds is the same, only its bytes on disk differ.
    const uncompressed = {
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "core.looseCompression",
      GIT_CONFIG_VALUE_0: "0",
    };
    execFileSync("bash", ["scripts/git-release.sh", tarball, repo], {
      stdio: "ignore",
      env: { ...process.env, ...uncompressed },
    });
    const files = execFileSync("git", ["--git-dir", repo, "ls-tree", "-r", "--name-only", `v${VERSION}`], {
      encoding: "utf8",
    }).split("\n");
    // The action at this tag installs the package in its own directory: both are in the tree.
    expect(files).toEqual(
      expect.arrayContaining([
        "action.yml",
        "scripts/setup-campaignctl.sh",
        "package.json",
        "dist/cli/main.js",
        "docs/ci.md",
        "LICENSE",
      ]),
    );
    const manifest = JSON.parse(
      execFileSync("git", ["--git-dir", repo, "show", `v${VERSION}:package.json`], { encoding: "utf8" }),
    ) as Record<string, unknown>;
    expect(manifest.scripts).toBeUndefined();
    expect(manifest.devDependencies).toBeUndefined();
    expect(manifest.version).toBe(VERSION);
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
    expect(Object.keys(inputs).sort()).toEqual(["integrity", "package", "version"]);
    expect(inputs.version?.default).toBe("");
    expect(inputs.package?.default).toBe("");
    expect(inputs.integrity?.default).toBe("");
    // Every `inputs.X` used is declared.
    for (const [, name] of text.matchAll(/\binputs\.([A-Za-z0-9_-]+)/g))
      expect(inputs).toHaveProperty(name ?? "");
    // Passed as environment variables that the script reads; never spliced into the shell text.
    expect(steps[0]?.env).toEqual({
      CAMPAIGNCTL_VERSION: expr("inputs.version"),
      CAMPAIGNCTL_PACKAGE: expr("inputs.package"),
      CAMPAIGNCTL_INTEGRITY: expr("inputs.integrity"),
    });
    expect(String(steps[0]?.run)).not.toContain("${{");
    for (const name of ["CAMPAIGNCTL_VERSION", "CAMPAIGNCTL_PACKAGE", "CAMPAIGNCTL_INTEGRITY"])
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
