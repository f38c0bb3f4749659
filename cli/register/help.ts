/**
 * `campaignctl help [command]`, and what an unknown command gets: a usage error naming the nearest
 * command (`src/text/did-you-mean.ts`), as commander words it for an unknown option
 * (`(Did you mean plan?)`, which main.ts turns into the diagnostic's hint). Registered after every
 * other command, so it is listed last and knows every name.
 */
import { type Command, Option } from "commander";
import { didYouMean } from "../../src/text/did-you-mean.js";

export function registerHelp(program: Command): void {
  program
    .command("help")
    .description("Print the help of a command, or the list of commands")
    .argument("[command]", "the command to show the help of")
    // Accepted so that `help typo --json` answers with the error document, like every command.
    .addOption(new Option("--json", "an error as the error document on stdout").hideHelp())
    .action((name: string | undefined) => {
      if (name === undefined) program.help();
      const command = program.commands.find((c) => c.name() === name);
      if (command === undefined) unknownCommand(program, name);
      else command.help();
    });
  program.on("command:*", (operands: string[]) => unknownCommand(program, operands[0] ?? ""));
}

/** The names `campaignctl --help` lists (`help` included), in that order. */
export function commandNames(program: Command): string[] {
  return program
    .createHelp()
    .visibleCommands(program)
    .map((c) => c.name());
}

/**
 * The command `word` most likely misspells: the nearest by `didYouMean`, else one that differs by two
 * neighbouring letters swapped (`plna`: plan), which an edit distance counts twice.
 */
export function nearestCommand(word: string, names: readonly string[]): string | undefined {
  return didYouMean(word, names) ?? names.find((name) => isSwap(word, name));
}

function isSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const differ = [...a].flatMap((ch, i) => (ch === b[i] ? [] : [i]));
  const [i, j] = differ;
  return differ.length === 2 && i !== undefined && j === i + 1 && a[i] === b[j] && a[j] === b[i];
}

function unknownCommand(program: Command, name: string): never {
  const nearest = nearestCommand(name, commandNames(program));
  const suggestion = nearest === undefined ? "" : `\n(Did you mean ${nearest}?)`;
  program.error(`error: unknown command '${name}'${suggestion}`, { code: "commander.unknownCommand" });
}
