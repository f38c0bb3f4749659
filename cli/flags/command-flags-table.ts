/**
 * The table of command-flags.json made from the command tree, and its file's text: for
 * scripts/gen-command-flags.mjs and the test that checks the file, never loaded by a run.
 */
import type { Command } from "commander";
import { type CompletionCommand, completionModel } from "../completion/model.js";
import type { CommandFlags } from "./command-flags.js";

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
