/**
 * lint.non-gsm-character on real YAML, through the loader: the character and its code point, its
 * exact place in the file (further places in `related`), the segments per recipient as sent (UCS-2)
 * and in GSM-7, the severity by cost, and the GSM-7 spelling as the hint.
 */
import { describe, expect, it } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import { lintCampaign } from "../../src/campaign/lint/index.js";
import type { CampaignFile } from "../../src/campaign/model.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { gsmSpelling } from "../../src/message/gsm-spelling.js";

const now = new Date("2026-11-21T12:00:00Z");

function lint(text: string): Diagnostic[] {
  const file: CampaignFile = { path: "c.yaml", text, sha256: "0".repeat(64) };
  const assembled = assembleCampaign([file]);
  expect(assembled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return lintCampaign(assembled.campaign, { now }).filter((d) => d.code === "lint.non-gsm-character");
}

const at = (d: Diagnostic | undefined) =>
  `${d?.range?.start.line}:${d?.range?.start.column}-${d?.range?.end.line}:${d?.range?.end.column}`;

const file = (message: string, extra = "") => `version: 1
projects:
  a:
    id: p1
    message: "${message}"
${extra}`;

describe("lint.non-gsm-character", () => {
  it("an emoji that doubles the segments: a warning at its place, with both counts and no spelling", () => {
    // 100 GSM characters are 1 segment; with the emoji (2 UTF-16 units) the message is UCS-2: 2 segments.
    const body = "Vote Tuesday! Polls open 7am to 8pm at your usual place. Reply STOP to opt out, thanks ok";
    expect(body.length).toBeGreaterThan(70);
    const [d, ...rest] = lint(file(`${body} 🗳`));
    expect(rest).toEqual([]);
    expect(d?.severity).toBe("warning");
    const column = 15 + body.length + 1;
    expect(at(d)).toBe(`5:${column}-5:${column + 2}`);
    expect(d?.message).toBe(
      "a: the message holds 🗳 (U+1F5F3) which GSM-7 cannot carry: the message goes out in UCS-2, 2 segments per recipient instead of 1 in GSM-7: 2 times the cost of each recipient (billed per segment)",
    );
    expect(d?.hint).toBe(
      "remove 🗳, or keep it and budget for UCS-2 (70 characters a segment, 67 once split)",
    );
  });

  it("a tab in the message is named as a tab (a raw tab prints as nothing), a space as the hint", () => {
    const [d, ...rest] = lint(file("Vote at\\tthe library. Reply STOP to opt out"));
    expect(rest).toEqual([]);
    expect(at(d)).toBe("5:22-5:24"); // the escape \\t, two characters of the file
    expect(d?.message).toContain("the message holds a tab (U+0009) which GSM-7 cannot carry");
    expect(d?.message).not.toContain("\t");
    expect(d?.hint).toBe(
      "write a space instead of the tab (GSM-7 has no tab), or keep it and budget for UCS-2 (70 characters a segment, 67 once split)",
    );
  });

  it("a curly apostrophe, twice, in a short message: info (no segment change), the others in related, ' as the hint", () => {
    const [d, ...rest] = lint(file("We’re voting, you’re welcome. Reply STOP to opt out"));
    expect(rest).toEqual([]);
    expect(d?.severity).toBe("info");
    expect(at(d)).toBe("5:17-5:18");
    expect(d?.related?.map((r) => at({ ...d, range: r.range }))).toEqual(["5:32-5:33"]);
    expect(d?.message).toContain("holds ’ (U+2019), 2 times, which GSM-7 cannot carry");
    expect(d?.message).toContain("1 segment per recipient either way");
    expect(d?.hint).toBe("write ' instead of ’ (GSM-7 has it)");
  });

  it("one finding per distinct character: curly quotes, a dash, an ellipsis, an accent GSM-7 lacks", () => {
    const found = lint(file("“Vote” – today… Ramón is ready. Reply STOP to opt out"));
    expect(found.map((d) => [at(d), d.hint])).toEqual([
      ["5:15-5:16", `write " instead of “ (GSM-7 has it)`],
      ["5:20-5:21", `write " instead of ” (GSM-7 has it)`],
      ["5:22-5:23", "write - instead of – (GSM-7 has it)"],
      ["5:29-5:30", "write ... instead of … (GSM-7 has it)"],
      ["5:34-5:35", "write o instead of ó if the plain spelling is acceptable (GSM-7 lacks the accent)"],
    ]);
    expect(found[0]?.message).toContain("(GSM-7 with all 5 non-GSM characters written in GSM-7 or left out)");
  });

  it("says nothing for GSM-7 accents (é, ñ, ü), invisible characters (their own rule) and MMS", () => {
    expect(lint(file("José, Muñoz, Müller: vote! Reply STOP to opt out"))).toEqual([]);
    expect(lint(file("Vote\\u200B today! Reply STOP to opt out"))).toEqual([]);
    expect(
      lint(file("Vote 🗳 today! Reply STOP to opt out", "    media: [https://example.com/a.png]\n")),
    ).toEqual([]);
  });

  it("counts the opt-out footer: what goes out is judged, not only the message", () => {
    // 68 units + 1 emoji (2 units) = 70: one UCS-2 segment; the footer (9 more) makes it 2.
    const body = "a".repeat(60);
    expect(lint(file(`${body} 🗳 STOP`))[0]?.message).toContain("1 segment per recipient either way");
    const [d] = lint(file(`${body} 🗳 STOP`, "    opt_out_footer: true\n"));
    expect(d?.message).toContain("2 segments per recipient instead of 1 in GSM-7");
  });

  it("has GSM-7 spellings for the usual typographic characters", () => {
    expect(["’", "‘", "“", "”", "–", "—", "…", "\u00A0"].map((c) => gsmSpelling(c)?.text)).toEqual([
      "'",
      "'",
      '"',
      '"',
      "-",
      "-",
      "...",
      " ",
    ]);
    expect(gsmSpelling("é")).toBeUndefined(); // GSM-7 has it
    expect(gsmSpelling("ã")?.text).toBe("a");
    expect(gsmSpelling("😀")).toBeUndefined();
    expect(gsmSpelling("Đ")?.text).toBeUndefined();
  });
});
