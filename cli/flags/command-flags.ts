/**
 * Every command's long flags, as a table each bundle can hold (command-flags.json, generated from
 * the tree by scripts/gen-command-flags.mjs and checked by test/cli/command-flags.test.ts): a run
 * registers only the command it names, so this is how an unknown flag learns whose flag it is.
 * Loaded by every run (strict-command.ts): the table only; command-flags-table.ts makes it.
 */
import table from "./command-flags.json" with { type: "json" };

/** By a command's words after `campaignctl` (`replies run`), the long flags its help lists but `--help`. */
export type CommandFlags = Readonly<Record<string, readonly string[]>>;

/** The table of the tree as built (command-flags.json). */
export const COMMAND_FLAGS: CommandFlags = table;
