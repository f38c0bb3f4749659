/**
 * Registrations load lazily (cli/program.ts): a run of one command builds that command alone. Its
 * help, and every subcommand's, must read exactly as in the whole tree that `--help`, `help
 * [command]`, completion and docs/commands.md are built from.
 */
import type { Command } from "commander";
import { describe, expect, test } from "vitest";
import { buildProgram, commandWord } from "../../cli/program.js";
import { captureIo } from "../helpers/run-cli.js";

/** Every command and subcommand, as its path of names (`["webhooks", "listen"]`). */
function paths(command: Command, prefix: readonly string[] = []): string[][] {
  return command.commands.flatMap((c) => [[...prefix, c.name()], ...paths(c, [...prefix, c.name()])]);
}

function at(program: Command, path: readonly string[]): Command {
  let command = program;
  for (const name of path) {
    const next = command.commands.find((c) => c.name() === name);
    if (next === undefined) throw new Error(`no command ${path.join(" ")}`);
    command = next;
  }
  return command;
}

describe("a command built alone reads as in the whole tree", () => {
  test("every command and subcommand: the same help, flags and arguments", async () => {
    const whole = await buildProgram(captureIo(), () => {});
    const all = paths(whole).filter((p) => p[0] !== "help");
    expect(all.length).toBeGreaterThanOrEqual(16);
    for (const path of all) {
      const alone = await buildProgram(captureIo(), () => {}, [...path, "--help"]);
      // Only the named command (and help) is registered...
      if (path[0] !== "completion") expect(alone.commands.map((c) => c.name())).toEqual([path[0], "help"]);
      // ...and it is the same command.
      expect(at(alone, path).helpInformation()).toBe(at(whole, path).helpInformation());
    }
  });

  test("the command word: the first word that is not an option, none after --", () => {
    expect(commandWord(["validate", "x.yaml"])).toBe("validate");
    expect(commandWord(["-v"])).toBeUndefined();
    expect(commandWord(["--help", "plan"])).toBe("plan");
    expect(commandWord(["--", "validate"])).toBeUndefined();
    expect(commandWord([])).toBeUndefined();
  });
});
