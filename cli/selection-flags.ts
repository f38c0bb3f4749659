/**
 * The selection options of `plan` and `apply`, declared once: `--target` and `--exclude`, each
 * repeatable, which commander collects into the command's `target` and `exclude` lists.
 */
import type { Command } from "commander";

const collect = (value: string, previous: readonly string[]): string[] => [...previous, value];

/** Adds `--target` and `--exclude` to `command`; `verb` words `--target`'s help ("plan", "apply"). */
export function addSelectionOptions(command: Command, verb: string): Command {
  return command
    .option(
      "--target <address>",
      `${verb} only this project and what it is ordered after (repeatable)`,
      collect,
      [],
    )
    .option("--exclude <address>", "leave this project out (repeatable)", collect, []);
}
