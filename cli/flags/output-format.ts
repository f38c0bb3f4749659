/**
 * The output options every offline command (`validate`, `preview`) shares, with one rule:
 * `--format text|json` picks the output, `--json` is short for `--format json`, and `--json` with
 * `--format text` is a usage error (the two disagree). `--no-color` and `--verbose` go with them.
 */
import { type Command, Option } from "commander";

/** What a command prints on stdout: the report for people, or one JSON document. */
export type Format = "text" | "json";

/** The flags `addOutputOptions` declares, as commander parses them. */
export interface OutputFlags {
  readonly format: Format;
  readonly json?: boolean;
  /** False with `--no-color`. */
  readonly color: boolean;
  readonly verbose?: boolean;
}

export function addOutputOptions(command: Command): Command {
  return command
    .addOption(new Option("--format <format>", "output format").choices(["text", "json"]).default("text"))
    .option("--json", "same as --format json: one JSON document on stdout")
    .option("--no-color", "no ANSI colour (also: NO_COLOR)")
    .option("--verbose", "also show info notes (hidden by default)");
}

/**
 * The format asked for, or a usage message when `--json` meets an explicit `--format text`.
 * `formatGiven`: whether `--format` was on the command line (not its default).
 */
export function formatOf(flags: OutputFlags, formatGiven: boolean): Format | { readonly usage: string } {
  if (flags.json !== true) return flags.format;
  if (formatGiven && flags.format !== "json")
    return { usage: `--json and --format ${flags.format} disagree: give one of them` };
  return "json";
}

/** Whether `--format` was given on the command line of `command`. */
export function formatGiven(command: Command): boolean {
  return command.getOptionValueSource("format") === "cli";
}
