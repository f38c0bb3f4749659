/**
 * A named pipe (FIFO) given as `--policy`, `--fixture` or a saved PLANFILE is refused at once with
 * `cli.file-unreadable`, naming the flag and the path, by the one check every file the CLI reads
 * goes through (cli/adapters/regular-file.ts): never read, so never waited on. The built CLI runs
 * as a child process, since a read that blocks would block the test's own thread: each run is bound
 * by the process finishing by itself (a run still going after the bound is killed and fails the
 * test as a hang), never by a sleep.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILT_CLI } from "../helpers/run-cli.js";

/** A run that has not ended by itself by then is a hang (the FIFO has no writer: a read never ends). */
const HANG_BOUND_MS = 15_000;

interface Finished {
  readonly code: number | null;
  /** The signal that ended the process: set only when the bound killed it. */
  readonly killed: boolean;
  readonly output: string;
}

function cli(argv: readonly string[], cwd: string): Promise<Finished> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BUILT_CLI, ...argv],
      {
        cwd,
        // A key that is never used: the refusal comes before any connection.
        env: { ...process.env, NO_COLOR: "1", CAMPAIGNCTL_API_KEY: "cc_test_never_used" },
        timeout: HANG_BOUND_MS,
        killSignal: "SIGKILL",
      },
      (error, stdout, stderr) => {
        const e = error as (Error & { code?: unknown; signal?: unknown }) | null;
        resolve({
          code: e === null ? 0 : typeof e.code === "number" ? e.code : null,
          killed: e !== null && e.signal === "SIGKILL",
          output: `${stdout}${stderr}`,
        });
      },
    );
  });
}

/** A directory with an empty campaign file and a named pipe `pipe` that nothing ever writes. */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "cc-fifo-"));
  writeFileSync(join(dir, "campaign.yaml"), "version: 1\nprojects: {}\n");
  execFileSync("mkfifo", [join(dir, "pipe")]);
  return dir;
}

/** The run ended by itself, exit 1, with the one refusal naming `what` and the path. */
function refused(run: Finished, what: string): void {
  expect(run.killed, `hung: ${run.output}`).toBe(false);
  expect(run.code).toBe(1);
  expect(run.output).toContain(
    `error[cli.file-unreadable]: cannot read ${what}pipe: it is a named pipe (FIFO), not a regular file`,
  );
}

describe("a named pipe is refused at once, never waited on", { timeout: 3 * HANG_BOUND_MS }, () => {
  it("--policy", async () => {
    refused(await cli(["validate", "campaign.yaml", "--policy", "pipe"], workspace()), "--policy ");
  });

  it("--fixture, of the embedded sandbox of plan and of `campaignctl sandbox`", async () => {
    const dir = workspace();
    refused(await cli(["plan", "--sandbox", "--fixture", "pipe", "campaign.yaml"], dir), "--fixture ");
    refused(await cli(["sandbox", "--fixture", "pipe"], dir), "--fixture ");
  });

  it("a saved PLANFILE, for apply and approve", async () => {
    const dir = workspace();
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "key")]);
    refused(await cli(["approve", "--key", "key", "pipe"], dir), "the saved plan ");
    // apply looks at the path, finds no saved plan in a pipe, and the file loader refuses it.
    refused(await cli(["apply", "pipe"], dir), "");
  });
});
