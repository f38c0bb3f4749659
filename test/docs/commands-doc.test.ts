/**
 * docs/commands.md carries the help text of every command, generated from the built CLI by
 * scripts/gen-commands-doc.mjs; this fails when a command or flag changed without regenerating it.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
// @ts-expect-error: a plain ES module script without type declarations
import { commandNames, renderRegion, withRegion } from "../../scripts/gen-commands-doc.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

describe("docs/commands.md", () => {
  test("has the current help text of every command", () => {
    const doc = readFileSync(join(ROOT, "docs/commands.md"), "utf8");
    const fresh = (withRegion as (d: string, r: string) => string)(doc, (renderRegion as () => string)());
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
