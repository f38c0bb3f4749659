/**
 * The zsh completion script of `campaignctl completion zsh`, rendered from the program's completion
 * model. Pure. Works both sourced (`source <(campaignctl completion zsh)`) and as `_campaignctl` in a
 * directory of `$fpath` (the `#compdef` line). Descriptions are quoted for `_arguments`/`_describe`.
 */
import type { CompletionCommand, CompletionFlag, CompletionModel, ValueKind } from "./model.js";

export function renderZshCompletion(model: CompletionModel): string {
  const fn = `_${model.program.replace(/[^A-Za-z0-9_]/g, "_")}`;
  const lines = [
    `#compdef ${model.program}`,
    `# zsh completion for ${model.program} ${model.version} (\`${model.program} completion zsh\`).`,
    `# Load it in this shell: source <(${model.program} completion zsh)`,
    `# For every shell: ${model.program} completion zsh > "\${fpath[1]}/${fn}"`,
    "",
    ...describeFunction(`${fn}_commands`, `${model.program} command`, model.commands),
    ...model.commands
      .filter((c) => c.subcommands.length > 0)
      .flatMap((c) =>
        describeFunction(
          `${fn}_${c.name.replace(/-/g, "_")}_commands`,
          `${model.program} ${c.name} command`,
          c.subcommands,
        ),
      ),
    `${fn}() {`,
    '  local curcontext="$curcontext" state line ret=1',
    "  typeset -A opt_args",
    "  _arguments -C \\",
    ...model.flags.map((f) => `    ${flagSpec(f, true)} \\`),
    `    '1: :${fn}_commands' \\`,
    "    '*:: :->args' && ret=0",
    '  if [[ "$state" == args ]]; then',
    '    case "$words[1]" in',
    ...model.commands.flatMap((c) => commandCase(c, fn, "      ")),
    "    esac",
    "  fi",
    "  return ret",
    "}",
    "",
    `if [[ "\${funcstack[1]}" == ${fn} ]]; then`,
    `  ${fn} "$@"`,
    "else",
    `  compdef ${fn} ${model.program}`,
    "fi",
    "",
  ];
  return lines.join("\n");
}

/** A function that offers `commands` with their descriptions (`_describe`). */
function describeFunction(name: string, what: string, commands: readonly CompletionCommand[]): string[] {
  return [
    `${name}() {`,
    "  local -a commands",
    "  commands=(",
    ...commands.map((c) => `    ${quote(`${c.name.replace(/:/g, "\\:")}:${c.description}`)}`),
    "  )",
    `  _describe -t commands ${quote(what)} commands`,
    "}",
    "",
  ];
}

/**
 * The `case` arm of a command, indented by `pad`. A command of commands (`webhooks`) offers its
 * subcommands as its first word (never file names) and completes each subcommand's flags after it.
 */
function commandCase(command: CompletionCommand, fn: string, pad: string): string[] {
  const specs = command.flags.map((f) => flagSpec(f, false));
  if (command.subcommands.length > 0) {
    const state = `${command.name.replace(/-/g, "_")}_args`;
    specs.push(quote(`1: :${fn}_${command.name.replace(/-/g, "_")}_commands`), quote(`*:: :->${state}`));
    return [
      `${pad}${command.name})`,
      `${pad}  _arguments -C \\`,
      ...specs.map((s, i) => `${pad}    ${s}${i === specs.length - 1 ? " && ret=0" : " \\"}`),
      `${pad}  if [[ "$state" == ${state} ]]; then`,
      `${pad}    case "$words[1]" in`,
      ...command.subcommands.flatMap((sub) => commandCase(sub, fn, `${pad}      `)),
      `${pad}    esac`,
      `${pad}  fi`,
      `${pad}  ;;`,
    ];
  }
  const operands = command.operands;
  if (operands !== undefined) specs.push(quote(`*: :${action(operands)}`));
  if (specs.length === 0) return [`${pad}${command.name}) ret=0 ;;`];
  return [
    `${pad}${command.name})`,
    `${pad}  _arguments \\`,
    ...specs.map((s, i) => `${pad}    ${s}${i === specs.length - 1 ? " && ret=0" : " \\"}`),
    `${pad}  ;;`,
  ];
}

/**
 * One `_arguments` spec: `'(-v --version)'{-v,--version}'[print the version]'`, `'*--target=[...]:value: '`.
 * A flag of the program (`exclusive`) ends the line: nothing may follow `--version`.
 */
function flagSpec(flag: CompletionFlag, exclusive: boolean): string {
  const repeat = flag.repeatable ? "*" : "";
  const takes = flag.value === undefined ? "" : "=";
  const tail = quote(
    `[${bracketed(flag.description)}]${flag.value === undefined ? "" : `:value:${action(flag.value)}`}`,
  );
  if (flag.short === undefined) {
    const guard = exclusive ? quote("(- *)") : "";
    return `${guard}${quote(`${repeat}${flag.long}${takes}`)}${tail}`;
  }
  const guard = exclusive ? "(- *)" : `(${flag.short} ${flag.long})`;
  return `${quote(guard)}${repeat === "" ? "" : quote(repeat)}{${flag.short},${flag.long}${takes}}${tail}`;
}

function action(value: ValueKind): string {
  switch (value.kind) {
    case "path":
      return "_files";
    case "words":
      return `(${value.words.join(" ")})`;
    case "text":
      return " ";
  }
}

/** Text inside `[...]` of a spec: brackets and backslashes escaped. */
function bracketed(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/[[\]]/g, (c) => `\\${c}`);
}

/** A single-quoted shell word. */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
