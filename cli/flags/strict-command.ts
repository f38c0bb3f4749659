/**
 * The command class of campaignctl's tree: commander's, with flags that cannot misfire.
 *
 * Commander reads `-verbose` as the short flag `-v` followed by `erbose`, so with `-v` meaning
 * `--version` any word starting with `-v` printed the version and exited 0, and `-h…` printed help.
 * None of our commands has a short flag to combine, so here a single-dash word longer than two
 * characters (`-auto-approve`, `-out=plan.json`, `-verbose`) is never split: it is an unknown option,
 * with what was meant (`flag-spelling.ts`). Together with positional options (program.ts: the root's
 * `-v`/`--version` count only before the command), `-v` prints the version only with no command.
 */
import { Command, CommanderError, type Option } from "commander";
import { COMMAND_FLAGS } from "./command-flags.js";
import { unknownFlag } from "./flag-spelling.js";

/**
 * A usage error of a command of the tree, not yet shown: commander's message (`error: …`, with a
 * parenthesised suggestion line when there is one) and the command it is about (`campaignctl
 * replies plan`), so that main.ts shows it as every other error is shown (`error[cli.usage]: …`).
 */
export class UsageError extends CommanderError {
  constructor(
    message: string,
    code: string,
    /** The command's words from the root: `campaignctl replies plan`. */
    readonly command: string,
  ) {
    super(1, code, message);
  }
}

export class StrictCommand extends Command {
  override createCommand(name?: string): StrictCommand {
    return new StrictCommand(name);
  }

  /**
   * Every usage error of commander's (unknown option, missing argument, invalid value) and ours
   * passes here: thrown as a UsageError without writing anything, so that main.ts writes it once,
   * as a diagnostic with its code (commander would write `error: …` with no code).
   */
  override error(message: string, options?: { code?: string; exitCode?: number }): never {
    throw new UsageError(message, options?.code ?? "commander.error", wordsOf(this).join(" "));
  }

  /**
   * Refuses an unknown option among this command's words (up to `--`; for a command with subcommands,
   * up to the subcommand's name) before commander reads them: so a single-dash word is never split
   * into short flags, and an unknown option is reported before a missing required one.
   */
  override parseOptions(argv: string[]): ReturnType<Command["parseOptions"]> {
    const known = [...this.options, ...this.createHelp().visibleOptions(this)];
    const given = new Map<Option, string>();
    if (this.parent === null) {
      this.refuseVersionWithCommand(argv);
      this.helpOfCommand(argv);
    }
    for (let i = 0; i < argv.length; i++) {
      const word = argv[i] ?? "";
      if (word === "--") break;
      if (!word.startsWith("-") || word.length < 2 || isNegativeNumber(word)) {
        if (this.commands.length > 0) break; // the subcommand parses the rest
        continue;
      }
      const option = known.find((o) => is(o, word));
      if (option !== undefined) {
        if (option.required) {
          i++; // its value, whatever it looks like
          if (argv[i] === "") this.emptyValue(option);
          this.onceOnly(given, option, argv[i] ?? "");
        }
        continue;
      }
      const equals = word.indexOf("=");
      const named =
        equals > 2 && word.startsWith("--") ? known.find((o) => is(o, word.slice(0, equals))) : undefined;
      if (named?.required && equals === word.length - 1) this.emptyValue(named);
      if (named?.required) this.onceOnly(given, named, word.slice(equals + 1));
      if (named !== undefined && (named.required || named.optional)) continue;
      if (named?.long !== undefined) this.valueOnSwitch(named.long);
      this.unknownOption(word);
    }
    return super.parseOptions(argv);
  }

  /**
   * `campaignctl -v plan …`: the root's `-v`/`-V`/`--version` before a command would print the
   * version and exit 0 (a CI step reads "nothing to do"); so with a word after it, a usage error.
   */
  private refuseVersionWithCommand(argv: readonly string[]): void {
    const first = argv.findIndex((w) => !w.startsWith("-") || w === "--");
    const own = first < 0 ? argv : argv.slice(0, first);
    const at = own.findIndex((w) => w === "-v" || w === "-V" || w === "--version");
    const command = argv.slice(at + 1).find((w) => !w.startsWith("-"));
    if (at < 0 || command === undefined) return;
    const flag = argv[at] ?? "-v";
    const meant = this.commands.find((c) => c.name() === command);
    const where =
      meant === undefined
        ? "campaignctl --version prints the version, on its own."
        : `campaignctl --version prints the version, on its own; campaignctl ${command} --help lists the flags of ${command}.`;
    this.error(
      `error: ${flag} prints the version only with no command, and '${command}' is given\n(${where})`,
      {
        code: "commander.usageError",
      },
    );
  }

  /**
   * `--auto-approve=false`, `--json=true`: a switch given a value. Commander would call it unknown
   * (and suggest the very same flag); the value is never shown, and never read as "off".
   */
  private valueOnSwitch(flag: string): never {
    this.error(
      flag === "--help" || flag === "--version"
        ? `error: option '${flag}' takes no value\n(Write ${flag} alone.)`
        : `error: option '${flag}' takes no value\n(Give ${flag} alone to turn it on; leave it out to keep it off.)`,
      { code: "commander.usageError" },
    );
  }

  /** `campaignctl -h plan`, `--help plan`: the help of the command named, as `campaignctl plan --help`. */
  private helpOfCommand(argv: readonly string[]): void {
    const first = argv.findIndex((w) => !w.startsWith("-"));
    if (first < 0 || !argv.slice(0, first).some((w) => w === "-h" || w === "--help")) return;
    this.commands.find((c) => c.name() === argv[first])?.help();
  }

  /**
   * `--out a.json --out b.json`, `--format csv --format json`: a one-value option given twice with
   * two values. Commander keeps the last one silently (a.json never written); a repeatable option
   * (`--target`, `--contact`) keeps them all, and the same value twice is that value.
   */
  private onceOnly(given: Map<Option, string>, option: Option, value: string): void {
    const before = given.get(option);
    given.set(option, value);
    if (before === undefined || before === value || repeatable(option, value)) return;
    this.error(
      `error: option '${option.flags}' given twice ('${before}', then '${value}')\n(It takes one value: give it once.)`,
      { code: "commander.usageError" },
    );
  }

  /** `--out=`, `--target ""` (an unset shell variable): an empty value is no value. */
  private emptyValue(option: Option): never {
    this.error(`error: option '${option.flags}' argument missing (the value given is empty)`, {
      code: "commander.optionMissingArgument",
    });
  }

  /** Commander's hook for an unknown option (not in its typings): our wording, else commander's. */
  unknownOption(flag: string): never {
    const options = this.createHelp().visibleOptions(this);
    const longFlags = options.flatMap((o) => (o.long === undefined ? [] : [o.long]));
    const switches = options.flatMap((o) =>
      o.long === undefined || o.required || o.optional ? [] : [o.long],
    );
    const { shown, hint } = unknownFlag(flag, {
      longFlags,
      switches,
      root: this.parent === null,
      // The table names a command by its words after the root's (`replies plan`).
      elsewhere: { flags: COMMAND_FLAGS, command: wordsOf(this).slice(1).join(" ") },
    });
    if (hint === undefined) {
      const base = Command.prototype as unknown as { unknownOption(this: Command, flag: string): never };
      return base.unknownOption.call(this, shown);
    }
    this.error(`error: unknown option '${shown}'\n(${hint})`, { code: "commander.unknownOption" });
  }
}

/** A command's words from the root: `campaignctl`, `replies`, `plan`. */
function wordsOf(command: Command): string[] {
  const words: string[] = [];
  for (let c: Command | null = command; c !== null; c = c.parent) words.unshift(c.name());
  return words;
}

/**
 * Whether `option` keeps every value given (its parser collects them into a list: `--target`,
 * `--contact`, `--loosen`). A value its parser refuses is left to commander, which says why.
 */
function repeatable(option: Option, value: string): boolean {
  if (option.variadic) return true;
  if (option.parseArg === undefined) return false;
  try {
    return Array.isArray(option.parseArg(value, undefined));
  } catch {
    return true;
  }
}

function isNegativeNumber(word: string): boolean {
  return /^-(\d+|\d*\.\d+)(e[+-]?\d+)?$/.test(word);
}

/** The option spelt `flag` (its short or long form), as commander's own `Option.is`. */
function is(option: Option, flag: string): boolean {
  return option.short === flag || option.long === flag;
}
