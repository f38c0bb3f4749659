/**
 * Flags that cannot misfire: within a command, `-v…` and single-dash spellings are usage errors
 * (exit 1, nothing run, nothing printed as a version), with the double-dash flag suggested; `-var`
 * and `-var-file` say how values are given here; a key given as a flag points to the environment
 * variable and is never echoed. Every command (and subcommand) is driven with every spelling.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { COMMAND_FLAGS } from "../../cli/flags/command-flags.js";
import { wordList } from "../../src/text/word-list.js";
import { runCli } from "../helpers/run-cli.js";
import { documentOf } from "../helpers/schemas.js";
import { COMMAND_NAMES } from "./command-names.js";

const PKG = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
};

/** Every command line that names a command: the top-level ones and webhooks' subcommands. */
const COMMANDS: readonly (readonly string[])[] = [
  ...COMMAND_NAMES.map((name) => [name]),
  ["webhooks", "listen"],
  ["webhooks", "verify"],
  ["replies", "plan"],
  ["replies", "run"],
  ["results", "record"],
];

type Diagnostics = Record<string, unknown>[];

const VERSION_NOTE = "-v and --version print the version only with no command: campaignctl --version.";
const TWO_DASHES = "Flags take two dashes.";

/** The other commands with `flag`, as the hint lists them (`a, b and c`), from the help of each: "" for none. */
function ownersOf(flag: string, command: readonly string[]): string {
  const owners = Object.entries(COMMAND_FLAGS)
    .filter(([words, flags]) => words !== command.join(" ") && flags.includes(flag))
    .map(([words]) => words);
  return wordList(owners);
}

/** An empty directory as the working directory: were a command to run, it would find nothing. */
let cwd = "";
beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), "campaignctl-flags-"));
});

/** The long flags `<command> --help` lists. */
async function longFlagsOf(command: readonly string[]): Promise<string[]> {
  const help = await runCli([...command, "--help"], { cwd });
  expect(help.code).toBe(0);
  return [...help.stdout.matchAll(/^ {2}(?:-\w, )?(--[a-z][a-z-]*)/gm)].map((m) => m[1] ?? "");
}

/** Runs `argv` and checks it is a usage error that ran nothing and printed no version. */
async function usageError(argv: readonly string[]): Promise<string> {
  const run = await runCli(argv, { cwd });
  expect(run.code, argv.join(" ")).toBe(1);
  expect(run.stdout).toBe("");
  expect(run.stderr).not.toContain(PKG.version);
  expect(run.stderr).toMatch(/^error\[cli\.usage\]: unknown option '/);
  expect(readdirSync(cwd)).toEqual([]);
  return run.stderr;
}

describe.each(COMMANDS.map((c) => [c.join(" "), c] as const))("%s", (_name, command) => {
  let longFlags: string[] = [];
  beforeAll(async () => {
    longFlags = await longFlagsOf(command);
    expect(longFlags).toContain("--help");
  });

  test.each([["-v"], ["-V"], ["--version"], ["-version"], ["-vv"]])(
    "%s is a usage error, not the version",
    async (flag) => {
      const stderr = await usageError([...command, flag]);
      expect(stderr.split("\n")[0]).toBe(`error[cli.usage]: unknown option '${flag}'`);
      if (flag === "-v" && longFlags.includes("--verbose"))
        expect(stderr).toContain(`\n  hint: did you mean --verbose? ${TWO_DASHES} ${VERSION_NOTE}\n`);
      else expect(stderr).toContain(VERSION_NOTE);
    },
  );

  test("-verbose is a usage error: --verbose where the command has it, else whose it is and the version note", async () => {
    const stderr = await usageError([...command, "-verbose"]);
    if (longFlags.includes("--verbose"))
      expect(stderr).toContain(`\n  hint: did you mean --verbose? ${TWO_DASHES}\n`);
    else
      expect(stderr).toContain(
        `\n  hint: ${TWO_DASHES} --verbose is a flag of campaignctl ${ownersOf("--verbose", command)}, not of this command. ${VERSION_NOTE}\n`,
      );
  });

  test.each([
    ["-auto-approve", "--auto-approve"],
    ["-target=web", "--target=web"],
    ["-out=plan.json", "--out=plan.json"],
    ["-json", "--json"],
    ["-detailed-exitcode", "--detailed-exitcode"],
    ["-sandbox", "--sandbox"],
    ["-help", "--help"],
    ["-no-color", "--no-color"],
  ])("%s suggests %s where the command has it", async (flag, meant) => {
    const stderr = await usageError([...command, flag]);
    expect(stderr.split("\n")[0]).toBe(`error[cli.usage]: unknown option '${flag.replace(/=.*/, "")}'`);
    const long = meant.replace(/=.*/, "");
    const owners = ownersOf(long, command);
    if (longFlags.includes(long))
      expect(stderr).toContain(`\n  hint: did you mean ${meant}? ${TWO_DASHES}\n`);
    else if (owners === "")
      expect(stderr).toContain(`\n  hint: Flags take two dashes, and this command has no ${long}.`);
    else
      expect(stderr).toContain(
        `\n  hint: ${TWO_DASHES} ${long} is a flag of campaignctl ${owners}, not of this command.`,
      );
  });

  test.each([["-var"], ["-var-file=prod.tfvars"], ["--var-file"], ["--var"]])(
    "%s says how values are given here",
    async (flag) => {
      const stderr = await usageError([...command, flag, "region=us"]);
      expect(stderr.split("\n")[0]).toBe(`error[cli.usage]: unknown option '${flag.replace(/=.*/, "")}'`);
      expect(stderr).toContain(
        "\n  hint: campaignctl has no input variables: every value is written in the campaign files",
      );
      expect(stderr).toContain("See docs/campaign-files.md.\n");
    },
  );

  test.each([["--api-key"], ["-api-key"], ["--token"], ["--api-key=sk_live_DO_NOT_PRINT"]])(
    "%s points to CAMPAIGNCTL_API_KEY, says why, and never prints the value",
    async (flag) => {
      const stderr = await usageError([...command, flag, "sk_live_DO_NOT_PRINT"]);
      expect(stderr.split("\n")[0]).toBe(`error[cli.usage]: unknown option '${flag.replace(/=.*/, "")}'`);
      expect(stderr).toContain(
        "\n  hint: The API key is read from the environment only: export CAMPAIGNCTL_API_KEY=<key> (in CI, from a secret)",
      );
      expect(stderr).toContain(
        "A key is never a flag: a flag's value stays in the shell history, shows in the process list to every user of the machine, and is printed in CI logs.\n",
      );
      expect(stderr.includes("--api-key-env <name>")).toBe(longFlags.includes("--api-key-env"));
      expect(stderr).not.toContain("DO_NOT_PRINT");
    },
  );
});

describe("the issue's command lines", () => {
  test.each([
    [
      ["apply", "--sandbox", ".", "--auto-approve", "-verbose"],
      "did you mean --verbose? Flags take two dashes.",
    ],
    [
      ["plan", "--sandbox", ".", "-var-file=prod.tfvars", "--detailed-exitcode"],
      "campaignctl has no input variables",
    ],
    [["validate", ".", "-v"], `did you mean --verbose? ${TWO_DASHES} ${VERSION_NOTE}`],
  ])("%j: exit 1, the error document with --json, and the hint", async (argv, hint) => {
    await usageError(argv);
    const json = await runCli([...argv, "--json"], { cwd });
    expect(json.code).toBe(1);
    const [diagnostic] = documentOf("error-result", json.stdout).diagnostics as Diagnostics;
    expect(diagnostic).toMatchObject({ severity: "error", code: "cli.usage", range: null });
    expect(String(diagnostic?.hint)).toContain(hint);
    expect(json.stdout).not.toContain(`"${PKG.version}"`);
  });

  test.each([
    ["--auth=sk_live_DO_NOT_PRINT", undefined],
    ["--password=sk_live_DO_NOT_PRINT", undefined],
    ["--signing-secret=sk_live_DO_NOT_PRINT", undefined],
    ["--api-kye=sk_live_DO_NOT_PRINT", "CAMPAIGNCTL_API_KEY"],
    ["--apikye=sk_live_DO_NOT_PRINT", "CAMPAIGNCTL_API_KEY"],
    ["--tokens=sk_live_DO_NOT_PRINT", "CAMPAIGNCTL_API_KEY"],
  ])(
    "%s: the value of an unknown flag is never echoed (a near miss of --api-key gets its hint)",
    async (flag, hint) => {
      for (const command of [["validate", "."], ["plan"], ["webhooks", "verify"]]) {
        const stderr = await usageError([...command, flag]);
        expect(stderr.split("\n")[0]).toBe(`error[cli.usage]: unknown option '${flag.replace(/=.*/, "")}'`);
        expect(stderr).not.toContain("DO_NOT_PRINT");
        if (hint !== undefined) expect(stderr).toContain(hint);
        const json = await runCli([...command, flag, "--json"], { cwd });
        expect(`${json.stdout}${json.stderr}`).not.toContain("DO_NOT_PRINT");
      }
    },
  );

  test.each([
    [["apply", "--sandbox", ".", "--auto-approve=false"], "--auto-approve"],
    [["plan", "--detailed-exitcode=true"], "--detailed-exitcode"],
    [["validate", ".", "--json=DO_NOT_PRINT"], "--json"],
    [["validate", ".", "--no-color=0"], "--no-color"],
  ])("%j: a switch given a value is a usage error that says so (never read as off)", async (argv, flag) => {
    const run = await runCli(argv, { cwd });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      `error[cli.usage]: option '${flag}' takes no value\n  hint: Give ${flag} alone to turn it on; leave it out to keep it off.\n`,
    );
    expect(readdirSync(cwd)).toEqual([]);
  });

  test.each([
    [["apply", "--sandbox", ".", "-auto-approve=true"], "-auto-approve", "--auto-approve"],
    [["plan", "--sandbox", ".", "-refresh=false"], "-refresh", "--refresh"],
    [["validate", ".", "-json=true"], "-json", "--json"],
  ])(
    "%j: Terraform's `-switch=value` suggests the switch alone (it takes no value)",
    async (argv, typed, flag) => {
      const run = await runCli(argv, { cwd });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      // Before, the hint suggested `--auto-approve=true`, itself a usage error.
      expect(run.stderr).toBe(
        `error[cli.usage]: unknown option '${typed}'\n  hint: did you mean ${flag}? ${TWO_DASHES} ${flag} takes no value: give it alone to turn it on; leave it out to keep it off.\n`,
      );
      expect(readdirSync(cwd)).toEqual([]);
    },
  );

  test.each([
    [["plan", "--sandbox", "--fixture="], "--fixture <file>"],
    [["plan", "--sandbox", "--gallery-url", ""], "--gallery-url <url>"],
    [["apply", "--sandbox", "--target", ""], "--target <address>"],
  ])("%j: an empty value (an unset shell variable) is a missing value", async (argv, flags) => {
    const run = await runCli(argv, { cwd });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.split("\n")[0]).toBe(
      `error[cli.usage]: option '${flags}' argument missing (the value given is empty)`,
    );
    expect(readdirSync(cwd)).toEqual([]);
  });

  test.each([
    [["plan", "--sandbox", "--out", "a.json", "--out", "b.json"], "--out <file>", "a.json", "b.json"],
    [["status", "--sandbox", "--format", "csv", "--format=json"], "--format <format>", "csv", "json"],
    [["validate", ".", "--format=json", "--format", "text"], "--format <format>", "json", "text"],
  ])(
    "%j: a one-value flag given twice with two values is a usage error",
    async (argv, flags, first, second) => {
      const dir = mkdtempSync(join(tmpdir(), "campaignctl-twice-"));
      const run = await runCli(argv, { cwd: dir });
      expect(run.code).toBe(1);
      // Before, the last value won silently: `plan --out a.json --out b.json` wrote b.json alone.
      const message = `option '${flags}' given twice ('${first}', then '${second}')`;
      expect(run.stderr).toBe(`error[cli.usage]: ${message}\n  hint: It takes one value: give it once.\n`);
      if (argv.some((word) => word.includes("json") && word.startsWith("--format"))) {
        const [diagnostic] = documentOf("error-result", run.stdout).diagnostics as Diagnostics;
        expect(diagnostic).toMatchObject({ code: "cli.usage", message });
      } else expect(run.stdout).toBe("");
      expect(readdirSync(dir)).toEqual([]);
    },
  );

  test.each([
    [["plan", "--json", "-auto-approve"], 3],
    [["plan", "--json", "--target="], 3],
    [["plan", "--format=json", "--nosuch"], 3],
    [["apply", "--json", "--nosuch"], 1],
    [["status", "--json", "--nosuch"], 1],
  ])("%j: a usage error's document has the format_version of the command's own", async (argv, version) => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-usage-version-"));
    const run = await runCli(argv, { cwd: dir });
    expect(run.code).toBe(1);
    // Before, every usage error said 1, plan's too (plan's documents are at 3; error-result.schema.json).
    expect(documentOf("error-result", run.stdout)).toMatchObject({ format_version: version, error: true });
  });

  test("a one-value flag given twice with the same value is that value", async () => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-twice-"));
    const run = await runCli(["validate", "--format", "json", "--format=json", "."], { cwd: dir });
    expect(run.stderr).not.toContain("cli.usage");
    expect(documentOf("validate-result", run.stdout)).toMatchObject({ format_version: 1 });
  });

  test.each([
    [["--version=1"], "--version"],
    [["plan", "--help=yes"], "--help"],
  ])("%j: --help or --version given a value: write it alone", async (argv, flag) => {
    const run = await runCli(argv, { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `error[cli.usage]: option '${flag}' takes no value\n  hint: Write ${flag} alone.\n`,
    );
  });

  test.each([
    [["validate", ".", "--JSON"], "--json"],
    [["plan", "--Target=web"], "--target"],
    [["apply", "-Auto-Approve"], "--auto-approve"],
  ])("%j: a flag in capitals suggests it in lower case", async (argv, meant) => {
    expect(await usageError(argv)).toContain(`\n  hint: did you mean ${meant}`);
  });

  test("--api-key-en is a near miss of --api-key-env, not of a key", async () => {
    const stderr = await usageError(["plan", "--api-key-en=X"]);
    expect(stderr).toContain("\n  hint: did you mean --api-key-env?\n");
  });

  test("--api-key=KEY with --json: the document names the flag, not the key", async () => {
    const run = await runCli(["plan", "--api-key=sk_live_DO_NOT_PRINT", "--json"], { cwd });
    expect(run.code).toBe(1);
    expect(`${run.stdout}${run.stderr}`).not.toContain("DO_NOT_PRINT");
    const [diagnostic] = documentOf("error-result", run.stdout).diagnostics as Diagnostics;
    expect(diagnostic?.message).toBe("unknown option '--api-key'");
    expect(String(diagnostic?.hint)).toMatch(
      /^The API key is read from the environment only: export CAMPAIGNCTL_API_KEY=/,
    );
  });
});

describe("with no command", () => {
  test.each([["-v"], ["-V"], ["--version"]])("%s still prints the version", async (flag) => {
    expect(await runCli([flag], { cwd })).toEqual({ code: 0, stdout: `${PKG.version}\n`, stderr: "" });
  });

  test.each([["-verbose"], ["-version"], ["-vx"], ["-hv"]])("%s is a usage error", async (flag) => {
    const stderr = await usageError([flag]);
    expect(stderr.split("\n")[0]).toBe(`error[cli.usage]: unknown option '${flag}'`);
  });

  test.each([
    [["-v", "plan"], "plan"],
    [["-V", "apply", "--sandbox", ".", "--auto-approve"], "apply"],
    [["--version", "plan", "--detailed-exitcode"], "plan"],
    [["-v", "--", "plan"], "plan"],
    [["-v", "plna"], "plna"],
  ])("%j: the version with a command is a usage error, nothing run", async (argv, command) => {
    const run = await runCli(argv, { cwd });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).not.toContain(PKG.version);
    expect(run.stderr.split("\n")[0]).toBe(
      `error[cli.usage]: ${argv[0]} prints the version only with no command, and '${command}' is given`,
    );
    expect(run.stderr).toContain("campaignctl --version prints the version, on its own");
    expect(readdirSync(cwd)).toEqual([]);
    if (argv.includes("--")) return; // a --json after it is an operand
    const json = await runCli([...argv, "--json"], { cwd });
    expect(json.code).toBe(1);
    const [diagnostic] = documentOf("error-result", json.stdout).diagnostics as Diagnostics;
    expect(diagnostic).toMatchObject({ severity: "error", code: "cli.usage" });
  });

  test.each([[["-h", "plan"]], [["--help", "apply"]], [["-h", "webhooks"]]])(
    "%j prints the help of the command named, as <command> --help",
    async (argv) => {
      const run = await runCli(argv, { cwd });
      const own = await runCli([argv[1] ?? "", "--help"], { cwd });
      expect(run).toEqual({ code: 0, stdout: own.stdout, stderr: "" });
      expect(run.stdout).toMatch(new RegExp(`^Usage: campaignctl ${argv[1]} `));
    },
  );

  test("-version suggests --version", async () => {
    expect(await usageError(["-version"])).toContain(`\n  hint: did you mean --version? ${TWO_DASHES}\n`);
  });

  test("a flag's value that begins with a dash is a value, not a flag", async () => {
    const run = await runCli(["plan", "--target", "-verbose", "--help"], { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: campaignctl plan/);
  });
});
