/**
 * The hourly pipeline shipped beside the others (examples/ci/github/results-record.yml): scheduled
 * every hour, one run at a time, and its two shell steps really work: run by bash in a git
 * repository with a bare remote, `campaignctl` standing for the built CLI against a sandbox of the
 * example world (in this process, with the key in CAMPAIGNCTL_API_KEY as the step passes it), the
 * first run records and pushes a commit of `results/*.jsonl`, a second run in the same hour commits
 * nothing.
 */
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startSandbox } from "../../src/sandbox/index.js";
import { BUILT_CLI } from "../helpers/run-cli.js";
import { EXAMPLE_FIXTURE, PARENT_KEY } from "../sandbox/helpers.js";

const PIPELINE = "examples/ci/github/results-record.yml";
// biome-ignore lint/suspicious/noExplicitAny: a parsed workflow
const doc = parse(readFileSync(PIPELINE, "utf8")) as any;
const steps = doc.jobs.record.steps as { name?: string; run?: string; env?: Record<string, string> }[];
const step = (name: string) => steps.find((s) => s.name === name)?.run ?? "";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();

describe("results-record.yml", () => {
  it("runs every hour, one run at a time, and can commit", () => {
    expect(doc.on.schedule).toEqual([{ cron: "17 * * * *" }]);
    expect(doc.concurrency["cancel-in-progress"]).toBe(false);
    expect(doc.permissions).toEqual({ contents: "write" });
  });

  it("records, commits and pushes the snapshots; a second run in the hour commits nothing", async () => {
    const sb = await startSandbox({ fixture: EXAMPLE_FIXTURE });
    const root = mkdtempSync(join(tmpdir(), "campaignctl-results-pipeline-"));
    const remote = join(root, "remote.git");
    const work = join(root, "work");
    execFileSync("git", ["init", "--quiet", "--bare", remote]);
    execFileSync("git", ["clone", "--quiet", remote, work], { stdio: "ignore" });
    writeFileSync(join(work, "README.md"), "campaigns\n");
    writeFileSync(join(work, ".gitignore"), ".campaignctl/\n");
    git(work, "add", ".");
    git(work, "commit", "--quiet", "-m", "start");
    git(work, "push", "--quiet", "origin", "HEAD");
    const bin = join(root, "bin");
    mkdirSync(bin);
    // `campaignctl` is the built CLI against the sandbox (no network).
    writeFileSync(
      join(bin, "campaignctl"),
      `#!/bin/sh\nexec "${process.execPath}" "${BUILT_CLI}" "$@" --base-url "${sb.baseUrl}"\n`,
    );
    chmodSync(join(bin, "campaignctl"), 0o755);
    // `date -u +%H` says the hour the test chooses (FAKE_HOUR): the 03:xx run reads 90 days.
    writeFileSync(
      join(bin, "date"),
      `#!/bin/sh\nfor a in "$@"; do [ "$a" = "+%H" ] && { echo "$FAKE_HOUR"; exit 0; }; done\nexec /bin/date "$@"\n`,
    );
    chmodSync(join(bin, "date"), 0o755);
    const env = {
      PATH: `${bin}:${process.env.PATH ?? ""}`,
      HOME: root,
      NO_COLOR: "1",
      RESULTS_STORE: "files",
      CAMPAIGNCTL_API_KEY: PARENT_KEY,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.invalid",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.invalid",
    };
    // Not spawnSync: the sandbox answers from this process's event loop.
    const run = (name: string, hour = "11") =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        // No ~/.bashrc, as on a runner (bash reads it when its stdin is a socket, as node's pipes are).
        const child = spawn("bash", ["--noprofile", "--norc", "-e", "-c", step(name)], {
          cwd: work,
          env: { ...env, FAKE_HOUR: hour },
        });
        let stdout = "";
        let stderr = "";
        child.stdout.setEncoding("utf8").on("data", (d: string) => {
          stdout += d;
        });
        child.stderr.setEncoding("utf8").on("data", (d: string) => {
          stderr += d;
        });
        child.on("error", reject);
        child.on("close", (status) => resolve({ status, stdout, stderr }));
      });
    try {
      const recorded = await run("Record the statistics");
      expect(recorded.status, recorded.stderr).toBe(0);
      expect(recorded.stdout).toContain("Recorded 6 snapshots");
      const committed = await run("Commit the new snapshots");
      expect(committed.status, committed.stderr).toBe(0);
      expect(git(remote, "log", "--format=%s", "-1")).toMatch(
        /^results: snapshots of \d{4}-\d\d-\d\dT\d\d:00Z$/,
      );
      expect(git(remote, "ls-tree", "-r", "--name-only", "HEAD")).toContain(
        "results/riverside-democrats/2026-12.jsonl",
      );
      const deep = await run("Record the statistics", "03");
      expect(deep.status, deep.stderr).toBe(0);
      expect(deep.stdout).toContain("Recorded 0 snapshots");
      expect(deep.stdout).toContain(", 2026-09-03..2026-09-30;"); // down to the oldest day the API allows
      const again = await run("Commit the new snapshots");
      expect(again.status).toBe(0);
      expect(again.stdout).toContain("Nothing moved since the last recording");
      expect(git(remote, "rev-list", "--count", "HEAD")).toBe("2");
    } finally {
      await sb.close();
    }
  });
});
