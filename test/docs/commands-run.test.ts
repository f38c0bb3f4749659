/**
 * Every `campaignctl` command the documentation shows runs as written against the embedded sandbox
 * (issue 35: "every command in README and docs/ runs as written ... email and replies included").
 *
 * What is run: each command of a shell block (```sh, ```bash, ```shell) of README.md, docs/*.md and
 * examples/README.md, and each line of the `Examples:` of every command's and subcommand's `--help`
 * (docs/commands.md shows the top-level ones); see ./doc-commands.ts for how lines are split. A synopsis goes in a plain ``` block, which is not run.
 * The commands of one file run in order in one fresh workspace (as a reader follows a page): a
 * temporary directory holding a copy of `examples/` and, as `campaigns/` (the reader's own
 * directory in the docs), another copy of the example campaign. Each line of a help text's
 * examples, and of a page in {@link ALTERNATIVES}, is an alternative and runs in a workspace of its
 * own. A workspace whose first command is `init` or `import` is an empty directory: the reader's
 * new repository, which those commands fill (the clone's `examples/` would already describe the
 * projects an import writes).
 * In-process (`run` of cli/main.ts), so the whole takes seconds.
 *
 * Run as written, with these substitutions only, each for a reason a reader's shell would supply:
 * - a command that reaches the API (plan, apply, status, watch, import, replies, results record)
 *   without `--sandbox` or `--base-url` gets `--sandbox`: the embedded sandbox's example world
 *   stands in for the real API and its key;
 * - `apply` of campaign files without `--auto-approve` gets it: the reader answers its question;
 * - `watch` runs with `--once` (and without `--until-done`): it follows the sends until Ctrl-C or
 *   until they end, days ahead on the embedded sandbox's clock; one poll is what the test checks;
 * - a command whose path is `.` runs in `campaigns/`: `.` is the reader's campaign repository;
 * - {@link PREPARE} runs a command first where a help example needs what an earlier step made;
 * - `~` is a home directory inside the workspace; `$VAR` is expanded from {@link SHELL_VARIABLES};
 * - `> FILE` writes the command's stdout to FILE in the workspace; what follows `|` is not run.
 *
 * Each must exit with the code the docs state (`# 2`, `# exit 1: ...`, `; echo $?  # 0`), else with
 * {@link EXPECTED_EXIT}'s code, else 0; never 70 (an internal error), never with "internal error"
 * in its output. A command that cannot run offline (a server that runs until Ctrl-C, a story told
 * across terminals against a standalone sandbox, a signer's SSH key, a PostgreSQL server) is in
 * {@link NOT_RUN} with its reason; an entry that no longer matches a command of the docs fails.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { type DocCommand, documentedCommands, helpExamples, subcommandsOf } from "./doc-commands.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** `file: command` (as {@link DocCommand.text} spells it) -> why the test does not run it. */
const NOT_RUN: Readonly<Record<string, string>> = {
  // README "Your first campaign": init, import, edits of the imported YAML, in a sibling directory.
  "README.md: campaignctl init ../my-campaigns":
    "the walkthrough, run in order with its YAML edits by test/docs/walkthrough.test.ts",
  "README.md: campaignctl import --sandbox --all --out campaigns/":
    "the walkthrough (test/docs/walkthrough.test.ts)",
  "README.md: campaignctl plan --sandbox campaigns/": "the walkthrough (test/docs/walkthrough.test.ts)",
  "README.md: campaignctl validate campaigns/": "the walkthrough (test/docs/walkthrough.test.ts)",
  "README.md: campaignctl preview campaigns/ --target gotv-follow-up --contact first_name=Đặng":
    "the walkthrough (test/docs/walkthrough.test.ts): the address is the one import wrote",
  "README.md: campaignctl plan --sandbox campaigns/ --out plan.json --markdown plan.md --detailed-exitcode":
    "the walkthrough (test/docs/walkthrough.test.ts)",
  "README.md: campaignctl apply --sandbox plan.json --junit apply.xml --markdown apply.md":
    "the walkthrough (test/docs/walkthrough.test.ts)",
  "README.md: campaignctl plan --sandbox campaigns/ --detailed-exitcode":
    "the walkthrough (test/docs/walkthrough.test.ts)",
  "README.md: campaignctl validate campaigns/ --require-policy":
    "the walkthrough (test/docs/walkthrough.test.ts)",
  "README.md: campaignctl plan --sandbox campaigns/ --require-policy --detailed-exitcode":
    "the walkthrough (test/docs/walkthrough.test.ts)",
  // README "After the send": three terminals against a standalone sandbox.
  "README.md: campaignctl sandbox --start fixture --time-scale 0 --auto-approve-tests --webhook-clock wall":
    "a server until Ctrl-C; the story runs as written in test/story/after-the-send.test.ts",
  "README.md: campaignctl webhooks listen --json":
    "a server until Ctrl-C (test/story/after-the-send.test.ts)",
  "README.md: campaignctl apply examples/ --auto-approve":
    "against the standalone sandbox of terminal 1 (CAMPAIGNCTL_BASE_URL): test/story/after-the-send.test.ts",
  "README.md: campaignctl watch examples/ --until-done --interval 5s":
    "against the standalone sandbox, its clock moved by curl: test/story/after-the-send.test.ts",
  "README.md: campaignctl status examples/":
    "against the standalone sandbox: test/story/after-the-send.test.ts",
  "docs/watch.md: campaignctl sandbox --start fixture --time-scale 0 --auto-approve-tests --webhook-clock wall":
    "the README's after-the-send story (test/story/after-the-send.test.ts): a server until Ctrl-C",
  "docs/watch.md: campaignctl apply examples/ --auto-approve":
    "the after-the-send story, against its standalone sandbox (test/story/after-the-send.test.ts)",
  "docs/watch.md: campaignctl watch examples/ --until-done --interval 5s":
    "the after-the-send story, its clock moved by curl (test/story/after-the-send.test.ts)",
  "docs/webhooks.md: campaignctl sandbox --start fixture --time-scale 0 --webhook-clock wall":
    "a server until Ctrl-C, for the listener of the next line",
  "docs/webhooks.md: campaignctl webhooks listen --json":
    "a server until Ctrl-C, with the secret the sandbox of the line before answered (test/webhooks/)",
  // Servers: they run until Ctrl-C or SIGTERM (their own tests start them as processes).
  "docs/commands.md: campaignctl sandbox --port 0 --json": "a server in the background (test/sandbox/)",
  "campaignctl sandbox --help: campaignctl sandbox": "a server until Ctrl-C (test/sandbox/)",
  "campaignctl sandbox --help: campaignctl sandbox --port 0 --state .campaignctl/sandbox.json --auto-approve-tests":
    "a server until Ctrl-C (test/sandbox/)",
  "campaignctl sandbox --help: campaignctl sandbox --start fixture": "a server until Ctrl-C (test/sandbox/)",
  "docs/sandbox.md: campaignctl sandbox": "a server until Ctrl-C (test/sandbox/)",
  "docs/sandbox.md: campaignctl sandbox --port 0 --state .campaignctl/sandbox.json --auto-approve-tests":
    "a server until Ctrl-C (test/sandbox/)",
  "docs/sandbox.md: campaignctl sandbox --faults POST /projects/{id}/schedule: commit-then-fail(500) p=0.3; *: latency(200ms) p=0.1 --seed 7":
    "a server until Ctrl-C (test/sandbox/faults*)",
  "docs/sandbox.md: campaignctl sandbox --fixture world.yaml":
    "a server until Ctrl-C, on the reader's own fixture",
  "campaignctl lsp --help: campaignctl lsp":
    "a language server on stdio until its client exits (test/cli/lsp*.test.ts)",
  "campaignctl lsp --help: campaignctl lsp --policy org.policy.yaml --debounce 300":
    "a language server on stdio (test/cli/lsp*.test.ts)",
  "docs/webhooks.md: campaignctl webhooks listen": "a server until Ctrl-C (test/webhooks/)",
  "docs/webhooks.md: campaignctl webhooks listen --json --events message.replied,message.failed":
    "a server until Ctrl-C (test/webhooks/)",
  "docs/webhooks.md: campaignctl webhooks listen --secret-env WH_NEW --secret-env WH_OLD --forward-to http://127.0.0.1:3000/hooks":
    "a server until Ctrl-C, forwarding to the reader's application (test/webhooks/)",
  "docs/webhooks.md: campaignctl webhooks verify --headers delivery.headers --body delivery.json --now 2026-12-01T15:00:00Z":
    "verifies a delivery the reader saved from their endpoint (test/webhooks/verify*.test.ts)",
  "campaignctl webhooks listen --help: campaignctl webhooks listen": "a server until Ctrl-C (test/webhooks/)",
  "campaignctl webhooks listen --help: campaignctl webhooks listen --secret-env WH_NEW --secret-env WH_OLD --events message.replied --json":
    "a server until Ctrl-C (test/webhooks/)",
  "campaignctl webhooks listen --help: campaignctl webhooks listen --forward-to http://127.0.0.1:3000/hooks":
    "a server until Ctrl-C, forwarding to the reader's application (test/webhooks/)",
  "campaignctl webhooks verify --help: campaignctl webhooks verify --headers delivery.headers --body delivery.json --secret-env WH_SECRET":
    "verifies a delivery the reader saved, with its secret (test/webhooks/verify*.test.ts)",
  "campaignctl webhooks verify --help: campaignctl webhooks verify --headers h.json --body b.json --now 2026-12-01T15:00:00Z --json":
    "verifies a delivery the reader saved (test/webhooks/verify*.test.ts)",
  "campaignctl replies run --help: campaignctl replies run campaigns/":
    "the worker, until Ctrl-C (test/replies/worker-sigkill.test.ts); the --once line below runs",
  // Many county parties sharing one text: the story of docs/import.md's template section. The
  // example world's projects have different texts (import.template-text-differs); the runoff notice
  // line after them imports a template from the example world.
  "docs/import.md: campaignctl import --all --template gotv --out campaigns/":
    "county parties sharing one text, not the example world (test/import/template*.test.ts)",
  "docs/import.md: campaignctl import --organization Adams County Democrats --template gotv --out adams.yaml":
    "an organization of the county story, not the example world (test/import/template*.test.ts)",
  "docs/import.md: campaignctl import --all --template gotv --out campaigns/ --language 9a00...0007=es":
    "the county story's project ids (test/import/template*.test.ts)",
  "campaignctl import --help: campaignctl import --all --template gotv --out campaigns/":
    "county parties sharing one text (docs/import.md); the next example runs on the example world",
  // Secrets and services a reader has and the test does not.
  "campaignctl approve --help: campaignctl approve plan.json --author --key ~/.ssh/id_ed25519":
    "signs with the reader's SSH key (test/approvals/ signs with keys it makes)",
  "campaignctl approve --help: campaignctl approve plan.json --key ~/.ssh/id_ed25519":
    "signs with the reader's SSH key (test/approvals/)",
  "docs/policy.md: campaignctl approve plan.json --key ~/.ssh/id_ed25519":
    "signs with the reader's SSH key (test/approvals/)",
  "docs/policy.md: campaignctl approve plan.json --author --key ~/.ssh/id_ed25519":
    "signs with the reader's SSH key (test/approvals/)",
  "campaignctl results record --help: campaignctl results record --store postgres":
    "needs a PostgreSQL server ($CAMPAIGNCTL_RESULTS_DATABASE_URL; test/results/postgres*)",
  "docs/results.md: campaignctl results record --store postgres":
    "needs a PostgreSQL server ($CAMPAIGNCTL_RESULTS_DATABASE_URL; test/results/postgres*)",
};

/** Pages whose commands are alternatives rather than steps: each line runs in a fresh workspace. */
const ALTERNATIVES = new Set(["docs/import.md"]);

/** `file: command` -> what runs before it, and why. */
const PREPARE: Readonly<Record<string, readonly [readonly string[], string]>> = {
  "campaignctl preview --help: campaignctl preview examples/ --html gallery/ --plan plan.json": [
    ["plan", "--sandbox", "examples/", "--out", "plan.json"],
    "the saved plan it reads (preview-gallery.md makes it the line before)",
  ],
  "campaignctl results --help: campaignctl results --month 2026-10": [
    ["results", "record", "--sandbox"],
    "the store it reads (results.md records first)",
  ],
  "campaignctl results --help: campaignctl results campaigns/ --by template --cycle 2026 --markdown results.md":
    [["results", "record", "--sandbox"], "the store it reads"],
  "campaignctl results --help: campaignctl results --by project --since 2026-10-01 --until 2026-11-03 --format csv":
    [["results", "record", "--sandbox"], "the store it reads"],
};

/** `file: command` -> the exit code it ends with, and why, where the docs say it in prose. */
const EXPECTED_EXIT: Readonly<Record<string, readonly [number, string]>> = {
  "campaignctl plan --help: campaignctl plan . --target gotv-reminder --detailed-exitcode": [
    2,
    "its test is planned",
  ],
  "docs/import.md: campaignctl import --all --out campaigns/ --check": [
    1,
    "exit 1 if a file would change: campaigns/ is still to be made",
  ],
  "campaignctl import --help: campaignctl import --all --out campaigns/ --check": [
    1,
    "as above: campaigns/ is still to be made",
  ],
};

/** What `$NAME` stands for in the docs' commands. */
const SHELL_VARIABLES: Readonly<Record<string, string>> = {
  ARTIFACT_URL: "https://ci.example.org/artifacts/1",
  "fpath[1]": "~/.zfunc",
};

const API_COMMANDS = new Set(["plan", "apply", "status", "watch", "import", "replies"]);

/** The key of a command in {@link NOT_RUN} and {@link EXPECTED_EXIT}. */
const keyOf = (c: DocCommand) => `${c.file}: ${c.text}`;

/** A word with `$NAME`/`${NAME}` expanded and `~` made the workspace's home. */
function expand(word: string, home: string): string {
  const vars = word.replace(/\$\{([^}]+)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, a, b) => {
    const name = (a ?? b) as string;
    const value = SHELL_VARIABLES[name];
    if (value === undefined) throw new Error(`no value for $${name} in SHELL_VARIABLES`);
    return value;
  });
  return vars === "~" || vars.startsWith("~/") ? join(home, vars.slice(1)) : vars;
}

/** The argv the test runs: the command's, with the substitutions of the header. */
function argvToRun(c: DocCommand, home: string): string[] {
  const argv = c.argv.map((w) => expand(w, home));
  const [command, sub] = argv;
  const api = API_COMMANDS.has(command ?? "") || (command === "results" && sub === "record");
  const has = (flag: string) => argv.some((w) => w === flag || w.startsWith(`${flag}=`));
  if (api && !has("--sandbox") && !has("--base-url")) argv.push("--sandbox");
  const planFile = argv.some((w) => w.endsWith(".json"));
  if (command === "apply" && !planFile && !has("--auto-approve")) argv.push("--auto-approve");
  if (command === "watch" && !has("--once")) return [...argv.filter((w) => w !== "--until-done"), "--once"];
  return argv;
}

/** `examples/` as read once: its directories and its files with their bytes, by path inside it. */
interface Tree {
  readonly dirs: readonly string[];
  readonly files: readonly (readonly [string, Buffer])[];
}

function readTree(root: string): Tree {
  const entries = readdirSync(root, { recursive: true, withFileTypes: true });
  const inside = (e: (typeof entries)[number]) => relative(root, join(e.parentPath, e.name));
  const odd = entries.filter((e) => !e.isDirectory() && !e.isFile());
  if (odd.length > 0)
    throw new Error(`examples/ holds what the copy does not: ${odd.map(inside).join(", ")}`);
  return {
    dirs: entries
      .filter((e) => e.isDirectory())
      .map(inside)
      .sort(),
    files: entries
      .filter((e) => e.isFile())
      .map((e) => [inside(e), readFileSync(join(root, inside(e)))] as const),
  };
}

/** A copy of `tree` at `to` (what `cp -r` makes, without its stat of every file and parent each time). */
function writeTree(tree: Tree, to: string): void {
  mkdirSync(to);
  for (const d of tree.dirs) mkdirSync(join(to, d));
  for (const [file, bytes] of tree.files) writeFileSync(join(to, file), bytes);
}

const EXAMPLES = readTree(join(ROOT, "examples"));

/** A fresh workspace for `group`: `examples/` and `campaigns/` (copies of the example world), `home/`. */
function workspace(group: readonly DocCommand[]): string {
  const dir = mkdtempSync(join(tmpdir(), "cc-doc-commands-"));
  mkdirSync(join(dir, "home"));
  const first = group[0]?.argv[0];
  if (first === "init" || first === "import") return dir;
  writeTree(EXAMPLES, join(dir, "examples"));
  writeTree(EXAMPLES, join(dir, "campaigns"));
  return dir;
}

/** Runs one command in `dir`; checks what it must not do and the exit code it must end with. */
async function runOne(c: DocCommand, dir: string): Promise<void> {
  const home = join(dir, "home");
  const here = c.argv.includes(".") && c.argv[0] !== "init" ? join(dir, "campaigns") : dir;
  const cwd = resolve(here, ...c.cd);
  const argv = argvToRun(c, home);
  const before = PREPARE[keyOf(c)];
  if (before !== undefined) expect((await runCli(before[0], { cwd, env: {} })).code, before[1]).toBe(0);
  const result = await runCli(argv, { cwd, env: { ...c.env, HOME: home } });
  const where = `${c.file}:${c.line}: campaignctl ${argv.join(" ")}\n${result.stdout}\n${result.stderr}`;
  expect(result.code, where).not.toBe(70);
  expect(`${result.stdout}${result.stderr}`, where).not.toMatch(/internal error/i);
  if (c.stdoutTo !== undefined) {
    const target = resolve(cwd, expand(c.stdoutTo, home));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, result.stdout);
  }
  if (c.failureHandled) return;
  const expected = c.exitCode ?? EXPECTED_EXIT[keyOf(c)]?.[0] ?? 0;
  expect(result.code, where).toBe(expected);
}

/** Every command's help text (`campaignctl X --help`, `campaignctl X Y --help`), by its command line. */
async function helpTexts(): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  const top = await runCli(["--help"]);
  for (const name of subcommandsOf(top.stdout)) {
    const help = await runCli([name, "--help"]);
    texts.set(`campaignctl ${name} --help`, help.stdout);
    for (const sub of subcommandsOf(help.stdout))
      texts.set(`campaignctl ${name} ${sub} --help`, (await runCli([name, sub, "--help"])).stdout);
  }
  return texts;
}

const helps = await helpTexts();
const commands = [
  ...documentedCommands(ROOT),
  ...[...helps].flatMap(([source, text]) => helpExamples(source, text)),
];
const toRun = commands.filter((c) => NOT_RUN[keyOf(c)] === undefined);

/** The commands to run, grouped by workspace: a file's shell blocks, or one line of alternatives. */
function groups(): Map<string, DocCommand[]> {
  const byGroup = new Map<string, DocCommand[]>();
  for (const c of toRun) {
    const alone = c.kind === "help" || ALTERNATIVES.has(c.file);
    const name = alone ? `${c.file}:${c.line}` : c.file;
    byGroup.set(name, [...(byGroup.get(name) ?? []), c]);
  }
  return byGroup;
}

describe("every campaignctl command of README.md and docs/ runs as written against the embedded sandbox", () => {
  test("the docs show commands, and each command not run is still in the docs", () => {
    expect(commands.length).toBeGreaterThan(100);
    const shown = new Set(commands.map(keyOf));
    expect(Object.keys(NOT_RUN).filter((k) => !shown.has(k))).toEqual([]);
    expect(Object.keys(EXPECTED_EXIT).filter((k) => !shown.has(k))).toEqual([]);
    // The example world's email and replies commands are among those run.
    const run = toRun.map((c) => c.text);
    expect(run).toContain("campaignctl replies plan --sandbox examples/");
    expect(run).toContain("campaignctl plan --sandbox examples/ --target volunteers-email");
    expect(run).toContain("campaignctl replies run --sandbox examples/ --once --no-webhooks");
  });

  for (const [name, group] of groups())
    test(`${name}: ${group.length} command${group.length === 1 ? "" : "s"}`, async () => {
      const dir = workspace(group);
      for (const c of group) await runOne(c, dir);
    }, 60_000);
});

/** The help examples name files of the example world: the ids they use exist in its fixture. */
test("the ids the help and the docs' commands name exist in the example world", () => {
  const fixture = readFileSync(join(ROOT, "examples/sandbox.yaml"), "utf8");
  const ids = new Set(toRun.flatMap((c) => c.argv.join(" ").match(/\b[0-9a-f]{8}-[0-9a-f-]{27}\b/g) ?? []));
  expect([...ids].filter((id) => !fixture.includes(id))).toEqual([]);
});
