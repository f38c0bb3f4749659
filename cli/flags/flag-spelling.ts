/**
 * What an unknown flag gets said about it: the flag as it is shown (never a key's value), and the
 * hint line, or none (then commander's own wording stands). Pure; `strict-command.ts` asks it.
 *
 * - A key given as a flag (`--api-key`, `-api-key`, `--token` …): the key is read from the
 *   environment only, and why (shell history, the process list, CI logs). Its value is never shown.
 * - Terraform's `-var`, `-var-file`: how values are given here (the campaign files).
 * - A single-dash spelling (`-auto-approve`, `-out=plan.json`, `-json`): the double-dash flag.
 * - `-v…`, `--version` within a command: the version is printed only with no command.
 * - A flag of other commands only (`plan --auto-approve`): whose it is.
 */
import { API_KEY_ENV } from "../../src/api/config.js";
import { didYouMean } from "../../src/text/did-you-mean.js";
import { wordList } from "../../src/text/word-list.js";
import type { CommandFlags } from "./command-flags.js";

/** What to print for one unknown flag. */
export interface UnknownFlag {
  /** The flag as the error names it: the word typed, or only its name when it may carry a secret. */
  readonly shown: string;
  /** The sentence after the error (without parentheses), or undefined: commander's wording stands. */
  readonly hint: string | undefined;
}

/** What the command knows: its long flags (`--out`, `--help` …), and whether it is the root. */
export interface FlagContext {
  readonly longFlags: readonly string[];
  /** Those of `longFlags` that take no value (`--auto-approve`): `-auto-approve=true` is one alone. */
  readonly switches?: readonly string[];
  /** `campaignctl` itself, with no command: where `-v`/`--version` print the version. */
  readonly root: boolean;
  /**
   * Every command's flags (command-flags.ts) and this command's words in it (`replies plan`): a
   * flag this command lacks and no near spelling explains, that others have, is said to be theirs.
   */
  readonly elsewhere?: { readonly flags: CommandFlags; readonly command: string };
}

/** Names of a key passed as a flag, as other tools spell it. */
const KEY_FLAGS = new Set(["api-key", "apikey", "api_key", "api-token", "token", "key", "secret"]);
const TWO_DASHES = "Flags take two dashes.";
/** Terraform's input variables. */
const VARIABLE_FLAGS = new Set(["var", "var-file", "vars", "tfvars"]);

export function unknownFlag(word: string, context: FlagContext): UnknownFlag {
  const single = /^-[^-]/.test(word);
  const equals = word.indexOf("=");
  const spelt = equals < 0 ? word : word.slice(0, equals);
  const value = equals < 0 ? "" : word.slice(equals);
  const name = spelt.replace(/^--?/, "");
  if (KEY_FLAGS.has(name.toLowerCase())) return { shown: spelt, hint: keyHint(context) };
  if (VARIABLE_FLAGS.has(name.toLowerCase())) return { shown: spelt, hint: VARIABLE_HINT };
  const suggestion = suggest(name, single, context.longFlags);
  if (nearKeyFlag(name, context.longFlags)) return { shown: spelt, hint: keyHint(context) };
  const exact = suggestion === `--${name}`;
  const version = !context.root && isVersionSpelling(spelt) && !exact;
  const sentences: string[] = [];
  const owners = suggestion === undefined ? flagOwners(`--${name}`, context) : [];
  const valueless =
    suggestion !== undefined && value !== "" && context.switches?.includes(suggestion) === true;
  if (suggestion !== undefined) {
    sentences.push(`Did you mean ${exact && !valueless ? `${suggestion}${value}` : suggestion}?`);
    if (single) sentences.push(TWO_DASHES);
    if (valueless)
      sentences.push(
        `${suggestion} takes no value: give it alone to turn it on; leave it out to keep it off.`,
      );
  } else if (single && spelt.length > 2) {
    sentences.push(
      owners.length > 0 ? TWO_DASHES : `Flags take two dashes, and this command has no --${name}.`,
    );
  }
  if (owners.length > 0)
    sentences.push(`--${name} is a flag of campaignctl ${wordList(owners)}, not of this command.`);
  if (version)
    sentences.push("-v and --version print the version only with no command: campaignctl --version.");
  // The error names the flag only: the value after `=` of a flag we do not know may be a secret
  // (`--auth=…`, `--api-kye=…`, `--signing-secret=…`).
  return { shown: spelt, hint: sentences.length === 0 ? undefined : sentences.join(" ") };
}

/** The other commands that have `flag` (in the tree's order); none for the root. */
function flagOwners(flag: string, context: FlagContext): string[] {
  const { elsewhere } = context;
  if (elsewhere === undefined || context.root) return [];
  return Object.entries(elsewhere.flags)
    .filter(([command, flags]) => command !== elsewhere.command && flags.includes(flag))
    .map(([command]) => command);
}

/**
 * `-v`, `-V`, `--version`, and any single-dash word starting with v that is not one of the
 * command's flags (`-version`, `-vv`; `-verbose` where the command has no `--verbose`).
 */
function isVersionSpelling(spelt: string): boolean {
  return /^-[vV]/.test(spelt) || spelt === "--version";
}

/**
 * The long flag meant: `--<name>` itself when the command has it, else the nearest. A bare `-v` means
 * `--verbose` where the command has it.
 */
function suggest(name: string, single: boolean, longFlags: readonly string[]): string | undefined {
  if (longFlags.includes(`--${name}`)) return single ? `--${name}` : undefined;
  const cased = longFlags.find((f) => f.toLowerCase() === `--${name.toLowerCase()}`);
  if (cased !== undefined) return cased; // `--JSON`, `-Auto-Approve`: flags are lower case
  if (single && (name === "v" || name === "V") && longFlags.includes("--verbose")) return "--verbose";
  if (!single || name.length < 2) return undefined;
  const nearest = didYouMean(
    name,
    longFlags.map((f) => f.slice(2)),
  );
  return nearest === undefined ? undefined : `--${nearest}`;
}

/**
 * A near miss of a key's flag (`--api-kye`, `--tokens`) that is not one of the command's own flags
 * (`--api-key-en` is `--api-key-env`'s).
 */
function nearKeyFlag(name: string, longFlags: readonly string[]): boolean {
  if (name.length < 5) return false;
  if (didYouMean(name, [...KEY_FLAGS]) === undefined) return false;
  return (
    didYouMean(
      name,
      longFlags.map((f) => f.slice(2)),
    ) === undefined
  );
}

function keyHint(context: FlagContext): string {
  const other = context.longFlags.includes("--api-key-env")
    ? ", or name another variable with --api-key-env <name>"
    : "";
  return [
    `The API key is read from the environment only: export ${API_KEY_ENV}=<key> (in CI, from a secret)${other}.`,
    "A key is never a flag: a flag's value stays in the shell history, shows in the process list to",
    "every user of the machine, and is printed in CI logs.",
  ].join(" ");
}

const VARIABLE_HINT = [
  "campaignctl has no input variables: every value is written in the campaign files and reviewed in",
  "git (`defaults:` for what a file's projects share, `merge_defaults:` and a test contact's",
  "`merge_values:` for merge tags). For values per environment, keep a directory of files for each and",
  "name it: campaignctl plan campaigns/prod/. See docs/campaign-files.md.",
].join(" ");
