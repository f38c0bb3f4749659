/**
 * The shipped CI pipelines (examples/ci, which `init --ci` copies) run every command that judges
 * campaign files with --require-policy: a pipeline whose policy file went missing (renamed,
 * misspelt, cut off by a nested repository) fails instead of planning with no policy (issue 24).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";

const CI = "examples/ci";

function pipelines(dir = CI): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? pipelines(join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Each `campaignctl validate|plan|apply` command of a file, continuation lines joined. */
function judgingCommands(text: string): string[] {
  return text
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((l) => l.trim().replace(/^(-|run:)\s+/, ""))
    .filter((l) => /^campaignctl (validate|plan|apply)\b/.test(l));
}

describe("the shipped pipelines require a policy", () => {
  const files = pipelines();
  test("there are pipelines to check", () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
  });
  // The pipelines that judge campaign files; the results recorder (results-record.yml) judges none.
  const judging = files.filter((f) => !f.endsWith("/results-record.yml"));
  test.each(judging)("%s: every validate, plan and apply passes --require-policy", (file) => {
    const commands = judgingCommands(readFileSync(file, "utf8"));
    expect(commands.length, file).toBeGreaterThan(0);
    for (const command of commands) expect(command, file).toMatch(/\s--require-policy(\s|$)/);
  });
  test("the results recorder judges no campaign file", () => {
    expect(judgingCommands(readFileSync(join(CI, "github", "results-record.yml"), "utf8"))).toEqual([]);
  });
  const planning = files.filter((f) => readFileSync(f, "utf8").includes("git diff --quiet"));
  test.each(planning)("%s: a change to either spelling of the root policy starts a plan", (file) => {
    expect(readFileSync(file, "utf8")).toContain("campaignctl.policy.yaml campaignctl.policy.yml");
  });
});
