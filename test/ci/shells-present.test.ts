/**
 * The completion tests of zsh and fish (test/cli/completion.test.ts) run only where the shell is
 * installed. On a developer's machine without one they are skipped, and this file says so on the
 * console; with CI=true a missing shell fails here (.ci/run installs both), so CI never passes
 * with those tests skipped.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const IN_CI = process.env.CI === "true";
const missing = ["zsh", "fish"].filter((shell) => spawnSync(shell, ["-c", "exit 0"]).status !== 0);

if (missing.length > 0 && !IN_CI)
  console.warn(
    `completion tests skipped for ${missing.join(" and ")}: not installed (apt-get install ${missing.join(" ")})`,
  );

describe("with CI=true", () => {
  it.runIf(IN_CI)("zsh and fish are installed, so their completion tests really run", () => {
    expect(missing, "CI=true but a shell is missing: .ci/run must install it").toEqual([]);
  });
});
