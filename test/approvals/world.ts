/**
 * The world of the approvals tests: a copy of examples/ whose policy requires approvals, SSH keys
 * made by the real ssh-keygen in the test's temporary directory, an allowed signers file beside the
 * policy, and a sandbox at the example fixture's instant that approves tests at once (so a plan's
 * deferred schedules go out in the same apply). ssh-keygen must be installed (.ci/run installs
 * Debian's openssh-client): a missing one fails these tests, never skips them.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { effects } from "../apply/helpers.js";
import { PARENT_KEY } from "../sandbox/helpers.js";

/** The example fixture's `clock.start`: the sandbox starts there, whatever the date today. */
export const FIXTURE_START = new Date("2026-12-01T15:00:00Z");

export interface ApprovalsWorld {
  readonly dir: string;
  readonly sb: SandboxHandle;
  /** The environment of every command: the sandbox's URL and key, nothing of this process. */
  readonly env: Record<string, string>;
  /** Makes an ed25519 key pair `keys/<name>` (and `.pub`), returns the private key's path. */
  key(name: string): string;
  /** Adds `principal` with key `name` to the allowed signers file. */
  allow(principal: string, name: string): void;
  close(): Promise<void>;
}

/** The rule the policy gets, YAML under `rules:` (two spaces in). */
export const TWO_APPROVALS = "  require_approvals: {count: 2, allowed_signers: allowed_signers}\n";

export function requireSshKeygen(): void {
  const probe = spawnSync("ssh-keygen", ["-Y", "find-principals"], { encoding: "utf8" });
  expect(
    probe.error,
    "ssh-keygen is not installed: apt-get install openssh-client (.ci/run does)",
  ).toBeUndefined();
}

/**
 * `autoApproveTests: false`: the sandbox holds each test for a person's approval, so a plan's
 * schedules wait for their test (deferred) and go out only under `--wait-for-approval`.
 */
export async function approvalsWorld(
  rule: string = TWO_APPROVALS,
  options: { readonly autoApproveTests?: boolean } = {},
): Promise<ApprovalsWorld> {
  requireSshKeygen();
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-approvals-"));
  cpSync(join(process.cwd(), "examples"), join(dir, "examples"), { recursive: true });
  rmSync(join(dir, "examples", "ci"), { recursive: true, force: true });
  appendFileSync(join(dir, "examples", "campaignctl.policy.yaml"), rule);
  writeFileSync(join(dir, "examples", "allowed_signers"), "# who may approve a send\n");
  mkdirSync(join(dir, "keys"));
  const sb = await startSandbox({ start: FIXTURE_START, autoApproveTests: options.autoApproveTests ?? true });
  return {
    dir,
    sb,
    env: { CAMPAIGNCTL_API_KEY: PARENT_KEY, CAMPAIGNCTL_BASE_URL: sb.baseUrl },
    key(name) {
      const path = join(dir, "keys", name);
      execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", path]);
      return path;
    },
    allow(principal, name) {
      const pub = readFileSync(join(dir, "keys", `${name}.pub`), "utf8")
        .split(" ")
        .slice(0, 2)
        .join(" ");
      appendFileSync(join(dir, "examples", "allowed_signers"), `${principal} ${pub}\n`);
    },
    close: async () => {
      await sb.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What was sent (tests, schedules, pauses that changed something), as `<project id>:<kind>`. */
export async function sent(sb: SandboxHandle): Promise<string[]> {
  return (await effects(sb))
    .filter((e) => e.changed && ["test", "schedule", "pause"].includes(e.kind))
    .map((e) => `${e.project_id}:${e.kind}`);
}
