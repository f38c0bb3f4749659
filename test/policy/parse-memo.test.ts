/**
 * Policy files parsed once per content in a process (cli/adapters/parse-memo.ts, used by
 * loadPolicy): a long-lived process and in-process runs read an unchanged policy file again and
 * again. The memo must never answer for another text, and nothing a run does to what it got may
 * reach the next run.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { deepFreeze, parseMemo } from "../../cli/adapters/parse-memo.js";
import { loadPolicy } from "../../cli/adapters/policy-file.js";

describe("parseMemo", () => {
  test("parses a key once, and again after it was dropped as the least recently used", () => {
    const memo = parseMemo<{ n: number }>(2, 100);
    let parses = 0;
    const parse = (n: number) => () => {
      parses += 1;
      return { n };
    };
    expect(memo.get("a", parse(1))).toEqual({ n: 1 });
    expect(memo.get("a", parse(99))).toEqual({ n: 1 });
    expect(parses).toBe(1);
    memo.get("b", parse(2));
    memo.get("a", parse(99)); // a is now the most recently used: b goes first
    memo.get("c", parse(3));
    expect(parses).toBe(3);
    expect(memo.get("a", parse(99))).toEqual({ n: 1 });
    expect(memo.get("b", parse(22))).toEqual({ n: 22 });
    expect(parses).toBe(4);
  });

  test("keeps nothing for a key over the length limit", () => {
    const memo = parseMemo<{ n: number }>(2, 3);
    let parses = 0;
    const parse = () => {
      parses += 1;
      return { n: parses };
    };
    expect(memo.get("long", parse)).toEqual({ n: 1 });
    expect(memo.get("long", parse)).toEqual({ n: 2 });
  });

  test("a kept result is frozen all the way down: a change throws instead of reaching the next run", () => {
    const memo = parseMemo<{ rules: { words: string[] }; byName: Map<string, { x: number }> }>(2, 100);
    const kept = memo.get("k", () => ({
      rules: { words: ["STOP"] },
      byName: new Map([["a", { x: 1 }]]),
    }));
    expect(() => kept.rules.words.push("QUIT")).toThrow(TypeError);
    expect(() => {
      (kept.rules as { words: string[] }).words = [];
    }).toThrow(TypeError);
    expect(() => {
      (kept.byName.get("a") as { x: number }).x = 2;
    }).toThrow(TypeError);
    expect(memo.get("k", () => ({ rules: { words: [] }, byName: new Map() })).rules.words).toEqual(["STOP"]);
  });

  test("deepFreeze leaves primitives and returns its argument", () => {
    const value = { a: [1, { b: "c" }] };
    expect(deepFreeze(value)).toBe(value);
    expect(Object.isFrozen(value.a[1])).toBe(true);
    expect(deepFreeze(3)).toBe(3);
  });
});

describe("loadPolicy with the memo", () => {
  /** A repository holding one campaign file and the policy text. */
  function repo(policy: string): string {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-policy-memo-"));
    mkdirSync(join(dir, ".git"));
    writeFileSync(join(dir, "a.yaml"), "version: 1\n");
    writeFileSync(join(dir, "campaignctl.policy.yaml"), policy);
    return dir;
  }

  test("the same file with another text is parsed again (content, not path, is the key)", () => {
    const dir = repo("version: 1\nrules:\n  require_opt_out_language: true\n");
    const first = loadPolicy({}, ["a.yaml"], dir);
    expect(first.ok && first.policy?.rules.require_opt_out_language).toBe(true);
    writeFileSync(
      join(dir, "campaignctl.policy.yaml"),
      "version: 1\nrules:\n  require_opt_out_language: false\n",
    );
    const second = loadPolicy({}, ["a.yaml"], dir);
    expect(second.ok && second.policy?.rules.require_opt_out_language).toBe(false);
    writeFileSync(join(dir, "campaignctl.policy.yaml"), "version: 1\nrules: [\n");
    const third = loadPolicy({}, ["a.yaml"], dir);
    expect(third.ok).toBe(false);
    expect(third.diagnostics.map((d) => d.code)).toEqual(["policy.file-invalid"]);
  });

  test("two runs over one text agree, and the second reads what the first read", () => {
    const dir = repo("version: 1\nrules:\n  min_test_contacts: 2\n");
    const first = loadPolicy({}, ["a.yaml"], dir);
    const second = loadPolicy({}, ["a.yaml"], dir);
    expect(second).toEqual(first);
  });
});
