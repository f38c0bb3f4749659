/**
 * The table of every command's flags (cli/flags/command-flags.json, each bundle's way of knowing
 * other commands' flags) is the command tree's, and an unknown flag that other commands have says
 * whose it is: `plan --auto-approve` names apply, from the sources and from the built bin alike.
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { COMMAND_FLAGS } from "../../cli/flags/command-flags.js";
import { commandFlagsJson, commandFlagsTable } from "../../cli/flags/command-flags-table.js";
import { buildProgram } from "../../cli/program.js";
import { captureIo, runBuiltCli, runCli } from "../helpers/run-cli.js";

describe("the table of every command's flags", () => {
  test("is the command tree's, laid out as scripts/gen-command-flags.mjs writes it", async () => {
    const tree = commandFlagsTable(await buildProgram(captureIo(), () => {}));
    const file = readFileSync(new URL("../../cli/flags/command-flags.json", import.meta.url), "utf8");
    // When this fails: node scripts/gen-command-flags.mjs (after npm run build).
    expect(COMMAND_FLAGS).toEqual(tree);
    expect(file).toBe(commandFlagsJson(tree));
    expect(tree.apply).toContain("--auto-approve");
    expect(tree["replies run"]).toContain("--once");
  });
});

describe("an unknown flag other commands have", () => {
  test.each([
    [["plan", "--auto-approve", "."], "--auto-approve is a flag of campaignctl apply, not of this command."],
    [
      ["status", "-parallelism", "3"],
      "Flags take two dashes. --parallelism is a flag of campaignctl apply, not of this command.",
    ],
    [
      ["replies", "plan", "--once"],
      "--once is a flag of campaignctl watch and replies run, not of this command.",
    ],
  ])("%j says whose it is", async (argv, hint) => {
    const run = await runCli(argv);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`\n  hint: ${hint}\n`);
  });

  test("a flag no command has keeps the usage hint; a near spelling wins over other commands' flags", async () => {
    expect((await runCli(["plan", "--nonsense"])).stderr).toContain(
      "hint: campaignctl plan --help shows the usage",
    );
    expect((await runCli(["plan", "--jsn"])).stderr).toContain("hint: did you mean --json?\n");
  });

  test("the built bin says the same, from a command registered alone", async () => {
    const run = await runBuiltCli(["plan", "--auto-approve", "."]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "hint: --auto-approve is a flag of campaignctl apply, not of this command.\n",
    );
  });
});
