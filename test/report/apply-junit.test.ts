import { describe, expect, it } from "vitest";
import type { ApplyResult } from "../../src/apply/types.js";
import { escapeAttribute, escapeText, renderApplyJunit, xmlSafe } from "../../src/report/apply-junit.js";
import { completeApplyResult, fullApplyResult, refusedApplyResult } from "./apply-fixtures.js";
import { expectGolden } from "./golden.js";

/**
 * A strict-enough XML 1.0 well-formedness check for these documents: only allowed characters, tags
 * nest and close, attributes are quoted without raw `<` or `&`, every `&` starts a known reference.
 */
function expectWellFormed(xml: string): void {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test is about control characters
  expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/);
  const body = xml.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n/, "");
  const stack: string[] = [];
  const token =
    /<(\/?)([A-Za-z][\w.-]*)((?:\s+[\w.-]+="[^"<&]*(?:&(?:amp|lt|gt|quot|apos|#\d+);[^"<&]*)*")*)\s*(\/?)>|([^<]+)/gy;
  let match: RegExpExecArray | null;
  let consumed = 0;
  for (match = token.exec(body); match !== null; match = token.exec(body)) {
    consumed = token.lastIndex;
    const [, close, name, , selfClosing, text] = match;
    if (text !== undefined) {
      expect(text.replace(/&(?:amp|lt|gt|quot|apos|#\d+);/g, "")).not.toMatch(/[&<]/);
      continue;
    }
    if (close === "/") expect(stack.pop()).toBe(name);
    else if (selfClosing !== "/") stack.push(name ?? "");
  }
  expect(consumed).toBe(body.length);
  expect(stack).toEqual([]);
}

function attribute(xml: string, element: string, name: string): string | undefined {
  return new RegExp(`<${element}\\b[^>]*\\s${name}="([^"]*)"`).exec(xml)?.[1];
}

describe("expectWellFormed (the test's own checker)", () => {
  it("rejects raw specials, forbidden characters and unbalanced tags", () => {
    expect(() => expectWellFormed("<a>x & y</a>")).toThrow();
    expect(() => expectWellFormed('<a b="<"/>')).toThrow();
    expect(() => expectWellFormed("<a>\u0001</a>")).toThrow();
    expect(() => expectWellFormed("<a><b></a></b>")).toThrow();
    expect(() => expectWellFormed("<a>")).toThrow();
    expectWellFormed('<a b="&amp;&#9;">&lt;x&gt;<c/></a>');
  });
});

describe("renderApplyJunit", () => {
  it("renders one testcase per action with failures and skips (golden)", () => {
    const xml = renderApplyJunit(fullApplyResult());
    expectWellFormed(xml);
    expectGolden("apply-junit.xml", xml);
  });

  it("renders a refused plan as one failing testcase `plan` with the reasons (golden)", () => {
    const xml = renderApplyJunit(refusedApplyResult());
    expectWellFormed(xml);
    expect(xml).toContain('<testcase classname="campaignctl apply" name="plan" time="0.000">');
    expect(xml).toContain('type="apply.plan-stale"');
    expectGolden("apply-junit-refused.xml", xml);
  });

  it("counts tests, failures and skips, and times the suite and each case", () => {
    const xml = renderApplyJunit(fullApplyResult());
    expect(xml).toContain(
      '<testsuite name="campaignctl apply" tests="10" failures="3" errors="0" skipped="4" time="9.400" timestamp="2026-11-20T14:05:00Z">',
    );
    expect(xml.match(/<testcase /g)).toHaveLength(10);
    expect(xml.match(/<failure /g)).toHaveLength(3);
    expect(xml).toContain('<testcase classname="phone-bank" name="read" time="0.000">');
    expect(xml.match(/<skipped /g)).toHaveLength(4);
    expect(xml).toContain('<testcase classname="weekend-canvass" name="schedule" time="5.750">');
    expect(xml).toContain('<testcase classname="flyer-blast" name="test" time="0.000">');
    const clean = renderApplyJunit(completeApplyResult());
    expect(attribute(clean, "testsuite", "tests")).toBe("4");
    expect(attribute(clean, "testsuite", "failures")).toBe("0");
    expect(attribute(clean, "testsuite", "skipped")).toBe("1");
  });

  it("maps a failed action to a failure typed by its error code, with the details", () => {
    const xml = renderApplyJunit(fullApplyResult());
    expect(xml).toContain(
      '<failure message="HTTP 400 validation_error: test_contacts[1].phone: &quot;+1503555019&quot; is not E.164 ' +
        '&lt;expected +1 &amp; 10 digits&gt;; merge value &apos;first_name&apos; = `*Dana*` | @field-team #12" type="validation_error">',
    );
    expect(xml).toContain("attempts: 1, idempotency key cc1-");
  });

  it("escapes <, &, quotes and line breaks, and writes characters XML 1.0 forbids as visible text", () => {
    const nasty = "a < b & \"c\" 'd' ]]> e\u0000f\u0007g\u001bh\u000bi\tj\nk\rl\ud800m\ufffe";
    const full = fullApplyResult();
    const actions = full.actions.map((a) =>
      a.status === "failed"
        ? {
            ...a,
            error: {
              source: "api" as const,
              status: 400,
              code: "UNLISTED" as const,
              api_code: 'bad"<code>&',
              message: nasty,
            },
          }
        : a.status === "blocked"
          ? { ...a, reason: nasty }
          : a,
    );
    const result: ApplyResult = { ...full, tool_version: "0.1.0-<dev>&", actions };
    const xml = renderApplyJunit(result);
    expectWellFormed(xml);
    expect(xml).toContain('type="bad&quot;&lt;code&gt;&amp;"');
    expect(xml).toContain(
      "a &lt; b &amp; &quot;c&quot; &apos;d&apos; ]]&gt; e\\u0000f\\u0007g\\u001Bh\\u000Bi&#9;j&#10;k&#13;l\\uD800m\\uFFFE",
    );
    expect(xml).toContain(
      "a &lt; b &amp; \"c\" 'd' ]]&gt; e\\u0000f\\u0007g\\u001Bh\\u000Bi\tj\nk&#13;l\\uD800m\\uFFFE",
    );
    expect(xml).toContain('<property name="campaignctl.version" value="0.1.0-&lt;dev&gt;&amp;"/>');
  });

  it("keeps valid surrogate pairs and other Unicode as is", () => {
    expect(xmlSafe("Weekend canvass 🚪 café \u00a0")).toBe("Weekend canvass 🚪 café \u00a0");
    expect(xmlSafe("\udc00x\ud83d")).toBe("\\uDC00x\\uD83D");
    expect(escapeText("<&>\"'")).toBe("&lt;&amp;&gt;\"'");
    expect(escapeAttribute("<&>\"'\t")).toBe("&lt;&amp;&gt;&quot;&apos;&#9;");
  });
});
