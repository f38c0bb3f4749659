/**
 * Policy files parsed once per content in a process (src/text/bounded-memo.ts, used by
 * loadPolicy): a long-lived process and in-process runs read an unchanged policy file again and
 * again. The memo must never answer for another text, and nothing a run does to what it got may
 * reach the next run.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadPolicy } from "../../cli/adapters/policy-file.js";

describe("loadPolicy with the memo", () => {
  /** A repository holding one campaign file and the policy text. */
  function repo(policy: string): string {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-policy-memo-"));
    mkdirSync(join(dir, ".git"));
    writeFileSync(join(dir, "a.yaml"), "version: 1\n");
    writeFileSync(join(dir, "campaignctl.policy.yaml"), policy);
    return dir;
  }

  test("the same file with another text is parsed again (content, not path, is the key)", () => {
    const dir = repo("version: 1\nrules:\n  require_opt_out_language: true\n");
    const first = loadPolicy({}, ["a.yaml"], dir);
    expect(first.ok && first.policy?.rules.require_opt_out_language).toBe(true);
    writeFileSync(
      join(dir, "campaignctl.policy.yaml"),
      "version: 1\nrules:\n  require_opt_out_language: false\n",
    );
    const second = loadPolicy({}, ["a.yaml"], dir);
    expect(second.ok && second.policy?.rules.require_opt_out_language).toBe(false);
    writeFileSync(join(dir, "campaignctl.policy.yaml"), "version: 1\nrules: [\n");
    const third = loadPolicy({}, ["a.yaml"], dir);
    expect(third.ok).toBe(false);
    expect(third.diagnostics.map((d) => d.code)).toEqual(["policy.file-invalid"]);
  });

  test("two runs over one text agree, and the second reads what the first read", () => {
    const dir = repo("version: 1\nrules:\n  min_test_contacts: 2\n");
    const first = loadPolicy({}, ["a.yaml"], dir);
    const second = loadPolicy({}, ["a.yaml"], dir);
    expect(second).toEqual(first);
  });
});
