/**
 * Issue 35 point 7, the command line's front door: `help --help` prints help; a usage error is shown
 * as every other error is (`error[cli.usage]: …` with its hint, once, on stderr), naming the
 * command whose usage to read; and `--sandbox`'s help says what each command does with the
 * embedded sandbox in words that read ("plan replies against", not "plan replies the").
 */
import { describe, expect, test } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { documentOf } from "../helpers/schemas.js";

/** An option's help text, its wrapped lines joined. */
function optionHelp(help: string, flag: string): string | undefined {
  const lines = help.split("\n");
  const at = lines.findIndex((l) => l.startsWith(`  ${flag} `));
  if (at < 0) return undefined;
  const words = [(lines[at] ?? "").slice(2 + flag.length).trim()];
  for (const line of lines.slice(at + 1)) {
    if (!/^ {6,}\S/.test(line)) break;
    words.push(line.trim());
  }
  return words.join(" ");
}

describe("help", () => {
  test("`help --help` and `help -h` print the help command's own help", async () => {
    for (const flag of ["--help", "-h"]) {
      const run = await runCli(["help", flag]);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe("");
      expect(run.stdout).toMatch(/^Usage: campaignctl help \[options\] \[command\]\n/);
    }
  });
});

describe("a usage error", () => {
  test.each([
    [["plan", "--frob"], "unknown option '--frob'", "campaignctl plan --help shows the usage"],
    [
      ["replies", "plan", "--frob"],
      "unknown option '--frob'",
      "campaignctl replies plan --help shows the usage",
    ],
    [["validate", "--jsn"], "unknown option '--jsn'", "did you mean --json?"],
    [["sandbox", "--port", "x"], "option '--port <n>' argument 'x' is invalid.", undefined],
  ])("%j: error[cli.usage] with its hint, once, on stderr", async (argv, message, hint) => {
    const run = await runCli(argv);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    const [first, second, ...rest] = run.stderr.split("\n");
    expect(first).toMatch(/^error\[cli\.usage\]: /);
    expect(first?.startsWith(`error[cli.usage]: ${message}`)).toBe(true);
    if (hint !== undefined) expect(second).toBe(`  hint: ${hint}`);
    else expect(second).toMatch(/^ {2}hint: /);
    expect(rest).toEqual([""]);
    expect(run.stderr).not.toMatch(/^error: /m);
    // With --json: the same diagnostic as the error document on stdout, and the text on stderr.
    const json = await runCli([...argv, "--json"]);
    expect(json.code).toBe(1);
    expect(json.stderr).toBe(run.stderr);
    const [diagnostic] = documentOf("error-result", json.stdout).diagnostics as { hint: string }[];
    expect(diagnostic).toMatchObject({ severity: "error", code: "cli.usage", range: null });
    expect(`  hint: ${diagnostic?.hint}`).toBe(second);
  });
});

describe("--sandbox's help in every command that connects", () => {
  test.each([
    [["plan"], "plan against the embedded sandbox"],
    [["apply"], "apply against the embedded sandbox"],
    [["import"], "import from the embedded sandbox"],
    [["status"], "read from the embedded sandbox"],
    [["watch"], "watch the embedded sandbox"],
    [["preview"], "with --html: show plan status and cost from the embedded sandbox"],
    [["replies", "plan"], "plan replies against the embedded sandbox"],
    [["replies", "run"], "answer inbounds on the embedded sandbox"],
  ])("%j says: %s", async (command, says) => {
    const run = await runCli([...command, "--help"]);
    expect(run.code).toBe(0);
    expect(optionHelp(run.stdout, "--sandbox")).toBe(`${says} (state in .campaignctl/sandbox/)`);
  });
});
