/** One rule for `--format` and `--json` (validate, preview), and how a usage error finds out JSON was asked for. */
import { describe, expect, test } from "vitest";
import { formatOf } from "../../cli/flags/output-format.js";
import { asksForJson } from "../../cli/lifecycle/run.js";

describe("formatOf", () => {
  test.each([
    { format: "text", json: undefined, given: false, result: "text" },
    { format: "json", json: undefined, given: true, result: "json" },
    { format: "text", json: true, given: false, result: "json" },
    { format: "json", json: true, given: true, result: "json" },
    {
      format: "text",
      json: true,
      given: true,
      result: { usage: "--json and --format text disagree: give one of them" },
    },
  ] as const)("--format $format (given: $given), --json $json", ({ format, json, given, result }) => {
    expect(formatOf({ format, color: true, ...(json ? { json } : {}) }, given)).toEqual(result);
  });
});

describe("asksForJson", () => {
  test.each([
    [["plan", "--json"], true],
    [["validate", "--format", "json"], true],
    [["validate", "--format=json"], true],
    [["validate", "--format", "text"], false],
    [["plan", "--", "--json"], false],
    [["plan"], false],
  ] as const)("%j: %s", (argv, expected) => {
    expect(asksForJson(argv)).toBe(expected);
  });
});
