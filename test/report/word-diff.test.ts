import { describe, expect, it } from "vitest";
import { styleFor } from "../../src/report/style.js";
import { renderWordDiff } from "../../src/report/word-diff.js";

describe("renderWordDiff", () => {
  it("marks removed and added words without colour", () => {
    expect(
      renderWordDiff("polls close at 8pm today", "polls close at 7pm today", styleFor(false), false),
    ).toBe("polls close at [-8pm-]{+7pm+} today");
  });

  it("paints removed words red and added words green with colour, without markers", () => {
    const out = renderWordDiff("close at 8pm", "close at 7pm", styleFor(true), true);
    expect(out).toBe("close at \u001b[31m8pm\u001b[39m\u001b[32m7pm\u001b[39m");
  });

  it("shows a change of whitespace alone, which diffWords ignores", () => {
    expect(renderWordDiff("a  b", "a b", styleFor(false), false)).toBe("a[-  -]{+ +}b");
  });

  it("shows identical texts unmarked", () => {
    expect(renderWordDiff("same text", "same text", styleFor(false), false)).toBe("same text");
  });
});
