/**
 * `campaignctl version`, `-v`/`--version` (and the older `-V`), `help [command]`, and the nearest
 * command named for a misspelt one, as usage errors with the suggestion as the diagnostic's hint.
 */

import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { nearestCommand } from "../../cli/register/help.js";
import { runBuiltCli, runCli } from "../helpers/run-cli.js";
import { documentOf } from "../helpers/schemas.js";
import { COMMAND_NAMES } from "./command-names.js";

const PKG = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
};

describe("version", () => {
  test.each([["--version"], ["-v"], ["-V"]])("%s prints the version number alone", async (flag) => {
    expect(await runCli([flag])).toEqual({ code: 0, stdout: `${PKG.version}\n`, stderr: "" });
  });

  test("`version` prints campaignctl's, Node.js's and the API contract's", async () => {
    const run = await runCli(["version"]);
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")).toEqual([
      `campaignctl ${PKG.version}`,
      `Node.js ${process.versions.node} (${process.platform} ${process.arch})`,
      "messaging API contract 1.4.0",
      "",
    ]);
  });

  test("`version --json` prints one document of its schema", async () => {
    const run = await runCli(["version", "--json"]);
    expect(run.code).toBe(0);
    expect(documentOf("version-result", run.stdout)).toEqual({
      format_version: 1,
      version: PKG.version,
      node: process.versions.node,
      platform: process.platform,
      arch: process.arch,
      api_contract: "1.4.0",
    });
  });

  test("the built binary answers -v", async () => {
    expect(await runBuiltCli(["-v"])).toMatchObject({ code: 0, stdout: `${PKG.version}\n` });
  });
});

describe("help", () => {
  test("`help plan` prints plan's help, as `plan --help` does", async () => {
    const help = await runCli(["help", "plan"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: campaignctl plan \[options\] \[paths\.\.\.\]\n/);
    expect(help.stdout).toBe((await runCli(["plan", "--help"])).stdout);
  });

  test("`help` prints the command list, `help` last", async () => {
    const help = await runCli(["help"]);
    expect(help.code).toBe(0);
    const commands = help.stdout.split(/^Commands:$/m)[1] ?? "";
    const names = [...commands.matchAll(/^ {2}([a-z-]+)/gm)].map((m) => m[1]);
    expect(names).toEqual(COMMAND_NAMES);
  });

  test.each([
    [["help", "plna"], "plna", "plan"],
    [["plna"], "plna", "plan"],
    [["aply", "examples/"], "aply", "apply"],
    [["help", "verison"], "verison", "version"],
    [["sandbx"], "sandbx", "sandbox"],
  ])("%j is a usage error naming %s and suggesting %s", async (argv, word, nearest) => {
    const run = await runCli(argv);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      `error[cli.usage]: unknown command '${word}'\n  hint: did you mean ${nearest}?\n`,
    );
    const json = await runCli([...argv, "--json"]);
    expect(json.code).toBe(1);
    expect(documentOf("error-result", json.stdout).diagnostics).toEqual([
      {
        severity: "error",
        code: "cli.usage",
        message: `unknown command '${word}'`,
        range: null,
        hint: `did you mean ${nearest}?`,
        related: [],
      },
    ]);
  });

  test("a word far from every command gets no suggestion", async () => {
    const run = await runCli(["help", "frobnicate"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "error[cli.usage]: unknown command 'frobnicate'\n  hint: campaignctl --help shows the usage\n",
    );
  });

  test.each([
    ["plna", "plan"],
    ["pln", "plan"],
    ["improt", "import"],
    ["validat", "validate"],
    ["xyz", undefined],
    ["pl", undefined],
  ])("the command nearest %s is %s", (word, nearest) => {
    const names = ["init", "validate", "preview", "plan", "apply", "import", "sandbox", "help"];
    expect(nearestCommand(word, names)).toBe(nearest);
  });
});
