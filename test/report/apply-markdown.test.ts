import { describe, expect, it } from "vitest";
import { renderApplyMarkdown } from "../../src/report/apply-markdown.js";
import { GITHUB_COMMENT_MAX_CHARS } from "../../src/report/plan-markdown.js";
import {
  completeApplyResult,
  fullApplyResult,
  hugeApplyResult,
  refusedApplyResult,
} from "./apply-fixtures.js";
import { expectGolden } from "./golden.js";

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

describe("renderApplyMarkdown", () => {
  it("renders an interrupted run with every action status as a PR comment (golden)", () => {
    expectGolden("apply.md", renderApplyMarkdown(fullApplyResult()));
  });

  it("renders a refused plan with its reasons (golden)", () => {
    const md = renderApplyMarkdown(refusedApplyResult());
    expect(md).not.toContain("| Status |");
    expectGolden("apply-refused.md", md);
  });

  it("puts failures first, before the table", () => {
    const md = renderApplyMarkdown(fullApplyResult());
    const failures = md.indexOf("### Failed actions");
    expect(failures).toBeGreaterThan(0);
    expect(failures).toBeLessThan(md.indexOf("### Actions"));
    expect(md).toContain(
      "- `x` **`volunteer-recruitment.test`** test of `volunteer-recruitment` failed\n" +
        '  - **error:** HTTP 400 validation\\_error: test\\_contacts\\[1\\].phone: "+1503555019" is not E.164 ' +
        "&lt;expected +1 &amp; 10 digits&gt;; merge value 'first\\_name' = \\`\\*Dana\\*\\` \\| @&#8203;field-team #&#8203;12\n",
    );
  });

  it("has one table row per action, in plan order, with escaped details", () => {
    const rows = renderApplyMarkdown(fullApplyResult())
      .split("\n")
      .filter((l) => /^\| `[-+=x!~.]`/.test(l));
    expect(rows.map((r) => r.split(" | ").slice(0, 3).join(" | "))).toEqual([
      "| `+` done | `gotv-reminder` | test",
      "| `~` deferred | `gotv-reminder` | schedule",
      "| `+` done | `weekend-canvass` | schedule",
      "| `=` replayed | `early-vote-push` | pause",
      "| `x` **failed** | `volunteer-recruitment` | test",
      "| `-` skipped | `volunteer-recruitment` | schedule",
      "| `!` blocked | `rally-invite` | schedule",
      "| `.` not started | `flyer-blast` | test",
    ]);
    expect(rows[0]).toContain(
      "project now awaiting\\_test; test message: 7e000000-0000-4000-8000-000000000001 to +1503\\*\\*\\*\\*188;",
    );
  });

  it("has no failures section and no note for a clean run", () => {
    const md = renderApplyMarkdown(completeApplyResult());
    expect(md).not.toContain("### Failed actions");
    expect(md).not.toContain("[!NOTE]");
    expect(md).not.toContain("[!WARNING]");
    expect(md).toContain("**Apply complete: 2 done, 1 replayed, 0 failed, 1 deferred.");
  });

  it("stays under GitHub's limit for 3,000 actions, leaving out whole rows from the end with a note", () => {
    const result = hugeApplyResult(3000);
    const full = renderApplyMarkdown(result, { maxChars: Number.POSITIVE_INFINITY });
    expect(full.length).toBeGreaterThan(GITHUB_COMMENT_MAX_CHARS);
    const md = renderApplyMarkdown(result);
    expect(md.length).toBeLessThanOrEqual(GITHUB_COMMENT_MAX_CHARS);
    expect(md.startsWith("## campaignctl apply\n")).toBe(true);
    expect(md).toMatch(
      /> \[!NOTE\]\n> [\d,]+ of 3,000 table rows \(from the end\) were left out to stay under GitHub's 65,536-character comment limit\. The full report is in the JSON apply report/,
    );
    // Every failure is kept (60 of them), then a prefix of the rows, each whole and in order.
    expect(count(md, "  - **error:** HTTP 503 api.server-error")).toBe(60);
    const rows = md.split("\n").filter((l) => l.startsWith("| `"));
    const tableRows = rows.filter((r) => !r.startsWith("| `GET ") && !r.startsWith("| `POST "));
    expect(tableRows.length).toBeGreaterThan(10);
    expect(tableRows.length).toBeLessThan(3000);
    tableRows.forEach((row, i) => {
      expect(row).toContain(`| \`rally-invite-${i}\` |`);
      expect(row.endsWith(" |")).toBe(true);
    });
    expect(md).toContain("**API requests:** 12 (1 retry, 1 rate-limited, 1.5s waiting for the rate limit)");
    expect(md.endsWith("| `POST /projects/{id}/pause` | 1 |\n")).toBe(true);
  });

  it("leaves out failure items too when even they do not fit, and says so", () => {
    const result = hugeApplyResult(3000);
    const md = renderApplyMarkdown(result, { maxChars: 8_000 });
    expect(md.length).toBeLessThanOrEqual(8_000);
    expect(md).toMatch(
      /> [\d,]+ of 60 failed-action items and 3,000 of 3,000 table rows \(from the end\) were left out to stay under the limit of 8,000 characters\./,
    );
    expect(md).not.toContain("### Actions");
    const kept = count(md, "  - **error:**");
    expect(kept).toBeGreaterThan(5);
    expect(kept).toBeLessThan(60);
    const full = renderApplyMarkdown(result, { maxChars: Number.POSITIVE_INFINITY });
    const lastItem = md.lastIndexOf("  - attempts: ");
    const cut = md.indexOf("\n", lastItem);
    const note = /> \[!NOTE\]\n.*\n\n/.exec(md)?.[0] ?? "";
    expect(note).not.toBe("");
    expect(full.startsWith(md.slice(0, cut).replace(note, ""))).toBe(true);
  });
});
