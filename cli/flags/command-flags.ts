/**
 * Every command's long flags, as a table each bundle can hold (command-flags.json, generated from
 * the tree by scripts/gen-command-flags.mjs and checked by test/cli/command-flags.test.ts): a run
 * registers only the command it names, so this is how an unknown flag learns whose flag it is.
 */
import type { Command } from "commander";
import { type CompletionCommand, completionModel } from "../completion/model.js";
import table from "./command-flags.json" with { type: "json" };

/** By a command's words after `campaignctl` (`replies run`), the long flags its help lists but `--help`. */
export type CommandFlags = Readonly<Record<string, readonly string[]>>;

/** The table of the tree as built (command-flags.json). */
export const COMMAND_FLAGS: CommandFlags = table;

/**
 * The table of the tree under `root`, as completion reads it (completion/model.ts: every visible
 * command and flag): each command with a flag but `--help`, in the tree's order.
 */
export function commandFlagsTable(root: Command): CommandFlags {
  const out: Record<string, readonly string[]> = {};
  const visit = (commands: readonly CompletionCommand[], above: string): void => {
    for (const command of commands) {
      const words = above === "" ? command.name : `${above} ${command.name}`;
      const flags = command.flags.map((f) => f.long).filter((f) => f !== "--help");
      if (flags.length > 0) out[words] = flags;
      visit(command.subcommands, words);
    }
  };
  visit(completionModel(root).commands, "");
  return out;
}

/** The table as its file's text, laid out as the formatter (Biome, 110 columns) lays out JSON. */
export function commandFlagsJson(flags: CommandFlags): string {
  const entries = Object.entries(flags);
  const lines = entries.map(([command, list], i) => {
    const comma = i < entries.length - 1 ? "," : "";
    const key = `  ${JSON.stringify(command)}: `;
    const inline = `${key}[${list.map((f) => JSON.stringify(f)).join(", ")}]${comma}`;
    if (inline.length <= 110) return inline;
    return `${key}[\n${list.map((f) => `    ${JSON.stringify(f)}`).join(",\n")}\n  ]${comma}`;
  });
  return `{\n${lines.join("\n")}\n}\n`;
}
