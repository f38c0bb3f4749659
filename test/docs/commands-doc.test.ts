/**
 * docs/commands.md carries the help text of every command, generated from the built CLI by
 * scripts/gen-commands-doc.mjs; this fails when a command or flag changed without regenerating it.
 * The help texts are read in-process (`run` of cli/main.ts, the same program the binary builds):
 * seventeen Node processes fewer; the built binary's help is run by test/cli-main.test.ts and
 * test/cli/lazy-commands.test.ts.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
// @ts-expect-error: a plain ES module script without type declarations
import { commandNames, renderRegion, withRegion } from "../../scripts/gen-commands-doc.mjs";
import { runCli } from "../helpers/run-cli.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

describe("docs/commands.md", () => {
  test("has the current help text of every command", async () => {
    const doc = readFileSync(join(ROOT, "docs/commands.md"), "utf8");
    /** What `campaignctl ARGS` prints; a failing help (exit code not 0) fails here, as in the script. */
    const help = async (args: readonly string[]) => {
      const run = await runCli(args, { env: { COLUMNS: "100" } });
      expect(run, args.join(" ")).toMatchObject({ code: 0, stderr: "" });
      return run.stdout;
    };
    const render = renderRegion as (h: typeof help) => Promise<string>;
    const fresh = (withRegion as (d: string, r: string) => string)(doc, await render(help));
    expect(doc === fresh, "docs/commands.md is out of date: run node scripts/gen-commands-doc.mjs").toBe(
      true,
    );
  }, 120_000);

  test("the command list is read from the top-level help", () => {
    const names = (commandNames as (t: string) => string[])(
      "Usage: x\n\nCommands:\n  validate [options]  Check\n                      more\n  plan [options]  Plan\n  help [command]  help\n",
    );
    expect(names).toEqual(["validate", "plan"]);
  });
});
