/**
 * The bash completion script of `campaignctl completion bash`, rendered from the program's
 * completion model. Pure. It completes command names, each command's flags, the words a flag or
 * operand takes (`--format text|json`, `completion bash|zsh|fish`, `help <command>`), the
 * subcommands of a command of commands (`webhooks listen|verify`) and their flags, and leaves
 * file names to bash (`complete -o default`) where a path is expected.
 */
import type { CompletionCommand, CompletionFlag, CompletionModel } from "./model.js";

export function renderBashCompletion(model: CompletionModel): string {
  const fn = `_${model.program.replace(/[^A-Za-z0-9_]/g, "_")}`;
  const lines = [
    `# bash completion for ${model.program} ${model.version} (\`${model.program} completion bash\`).`,
    `# Load it in this shell: source <(${model.program} completion bash)`,
    `# For every shell: ${model.program} completion bash > ~/.local/share/bash-completion/completions/${model.program}`,
    `${fn}() {`,
    `  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" cmd="" i`,
    `  if [ "$COMP_CWORD" -gt 0 ]; then prev="\${COMP_WORDS[COMP_CWORD-1]}"; fi`,
    "  for ((i = 1; i < COMP_CWORD; i++)); do",
    `    case "\${COMP_WORDS[i]}" in`,
    "      -*) ;;",
    `      *) cmd="\${COMP_WORDS[i]}"; break ;;`,
    "    esac",
    "  done",
    "  COMPREPLY=()",
    '  case "$cmd" in',
    '    "")',
    "      # Nothing follows the version (`campaignctl -v plan` is a usage error).",
    `      case " \${COMP_WORDS[*]:1:COMP_CWORD-1} " in *" -v "* | *" --version "*) return 0 ;; esac`,
    `      if [[ "$cur" == -* ]]; then ${reply(flagWords(model.flags))}`,
    `      else ${reply(model.commands.map((c) => c.name))}`,
    "      fi",
    "      ;;",
    ...model.commands.flatMap(commandCase),
    "  esac",
    "  return 0",
    "}",
    `complete -o default -F ${fn} ${model.program}`,
    "",
  ];
  return lines.join("\n");
}

function commandCase(command: CompletionCommand): string[] {
  return [`    ${command.name})`, ...commandBody(command, "      "), "      ;;"];
}

/** The lines that complete within `command` (after its name), indented by `pad`. */
function commandBody(command: CompletionCommand, pad: string): string[] {
  if (command.subcommands.length > 0) return subcommandBody(command, pad);
  const valued = command.flags.filter((f) => f.value !== undefined);
  const lines: string[] = [];
  if (valued.length > 0) {
    lines.push(`${pad}case "$prev" in`);
    for (const flag of valued) {
      const names = [flag.short, flag.long].filter((n) => n !== undefined).join("|");
      const value = flag.value;
      lines.push(
        value?.kind === "words"
          ? `${pad}  ${names}) ${reply(value.words)} return 0 ;;`
          : `${pad}  ${names}) return 0 ;;`,
      );
    }
    lines.push(`${pad}esac`);
  }
  const operands = command.operands;
  const operandWords = operands?.kind === "words" ? `else ${reply(operands.words)} ` : "";
  lines.push(`${pad}if [[ "$cur" == -* ]]; then ${reply(flagWords(command.flags))} ${operandWords}fi`);
  return lines;
}

/**
 * A command of commands (`webhooks`): the first word after it that is no flag is the subcommand;
 * before it, the subcommands' names are offered (never file names), after it, the subcommand's flags.
 */
function subcommandBody(command: CompletionCommand, pad: string): string[] {
  return [
    `${pad}local sub="" j`,
    `${pad}for ((j = i + 1; j < COMP_CWORD; j++)); do`,
    `${pad}  case "\${COMP_WORDS[j]}" in -*) ;; *) sub="\${COMP_WORDS[j]}"; break ;; esac`,
    `${pad}done`,
    `${pad}case "$sub" in`,
    `${pad}  "")`,
    `${pad}    if [[ "$cur" == -* ]]; then ${reply(flagWords(command.flags))}`,
    `${pad}    else ${reply(command.subcommands.map((c) => c.name))}`,
    `${pad}    fi`,
    `${pad}    ;;`,
    ...command.subcommands.flatMap((sub) => [
      `${pad}  ${sub.name})`,
      ...commandBody(sub, `${pad}    `),
      `${pad}    ;;`,
    ]),
    `${pad}esac`,
  ];
}

function flagWords(flags: readonly CompletionFlag[]): string[] {
  return flags.flatMap((f) => (f.short === undefined ? [f.long] : [f.short, f.long]));
}

/** `COMPREPLY=($(compgen -W "a b" -- "$cur"));`: the words are flags, commands and choices (no quotes). */
function reply(words: readonly string[]): string {
  return `COMPREPLY=($(compgen -W "${words.join(" ")}" -- "$cur"));`;
}
