import { describe, expect, it } from "vitest";
import {
  codeSpan,
  escapeMarkdown,
  escapeSummaryHtml,
  fencedBlock,
} from "../../src/report/markdown-escape.js";

describe("escapeMarkdown", () => {
  it("escapes Markdown punctuation, HTML and table pipes, and folds line breaks", () => {
    expect(escapeMarkdown("a *b* _c_ [d](e) `f` | <g> & \\ ~h~\nnext")).toBe(
      "a \\*b\\* \\_c\\_ \\[d\\](e) \\`f\\` \\| &lt;g&gt; &amp; \\\\ \\~h\\~ next",
    );
  });

  it("breaks @-mentions and #-issue references, leaving other @ and # alone", () => {
    expect(escapeMarkdown("ping @alice about #42, mail a@ b and # c")).toBe(
      "ping @&#8203;alice about #&#8203;42, mail a@ b and # c",
    );
  });
});

describe("escapeSummaryHtml", () => {
  it("escapes HTML (quotes and apostrophes too), leaves Markdown punctuation as is, folds line breaks", () => {
    expect(escapeSummaryHtml('<b>"x" & *y*</b>\nit\'s @bob')).toBe(
      "&lt;b&gt;&quot;x&quot; &amp; *y*&lt;/b&gt; it&#39;s @&#8203;bob",
    );
  });

  it("breaks a #-issue reference but never the entities it writes", () => {
    expect(escapeSummaryHtml("'#42' &#7")).toBe("&#39;#&#8203;42&#39; &amp;#&#8203;7");
  });
});

describe("codeSpan", () => {
  it("uses more backticks than the text holds and pads a leading backtick", () => {
    expect(codeSpan("plain")).toBe("`plain`");
    expect(codeSpan("a ``b`` c")).toBe("```a ``b`` c```");
    expect(codeSpan("`x")).toBe("`` `x ``");
  });

  it("escapes pipes only in table cells", () => {
    expect(codeSpan("a|b", true)).toBe("`a\\|b`");
    expect(codeSpan("a|b")).toBe("`a|b`");
  });
});

describe("fencedBlock", () => {
  it("uses a fence longer than any backtick run of the content", () => {
    expect(fencedBlock("x", "diff")).toBe("```diff\nx\n```");
    expect(fencedBlock("````", "")).toBe("`````\n````\n`````");
  });
});
