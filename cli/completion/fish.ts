/**
 * The fish completion script of `campaignctl completion fish`, rendered from the program's
 * completion model. Pure. File names are offered only where a path is expected.
 */
import type { CompletionFlag, CompletionModel, ValueKind } from "./model.js";

export function renderFishCompletion(model: CompletionModel): string {
  const c = `complete -c ${model.program}`;
  const top = "-n __fish_use_subcommand";
  const lines = [
    `# fish completion for ${model.program} ${model.version} (\`${model.program} completion fish\`).`,
    `# Load it in this shell: ${model.program} completion fish | source`,
    `# For every shell: ${model.program} completion fish > ~/.config/fish/completions/${model.program}.fish`,
    `${c} -f`,
    ...model.flags.map((f) => `${c} ${top} ${flagArgs(f)}`),
    // No command after the version (`campaignctl -v plan` is a usage error).
    ...model.commands.map(
      (command) =>
        `${c} -n ${quote("__fish_use_subcommand; and not __fish_seen_argument -s v -l version")} -a ${command.name} -d ${quote(command.description)}`,
    ),
  ];
  for (const command of model.commands) {
    const seen = `__fish_seen_subcommand_from ${command.name}`;
    const when = `-n ${quote(seen)}`;
    lines.push(...command.flags.map((f) => `${c} ${when} ${flagArgs(f)}`));
    if (command.operands !== undefined && command.operands.kind !== "text")
      lines.push(`${c} ${when} ${valueArgs(command.operands, false)}`);
    // A command of commands (`webhooks`): its subcommands until one is given, then that one's flags.
    const subs = command.subcommands.map((sub) => sub.name);
    for (const sub of command.subcommands) {
      const before = `-n ${quote(`${seen}; and not __fish_seen_subcommand_from ${subs.join(" ")}`)}`;
      lines.push(`${c} ${before} -a ${sub.name} -d ${quote(sub.description)}`);
    }
    for (const sub of command.subcommands) {
      const within = `-n ${quote(`${seen}; and __fish_seen_subcommand_from ${sub.name}`)}`;
      lines.push(...sub.flags.map((f) => `${c} ${within} ${flagArgs(f)}`));
    }
  }
  lines.push("");
  return lines.join("\n");
}

function flagArgs(flag: CompletionFlag): string {
  const names = [
    ...(flag.short === undefined ? [] : [`-s ${flag.short.slice(1)}`]),
    `-l ${flag.long.slice(2)}`,
  ].join(" ");
  const value = flag.value === undefined ? "" : ` ${valueArgs(flag.value, true)}`;
  return `${names}${value} -d ${quote(flag.description)}`;
}

/** A flag's value is required (`-r`); words are exclusive (`-x`); paths force file names (`-F`). */
function valueArgs(value: ValueKind, ofFlag: boolean): string {
  switch (value.kind) {
    case "path":
      return ofFlag ? "-r -F" : "-F";
    case "words":
      return `${ofFlag ? "-x" : "-f"} -a ${quote(value.words.join(" "))}`;
    case "text":
      return ofFlag ? "-x" : "-f";
  }
}

/** A single-quoted fish word (fish escapes `\` and `'` inside single quotes). */
function quote(text: string): string {
  return `'${text.replace(/[\\']/g, (ch) => `\\${ch}`)}'`;
}
