/**
 * A lint error in one project does not stop a targeted plan or apply of another: only the covered
 * projects (targets and what they are ordered after) are linted. File errors still stop everything.
 */

import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { checkCovered } from "../../src/plan/check-covered.js";
import { TEST_NOW } from "../helpers/clock.js";
import { runCli } from "../helpers/run-cli.js";
import { fileProject, KEY, liveProject, TEST_BLOCK } from "../plan-command/fixture-builder.js";
import { withCase } from "../plan-command/harness.js";
import { admin } from "../sandbox/helpers.js";

const NO_OPT_OUT = "Polls are open 7am-7pm";

function loaded(text: string) {
  const sha256 = createHash("sha256").update(text).digest("hex");
  return assembleCampaign([{ path: "c.yaml", text, sha256 }]);
}

// `a` lacks opt-out language (a lint error); `b` is clean; `c` follows `a`; `d` is clean.
const FILE = `version: 1
projects:
  a:
    id: a-1
    message: "${NO_OPT_OUT}"
  b:
    id: b-1
    message: "Vote today. Reply STOP to opt out"
  c:
    id: c-1
    message: "Vote tomorrow. Reply STOP to opt out"
    after: [a]
  d:
    id: d-1
    message: "Vote early. Reply STOP to opt out"
`;

describe("checkCovered", () => {
  test.each([
    { targets: [], excludes: [], errors: ["lint.opt-out-missing"] },
    { targets: ["b"], excludes: [], errors: [] },
    { targets: ["b", "d"], excludes: [], errors: [] },
    { targets: ["a"], excludes: [], errors: ["lint.opt-out-missing"] },
    // c needs a: a's error stops a plan of c.
    { targets: ["c"], excludes: [], errors: ["lint.opt-out-missing"] },
    { targets: [], excludes: ["a", "c"], errors: [] },
  ])("targets $targets, excludes $excludes: $errors", ({ targets, excludes, errors }) => {
    const checked = checkCovered(loaded(FILE), targets, excludes, { now: null });
    expect(checked.diagnostics.filter((x) => x.severity === "error").map((x) => x.code)).toEqual(errors);
  });

  test("errors of the files themselves stop every plan, targeted or not", () => {
    const checked = checkCovered(loaded(`${FILE}bogus: 1\n`), ["b"], [], { now: null });
    expect(checked.diagnostics.map((x) => x.code)).toEqual(["campaign.unknown-key"]);
  });

  test("the selection is returned with its own diagnostics apart", () => {
    const checked = checkCovered(loaded(FILE), ["bb"], [], { now: null });
    expect(checked.selection.diagnostics.map((x) => x.code)).toEqual(["plan.unknown-address"]);
    expect(checked.diagnostics).toEqual([]);
  });
});

const NOW = TEST_NOW;
const CASE = {
  live: [liveProject(1, NOW), liveProject(2, NOW)],
  files: {
    first: fileProject(1, { state: "tested", test: TEST_BLOCK }),
    second: fileProject(2, { message: NO_OPT_OUT }),
  },
};

describe("plan and apply --target with a lint error elsewhere", () => {
  test("the targeted plan and apply go ahead; an untargeted plan stops", async () => {
    await withCase(CASE, async (sandbox, dir) => {
      const env = { CAMPAIGNCTL_API_KEY: KEY, CAMPAIGNCTL_BASE_URL: sandbox.baseUrl };
      const all = await runCli(["plan"], { cwd: dir, env });
      expect(all.code).toBe(1);
      expect(all.stderr).toContain("error[lint.opt-out-missing]: second:");
      const targeted = await runCli(["plan", "--json", "--target", "first"], { cwd: dir, env });
      expect(targeted.code).toBe(0);
      const plan = JSON.parse(targeted.stdout) as { diagnostics: { code: string }[] };
      expect(plan.diagnostics.map((x) => x.code)).not.toContain("lint.opt-out-missing");
      const applied = await runCli(["apply", "--auto-approve", "--target", "first"], { cwd: dir, env });
      expect(applied.code).toBe(0);
      const effects = await admin(sandbox, "GET", "/test-messages");
      expect((effects.body as { data: unknown[] }).data.length).toBeGreaterThan(0);
    });
  });
});
