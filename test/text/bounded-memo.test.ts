/**
 * The one memo of pure results by content (src/text/bounded-memo.ts): the policy parse, the
 * sandbox's fixture loads, date-time reads and instants in a zone all keep their results through it.
 * It answers a key only with what that key made, drops the least recently used beyond its bound,
 * keeps nothing for an over-long key, and with `freeze` no caller can change a kept result.
 */
import { describe, expect, test } from "vitest";
import { boundedMemo, deepFreeze } from "../../src/text/bounded-memo.js";

describe("boundedMemo", () => {
  test("parses a key once, and again after it was dropped as the least recently used", () => {
    const memo = boundedMemo<{ n: number }>({ max: 2, maxKeyLength: 100 });
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
    const memo = boundedMemo<{ n: number }>({ max: 2, maxKeyLength: 3 });
    let parses = 0;
    const parse = () => {
      parses += 1;
      return { n: parses };
    };
    expect(memo.get("long", parse)).toEqual({ n: 1 });
    expect(memo.get("long", parse)).toEqual({ n: 2 });
  });

  test("a kept result is frozen all the way down: a change throws instead of reaching the next run", () => {
    const memo = boundedMemo<{ rules: { words: string[] }; byName: Map<string, { x: number }> }>({
      max: 2,
      maxKeyLength: 100,
      freeze: true,
    });
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

  test("keeps a null result (a text that is no date-time is read once), counts what it made, and leaves results unfrozen unless asked", () => {
    const memo = boundedMemo<{ n: number } | null>({ max: 4 });
    let made = 0;
    const make = () => {
      made += 1;
      return null;
    };
    expect(memo.get("x", make)).toBeNull();
    expect(memo.get("x", make)).toBeNull();
    expect(made).toBe(1);
    const open = memo.get("y", () => ({ n: 1 }));
    expect(Object.isFrozen(open)).toBe(false);
    expect(memo.made).toBe(2);
  });

  test("deepFreeze never calls a getter: a lazy value stays lazy", () => {
    let reads = 0;
    const file = {
      path: "a.yaml",
      get sha256() {
        reads += 1;
        return "digest";
      },
    };
    deepFreeze(file);
    expect(Object.isFrozen(file)).toBe(true);
    expect(reads).toBe(0);
    expect(file.sha256).toBe("digest");
  });
});
