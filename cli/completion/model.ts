/**
 * What shell completion knows, read from the registered commander program (never a hand-kept
 * list): each command with its description, its visible flags (hidden aliases left out) and what its
 * operands are. The shell scripts (`bash.ts`, `zsh.ts`, `fish.ts`) are pure renderings of this.
 */
import type { Command, Option } from "commander";

/** What a value (of a flag or an operand) is completed with. */
export type ValueKind =
  /** File and directory names. */
  | { readonly kind: "path" }
  /** One of these words. */
  | { readonly kind: "words"; readonly words: readonly string[] }
  /** Free text: nothing is offered. */
  | { readonly kind: "text" };

/** A flag. Invariant: `long` starts with `--`; `short`, when present, is one dash and one letter. */
export interface CompletionFlag {
  readonly long: string;
  readonly short?: string;
  readonly description: string;
  /** Undefined for a flag without a value (`--sandbox`). */
  readonly value?: ValueKind;
  /** May be given more than once (`--target A --target B`). */
  readonly repeatable: boolean;
}

/** A command. Invariant: `name` is a single word of lowercase letters and dashes. */
export interface CompletionCommand {
  readonly name: string;
  readonly description: string;
  readonly flags: readonly CompletionFlag[];
  /** Undefined for a command without operands. */
  readonly operands?: ValueKind;
  /**
   * The command's own commands (`webhooks listen`, `webhooks verify`); empty for a command that has
   * none. Invariant: a command with subcommands has no operands of its own.
   */
  readonly subcommands: readonly CompletionCommand[];
}

/** The whole program: its own flags (`--version`, `--help`) and its commands, as `--help` lists them. */
export interface CompletionModel {
  readonly program: string;
  readonly version: string;
  readonly flags: readonly CompletionFlag[];
  readonly commands: readonly CompletionCommand[];
}

export function completionModel(program: Command): CompletionModel {
  const help = program.createHelp();
  const commands = help.visibleCommands(program);
  const names = commands.map((c) => c.name());
  return {
    program: program.name(),
    version: program.version() ?? "",
    flags: help.visibleOptions(program).flatMap(flagOf),
    commands: commands.map((command) => commandOf(command, names)),
  };
}

function commandOf(command: Command, names: readonly string[]): CompletionCommand {
  const help = command.createHelp();
  // A command's own implicit `help` is left out: `campaignctl help webhooks` is the way to it.
  const subcommands = help.visibleCommands(command).filter((c) => c.name() !== "help");
  const subNames = subcommands.map((c) => c.name());
  return {
    name: command.name(),
    description: oneLine(command.description()),
    flags: help.visibleOptions(command).flatMap(flagOf),
    ...(subcommands.length > 0 ? {} : operandsOf(command, names)),
    subcommands: subcommands.map((c) => commandOf(c, subNames)),
  };
}

function flagOf(option: Option): CompletionFlag[] {
  if (option.long === undefined) return [];
  const takesValue = option.required || option.optional;
  return [
    {
      long: option.long,
      ...(option.short === undefined ? {} : { short: option.short }),
      description: oneLine(option.description),
      ...(takesValue ? { value: valueKind(option.flags, option.argChoices) } : {}),
      repeatable: Array.isArray(option.defaultValue) || option.variadic,
    },
  ];
}

/** A value named like a file or directory (`<file>`, `<dir|file>`) completes with paths. */
function valueKind(placeholder: string, choices: readonly string[] | undefined): ValueKind {
  if (choices !== undefined && choices.length > 0) return { kind: "words", words: choices };
  return /<[^>]*(file|dir|path)[^>]*>/i.test(placeholder) ? { kind: "path" } : { kind: "text" };
}

/** `help` completes command names; an operand with choices, those; `paths...`, file names. */
function operandsOf(command: Command, names: readonly string[]): { operands?: ValueKind } {
  const first = command.registeredArguments[0];
  if (first === undefined) return {};
  if (command.name() === "help") return { operands: { kind: "words", words: names } };
  if (first.argChoices !== undefined) return { operands: { kind: "words", words: first.argChoices } };
  return { operands: /path|file|dir/i.test(first.name()) ? { kind: "path" } : { kind: "text" } };
}

/** The description on one line: shells show one line a candidate. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
