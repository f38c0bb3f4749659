/**
 * The `campaignctl` commands the documentation shows: every command of a shell block (```sh,
 * ```bash, ```shell) of README.md and docs/*.md, and every line of the `Examples:` paragraph of a
 * command's `--help` (docs/commands.md shows the top-level commands' help, generated from it).
 * Parsed as a shell would split them, for what the docs use: `\` continuations, `#` comments,
 * `&&`, `||`, `;`, a pipe (what follows it is not ours), `>`/`>>` redirection of stdout,
 * `source <(campaignctl ...)`, `NAME=value` before the command, a trailing `&`, and quotes.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** One command as the docs show it. */
export interface DocCommand {
  /** The Markdown file, relative to the repository (`docs/email.md`). */
  readonly file: string;
  /** 1-based line of the command in that file. */
  readonly line: number;
  /** The command: `campaignctl` and its words, quotes removed (no redirection, pipe or comment). */
  readonly text: string;
  /** The words after `campaignctl`, quotes removed. */
  readonly argv: readonly string[];
  /** `NAME=value` written before the command. */
  readonly env: Readonly<Record<string, string>>;
  /** Where `>` or `>>` sends its stdout, as written. */
  readonly stdoutTo?: string;
  /** Run in the background (`&`): a long-running command. */
  readonly background: boolean;
  /** The exit code the docs state for it (`# 2`, `# exit 1: ...`, `echo $?  # 0`), if any. */
  readonly exitCode?: number;
  /** `||` follows it: the docs' shell handles its failure. */
  readonly failureHandled: boolean;
  /** The directory (relative to where the block starts) that `cd` moved to before it. */
  readonly cd: readonly string[];
  /** Where it was shown: a shell block, or a help text's `Examples:` (`file` then names the help). */
  readonly kind: "shell" | "help";
}

/** The Markdown files whose commands are run: README.md, docs/*.md in name order, examples/README.md. */
export function docFiles(root: string): string[] {
  const docs = readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`);
  return ["README.md", ...docs, "examples/README.md"];
}

/** The text before an unquoted ` #`, and the comment after it. */
function splitComment(line: string): { code: string; comment: string } {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(line[i - 1] ?? ""))) {
      return { code: line.slice(0, i).trimEnd(), comment: line.slice(i + 1).trim() };
    }
  }
  return { code: line.trimEnd(), comment: "" };
}

/** The exit code a comment states: `# 2`, `# 0: ...`, `# exit 1: ...` (not "exit 1 on errors", not "# 4 answers"). */
function statedExit(comment: string): number | undefined {
  const m = /^(?:exit\s+)?(\d{1,3})(?::|$)/.exec(comment);
  return m === null ? undefined : Number(m[1]);
}

/** Shell tokens: words (quotes removed) and the operators `&&`, `||`, `;`, `|`, `>`, `>>`, `&`. */
function tokens(code: string): string[] {
  const out: string[] = [];
  let word: string | null = null;
  let quote: string | null = null;
  const push = () => {
    if (word !== null) out.push(word);
    word = null;
  };
  for (let i = 0; i < code.length; i++) {
    const c = code[i] ?? "";
    if (quote !== null) {
      if (c === quote) quote = null;
      else word = (word ?? "") + c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      word = word ?? "";
    } else if (/\s/.test(c)) push();
    else if ("&|;>".includes(c)) {
      const two = code.slice(i, i + 2);
      if (c === ">" && /^\d$/.test(word ?? "")) {
        // 2> or 2>&1: stderr, which the test keeps apart anyway.
        word = null;
        const rest = /^>(&\d|\s*\S+)/.exec(code.slice(i));
        i += (rest?.[0].length ?? 1) - 1;
        continue;
      }
      push();
      if (two === "&&" || two === "||" || two === ">>") {
        out.push(two);
        i++;
      } else out.push(c);
    } else word = (word ?? "") + c;
  }
  push();
  return out;
}

/** The campaignctl commands of one shell line (continuations joined). */
function commandsOfLine(
  file: string,
  line: number,
  raw: string,
  cd: string[],
  kind: DocCommand["kind"],
): DocCommand[] {
  const { code, comment } = splitComment(raw);
  const sourced = code.replace(/source <\((campaignctl [^)]*)\)/, "$1");
  const toks = tokens(sourced);
  const found: DocCommand[] = [];
  let i = 0;
  while (i < toks.length) {
    const start = i;
    while (i < toks.length && !["&&", "||", ";", "&"].includes(toks[i] ?? "")) i++;
    const segment = toks.slice(start, i);
    const op = toks[i];
    i++;
    const env: Record<string, string> = {};
    let k = 0;
    while (/^[A-Z_][A-Z0-9_]*=/.test(segment[k] ?? "")) {
      const [name, ...value] = (segment[k] ?? "").split("=");
      env[name ?? ""] = value.join("=");
      k++;
    }
    const program = segment[k];
    if (program === "cd") {
      cd.push(segment[k + 1] ?? "");
      continue;
    }
    if (program === "echo" && segment[k + 1] === "$?") {
      const last = found.at(-1);
      const exit = statedExit(comment);
      if (last !== undefined && exit !== undefined) found[found.length - 1] = { ...last, exitCode: exit };
      continue;
    }
    if (program !== "campaignctl") continue;
    const pipe = segment.indexOf("|", k);
    const words = segment.slice(k + 1, pipe === -1 ? undefined : pipe);
    const redirect = words.findIndex((w) => w === ">" || w === ">>");
    const argv = redirect === -1 ? words : words.slice(0, redirect);
    found.push({
      file,
      line,
      text: ["campaignctl", ...argv].join(" "),
      argv,
      env,
      ...(redirect === -1 ? {} : { stdoutTo: words[redirect + 1] ?? "" }),
      background: op === "&",
      ...(statedExit(comment) === undefined || i < toks.length ? {} : { exitCode: statedExit(comment) }),
      failureHandled: op === "||",
      cd: [...cd],
      kind,
    });
  }
  return found;
}

/** Every command of the shell blocks of a Markdown text. */
export function commandsOf(file: string, markdown: string): DocCommand[] {
  const lines = markdown.split("\n");
  const found: DocCommand[] = [];
  let fence: { lang: string; cd: string[] } | null = null;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n] ?? "";
    const open = /^\s*```\s*(\S*)/.exec(line);
    if (open !== null) {
      fence = fence === null ? { lang: open[1] ?? "", cd: [] } : null;
      continue;
    }
    if (fence === null || !["sh", "bash", "shell"].includes(fence.lang)) continue;
    let joined = line;
    const first = n;
    while (joined.endsWith("\\") && n + 1 < lines.length) joined = `${joined.slice(0, -1)} ${lines[++n]}`;
    found.push(...commandsOfLine(file, first + 1, joined.trim(), fence.cd, "shell"));
  }
  return found;
}

/** The commands of the `Examples:` paragraph of a help text; `source` names it (`campaignctl plan --help`). */
export function helpExamples(source: string, help: string): DocCommand[] {
  const lines = help.split("\n");
  const start = lines.findIndex((l) => /^Examples:\s*$/.test(l));
  if (start === -1) return [];
  const found: DocCommand[] = [];
  for (let n = start + 1; n < lines.length && (lines[n] ?? "").trim() !== ""; n++) {
    const first = n;
    let joined = (lines[n] ?? "").trim();
    while (joined.endsWith("\\") && n + 1 < lines.length)
      joined = `${joined.slice(0, -1)} ${(lines[++n] ?? "").trim()}`;
    found.push(...commandsOfLine(source, first + 1, joined, [], "help"));
  }
  return found;
}

/** The subcommands a help text lists under `Commands:` (`help` left out). */
export function subcommandsOf(help: string): string[] {
  const section = (help.split(/^Commands:$/m)[1] ?? "").split(/\n\s*\n/)[0] ?? "";
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].flatMap((m) =>
    m[1] === "help" ? [] : [m[1] ?? ""],
  );
}

/** Every command of the shell blocks of README.md and docs/*.md, in file and line order. */
export function documentedCommands(root: string): DocCommand[] {
  return docFiles(root).flatMap((f) => commandsOf(f, readFileSync(join(root, f), "utf8")));
}
