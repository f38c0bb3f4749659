/**
 * `plan --forecast` (issue 19): the examples, whose declared daily cap is small enough to bite, show a
 * project pausing at the cap in the terminal plan, the JSON plan (valid against its schema, checked
 * by the CLI test helper) and the Markdown comment with its Mermaid gantt block.
 */
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../helpers/run-cli.js";

/** The examples, whose policy declares the brand's daily cap at 30 messages (each scheduled send needs 38). */
function examplesCopy(): string {
  const cwd = mkdtempSync(join(tmpdir(), "campaignctl-forecast-"));
  cpSync("examples", join(cwd, "examples"), { recursive: true });
  expect(readFileSync(join(cwd, "examples", "campaignctl.policy.yaml"), "utf8")).toContain("{daily_cap: 30}");
  return cwd;
}

describe("plan --forecast", () => {
  test("a project pauses at the declared cap: in the terminal plan, the JSON and the Markdown", async () => {
    const cwd = examplesCopy();
    const cli = (...argv: string[]) => runCli(argv, { cwd, env: {} });

    const json = await cli("plan", "--sandbox", "examples/", "--forecast", "--json");
    const plan = JSON.parse(json.stdout) as { forecast?: { projects: { address: string }[] } };
    expect(plan.forecast?.projects.map((p) => p.address).sort()).toEqual(["gotv-followup", "gotv-reminder"]);
    expect(json.stdout).toContain("cap");

    const text = await cli("plan", "--sandbox", "examples/", "--forecast", "--markdown", "plan.md");
    expect(text.stdout).toContain(
      "gotv-reminder  38 recipients, starts 2026-12-07 10:00 CST, pauses at the daily cap 2026-12-07 10:00 CST (Pacific day 2026-12-07), 8 of 38 left: restart in the dashboard",
    );
    const markdown = readFileSync(join(cwd, "plan.md"), "utf8");
    expect(markdown).toContain("```mermaid");
    expect(markdown).toContain("gantt");

    const without = await cli("plan", "--sandbox", "examples/", "--json");
    expect(JSON.parse(without.stdout).forecast).toBeUndefined();
  });
});
