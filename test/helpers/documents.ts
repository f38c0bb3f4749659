/**
 * Every JSON document a test makes the CLI print or write is checked against its schema, where it
 * is made: the helpers that run the CLI call {@link checkCliDocuments} after each run, so a new
 * mismatch between our output and our schemas fails the test that produced it (issue 15).
 *
 * Checked: stdout of a run with `--json` (or `--format json`), by command, or the error document
 * (`error: true`) any command prints instead; the saved plan of `plan --out FILE`; every line of
 * every apply journal (`.campaignctl/journal/*.jsonl`) under the working directory.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type SchemaName, schemaErrors } from "./schemas.js";

/** The schema of what each command prints with `--json`. */
const STDOUT_SCHEMA: Readonly<Record<string, SchemaName>> = {
  validate: "validate-result",
  preview: "preview-result",
  plan: "plan",
  apply: "apply-result",
  approve: "approval",
  import: "import-result",
  sandbox: "sandbox-info",
  status: "status-result",
  version: "version-result",
  results: "results-result",
  "results record": "results-record-result",
};

/** The value of `--flag VALUE` or `--flag=VALUE` in argv, else undefined. */
function flagValue(argv: readonly string[], flag: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? "";
    if (word === flag) return argv[i + 1];
    if (word.startsWith(`${flag}=`)) return word.slice(flag.length + 1);
  }
  return undefined;
}

function fail(what: string, name: SchemaName, errors: readonly string[], text: string): never {
  throw new Error(
    `${what} is not a valid ${name} document (schemas/${name}.schema.json):\n${errors.join("\n")}\n--- document ---\n${text.slice(0, 4000)}`,
  );
}

/**
 * The texts this worker already found valid, by schema: `"<schema>\0<text>"`, or the text's sha256
 * when it is long. A text that passed its schema passes again (the verdict depends on nothing
 * else), so the lines an apply journal keeps across a test's runs, and the same document printed by
 * many tests, are parsed and checked once. Only passes are kept: a failing text is checked (and
 * fails) every time. Strings only, never a parsed object, so no test can change what is kept; at
 * most {@link VALID_LIMIT} entries (then it starts again empty).
 */
const validTexts = new Set<string>();
const VALID_LIMIT = 50_000;

function validKey(name: SchemaName, text: string): string {
  return text.length <= 2048
    ? `${name}\0${text}`
    : `${name}\0#${createHash("sha256").update(text).digest("base64")}`;
}

function rememberValid(key: string): void {
  if (validTexts.size >= VALID_LIMIT) validTexts.clear();
  validTexts.add(key);
}

function check(what: string, name: SchemaName, text: string): void {
  const key = validKey(name, text);
  if (validTexts.has(key)) return;
  checkText(what, name, text);
  rememberValid(key);
}

function checkText(what: string, name: SchemaName, text: string): void {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new Error(`${what} is not one JSON document (${String(error)}):\n${text.slice(0, 4000)}`);
  }
  const isError = typeof document === "object" && document !== null && "error" in document;
  const schema = isError ? "error-result" : name;
  const errors = schemaErrors(schema, document);
  if (errors.length > 0) fail(what, schema, errors, text);
}

/** Checks the lines of every journal under `cwd` against `schemas/journal-event.schema.json`. */
export function checkJournals(cwd: string): void {
  const dir = join(cwd, ".campaignctl", "journal");
  if (!existsSync(dir)) return;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".jsonl"))) {
    const lines = readFileSync(join(dir, file), "utf8").split("\n");
    lines.forEach((line, i) => {
      if (line === "") return;
      // Beside the journal: the per-row result files of email lists (docs/email.md).
      const schema = file.startsWith("email-") ? "email-row-result" : "journal-event";
      checkLine(`line ${i + 1} of ${file}`, schema, line);
    });
  }
}

/**
 * Throws when `line` (one JSON value: a journal line, an event as the journal writes it) breaks
 * `schema`; `what` names it in the message. A line this worker found valid before is not checked
 * again (see {@link validTexts}). Unlike a command's stdout, a line with an `error` member is
 * checked against its own schema, not error-result.
 */
export function checkLine(what: string, schema: SchemaName, line: string): void {
  const key = validKey(schema, line);
  if (validTexts.has(key)) return;
  const errors = schemaErrors(schema, JSON.parse(line));
  if (errors.length > 0) fail(what, schema, errors, line);
  rememberValid(key);
}

/**
 * Throws when a document the run printed or wrote breaks its schema. `argv` is the command line
 * (without `campaignctl`), `cwd` the directory it ran in.
 */
export function checkCliDocuments(argv: readonly string[], stdout: string, cwd: string): void {
  let command = argv.find((w) => !w.startsWith("-"));
  if (command === undefined) return;
  // `results record` prints its own document.
  if (command === "results" && argv[argv.indexOf("results") + 1] === "record") command = "results record";
  const json = argv.includes("--json") || flagValue(argv, "--format") === "json";
  const schema = STDOUT_SCHEMA[command];
  // `sandbox --json` prints one line and keeps serving: tests read that line themselves.
  if (json && schema !== undefined && command !== "sandbox" && stdout.trim() !== "")
    check(`stdout of \`campaignctl ${argv.join(" ")}\``, schema, stdout);
  const out = flagValue(argv, "--out");
  if (command === "plan" && out !== undefined && existsSync(resolve(cwd, out)))
    check(`the saved plan ${out}`, "plan", readFileSync(resolve(cwd, out), "utf8"));
  if (command === "apply") checkJournals(cwd);
  if (command === "plan" || command === "import") checkSnapshots(cwd);
}

/**
 * Checks the offline snapshots `plan` and `import` write (`.campaignctl/snapshot.json` beside the
 * campaign files: in `cwd` or a directory below it, two levels deep) against
 * `schemas/snapshot.schema.json`.
 */
export function checkSnapshots(cwd: string, depth = 2): void {
  const file = join(cwd, ".campaignctl", "snapshot.json");
  if (existsSync(file)) check(`the offline snapshot ${file}`, "snapshot", readFileSync(file, "utf8"));
  if (depth === 0) return;
  for (const entry of readdirSync(cwd, { withFileTypes: true }))
    if (entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules")
      checkSnapshots(join(cwd, entry.name), depth - 1);
}
