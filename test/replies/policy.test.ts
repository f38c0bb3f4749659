/** The policy's `replies` rule: required answers, and revocation words the policy adds. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { runCli } from "../helpers/run-cli.js";
import { CAMPAIGN, campaignDir } from "./world.js";

function withPolicy(rules: unknown): string {
  const dir = campaignDir();
  writeFileSync(join(dir, "campaignctl.policy.yaml"), stringify({ version: 1, rules }));
  return dir;
}

const codes = (stdout: string) =>
  (JSON.parse(stdout).diagnostics as { code: string; message: string }[]).filter((d) =>
    d.code.startsWith("policy.replies"),
  );

describe("policy rule replies", () => {
  it("accepts files whose rules answer what the policy requires", async () => {
    const cwd = withPolicy({ replies: { require: [{ text: "Who is this?", answer_contains: "Jane Doe" }] } });
    const r = await runCli(["validate", "--json", "."], { cwd });
    expect(r.code, r.stdout).toBe(0);
    expect(codes(r.stdout)).toEqual([]);
  });

  it("requires an answer, and words in it", async () => {
    const cwd = withPolicy({
      replies: {
        require: [{ text: "who is this", answer_contains: "paid for by" }, { text: "how do I register?" }],
      },
    });
    const r = await runCli(["validate", "--json", "."], { cwd });
    expect(r.code).toBe(1);
    const found = codes(r.stdout).map((d) => d.message);
    // Both projects with rules: their `who` lacks the words; nobody answers "how do I register?".
    expect(found.filter((m) => m.includes('"paid for by"'))).toHaveLength(2);
    expect(found.filter((m) => m.includes('"how do I register?"'))).toHaveLength(2);
  });

  it("adds revocation words: a rule that could match one is an error", async () => {
    const cwd = withPolicy({ replies: { opt_out_words: { en: ["volunteer no more"] } } });
    const r = await runCli(["validate", "--json", "."], { cwd });
    expect(r.code).toBe(1);
    expect(codes(r.stdout).map((d) => d.message)).toEqual([expect.stringContaining('"volunteer no more"')]);
    expect(CAMPAIGN.projects.volunteers.replies.rules[0]?.keywords).toContain("volunteer");
  });
});
