import { describe, expect, test } from "vitest";
import { itself, MAX_REMEMBERED, memoize } from "../../src/message/memo.js";
import { analyzeSegments } from "../../src/message/segments.js";

describe("memoize", () => {
  test("computes a key once and gives the same object again", () => {
    const calls: string[] = [];
    const length = memoize((key: string) => {
      calls.push(key);
      return { length: key.length };
    }, itself);
    const first = length("abc");
    expect(length("abc")).toBe(first);
    expect(length("de")).toEqual({ length: 2 });
    expect(calls).toEqual(["abc", "de"]);
  });

  test("remembers undefined results too", () => {
    let calls = 0;
    const nothing = memoize(() => {
      calls++;
      return undefined;
    }, itself);
    nothing("x");
    nothing("x");
    expect(calls).toBe(1);
  });

  test("starts again past MAX_REMEMBERED keys, so memory stays bounded", () => {
    const calls: string[] = [];
    const echo = memoize((key: string) => {
      calls.push(key);
      return key;
    }, itself);
    for (let i = 0; i < MAX_REMEMBERED; i++) echo(String(i));
    echo("0");
    expect(calls).toHaveLength(MAX_REMEMBERED);
    echo("one more"); // the memo is full: it is emptied, then remembers this key
    echo("0");
    expect(calls.slice(MAX_REMEMBERED)).toEqual(["one more", "0"]);
  });

  test("analyzeSegments gives equal results for equal texts, remembered or not", () => {
    const text = "Hi friend, polls are open 7am-7pm. Reply STOP to opt out";
    const again = `${text.slice(0, 10)}${text.slice(10)}`;
    expect(analyzeSegments(again)).toBe(analyzeSegments(text));
    expect(analyzeSegments(text)).toMatchObject({ encoding: "GSM-7", segments: 1, units: text.length });
  });
});
