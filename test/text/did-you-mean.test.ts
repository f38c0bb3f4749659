/**
 * The did-you-mean of a misspelt key counts two letters swapped as one slip (`gaurd` for `guard`),
 * as it counts one letter left out: a key silently left out would switch its rule off, and even as
 * an error, a hint that lists every key instead of naming the one meant is easy to misread.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { didYouMean, editDistance } from "../../src/text/did-you-mean.js";
import { runCli } from "../helpers/run-cli.js";

describe("did you mean: swapped letters", () => {
  it.each([
    ["gaurd", "guard", 1],
    ["guard", "guard", 0],
    ["shcedule", "schedule", 1],
    ["mesage", "message", 1],
    ["ab", "ba", 1],
    ["abc", "ca", 3],
  ])("editDistance(%j, %j) is %i", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });

  it("names the key meant for a swap, and none for a word far from every key", () => {
    const keys = ["id", "state", "schedule", "guard", "message", "contact_lists"];
    expect(didYouMean("gaurd", keys)).toBe("guard");
    expect(didYouMean("stat", keys)).toBe("state");
    expect(didYouMean("sate", keys)).toBe("state");
    expect(didYouMean("bananas", keys)).toBeUndefined();
  });

  it("validate: `gaurd:` in defaults is an error whose hint names `guard`", async () => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-dym-"));
    writeFileSync(
      join(dir, "c.yaml"),
      "version: 1\ndefaults:\n  gaurd: {max_failure_rate: 0.05}\nprojects:\n  a:\n    id: x\n",
    );
    const result = await runCli(["validate", "c.yaml"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("error[campaign.unknown-key]: unknown key `gaurd` in `defaults`");
    expect(result.stdout).toContain("hint: did you mean `guard`?");
  });
});
