import { describe, expect, it } from "vitest";
import { NO_ITEMS } from "../../src/plan/summary.js";
import { totalSends } from "../../src/plan/totals.js";
import type { Plan } from "../../src/plan/types.js";
import { GITHUB_COMMENT_MAX_CHARS, lineDiff, renderPlanMarkdown } from "../../src/report/plan-markdown.js";
import { fullPlan, hugePlan } from "./fixtures.js";
import { expectGolden } from "./golden.js";

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/** Every `<details>` is closed before the next opens, and the text outside ends cleanly. */
function expectWholeSections(md: string): void {
  const opens = count(md, "<details>");
  expect(count(md, "</details>")).toBe(opens);
  let depth = 0;
  for (const line of md.split("\n")) {
    if (line.startsWith("<details>")) depth += 1;
    if (line === "</details>") depth -= 1;
    expect(depth === 0 || depth === 1).toBe(true);
  }
  expect(depth).toBe(0);
}

describe("renderPlanMarkdown", () => {
  it("renders every kind of entry as a PR comment (golden)", () => {
    const md = renderPlanMarkdown(fullPlan());
    expectWholeSections(md);
    expectGolden("plan.md", md);
  });

  it("has one section per project with something to say, none for one-liners", () => {
    const md = renderPlanMarkdown(fullPlan());
    expect(count(md, "<details>")).toBe(8);
    expect(md).not.toContain("<summary><code>primary-thanks</code>");
    expect(md).toContain(
      "| `primary-thanks` Primary thank-you | completed | scheduled | nothing to do | none | Ward 3 Likely Voters | Do Not Text | no: completed | none |  |  |",
    );
  });

  it("names each project's lists, says when it sends in the recipients' zone and UTC, and totals the cost", () => {
    const md = renderPlanMarkdown(fullPlan());
    expect(md).toContain(
      "| Ward 3 Likely Voters | Do Not Text | 2026-10-31 18:00 America/Los\\_Angeles (2026-11-01 01:00 UTC) | failure &gt; 7.5% (from 100 sent) | 800 | $72.00 |",
    );
    expect(md).toContain(
      "**Contact lists:** Ward 3 Likely Voters (e1000000-0000-4000-8000-000000000001). **Suppression lists:** Do Not Text (e1000000-0000-4000-8000-000000000003).",
    );
    expect(md).toContain("e1000000-0000-4000-8000-0000000000ee (name not visible to the key)");
    expect(md).toContain(
      "**Totals of the sends to lists:** 4 projects (1 not estimated: could not be read), 13,185 recipients, 27,130 SMS segments, about $813.90.",
    );
    expect(md).toContain("| Riverside Young Democrats | 1 | 800 | 2,400 | 0 | $72.00 |");
    expect(md).toContain("| organization not known | 1 (1 not estimated) | ? | ? | ? | ? |");
    // The totals come before the table of projects: the first thing a reviewer reads.
    expect(md.indexOf("**Totals of the sends")).toBeLessThan(md.indexOf("| Project |"));
  });

  it("shows each project's guard: a table column (none without one) and a line in its section", () => {
    const md = renderPlanMarkdown(fullPlan());
    expect(md).toContain("| Sends | Guard | Recipients | Cost |");
    expect(md).toContain("| failure &gt; 5%, opt-out &gt; 2% (from 200 sent) | 12,345 | $740.70 |");
    expect(md).toContain(
      "**Guard:** campaignctl watch pauses the send when its failure rate is over 5% or its opt-out rate is over 2%, judged once 200 messages are sent.",
    );
    expect(count(md, "**Guard:**")).toBe(2);
  });

  it("shows the totals of one organization in one line, without a table", () => {
    const plan = fullPlan();
    const only = plan.totals.by_organization[0];
    if (only === undefined) throw new Error("fixture: no organization");
    const md = renderPlanMarkdown({ ...plan, totals: { ...plan.totals, by_organization: [only] } });
    expect(md).toContain("**Totals of the sends to lists:**");
    expect(md).not.toContain("| Organization |");
  });

  it("shows message drift as a diff fence with - live and + file lines", () => {
    expect(renderPlanMarkdown(fullPlan())).toContain(
      "```diff\n- Hi {{first_name}}, join us at the rally Saturday at 11am in Oak Park. Reply STOP to opt out\n" +
        "+ Hi {{first_name|friend}}, join us at the rally Saturday at noon in Oak Park!\n+ Bring a friend. Reply STOP to opt out\n```",
    );
  });

  it("escapes user text in table cells and in the raw HTML summary, and breaks mentions", () => {
    const md = renderPlanMarkdown(fullPlan());
    expect(md).toContain(
      "| `volunteer-recruitment` Volunteers \\| \\*MMS\\* &lt;flyer&gt; &amp; @&#8203;field-team #&#8203;12 | draft |",
    );
    expect(md).toContain(
      "<summary><code>volunteer-recruitment</code> Volunteers | *MMS* &lt;flyer&gt; &amp; @&#8203;field-team #&#8203;12: draft → tested, 1 to do</summary>",
    );
    expect(md).not.toContain("<flyer>");
  });

  it("fences a message containing backticks and </details> so that it cannot escape the block", () => {
    const plan = fullPlan();
    const rally = plan.projects[4];
    const drift = rally?.drift[0];
    if (rally === undefined || drift === undefined) throw new Error("fixture changed");
    const evil = "text ```` and\n</details>\n```";
    const md = renderPlanMarkdown({
      ...plan,
      projects: [{ ...rally, drift: [{ ...drift, before_text: evil, after_text: "plain" }] }],
    });
    expect(md).toContain("`````diff\n- text ```` and\n- </details>\n- ```\n+ plain\n`````");
  });

  it("stays under GitHub's limit for 2,000 projects, dropping whole sections from the end with a note", () => {
    const plan = hugePlan(2000);
    const full = renderPlanMarkdown(plan, { maxChars: Number.POSITIVE_INFINITY });
    expect(full.length).toBeGreaterThan(GITHUB_COMMENT_MAX_CHARS);
    const md = renderPlanMarkdown(plan);
    expect(md.length).toBeLessThanOrEqual(GITHUB_COMMENT_MAX_CHARS);
    expectWholeSections(md);
    expect(md).toMatch(
      /> \[!NOTE\]\n> [\d,]+ of 2,000 table rows and 2,000 of 2,000 project sections \(from the end\) were left out to stay under GitHub's 65,536-character comment limit\. /,
    );
    expect(md).toContain("The full plan is in the JSON plan document");
    expect(md.startsWith("## campaignctl plan\n")).toBe(true);
    expect(md).toContain("**API requests:** 16");
    // The rows kept are the first ones, in order, each whole.
    const rows = md.split("\n").filter((l) => l.startsWith("| `rally-invite-"));
    expect(rows.length).toBeGreaterThan(100);
    rows.forEach((row, i) => {
      expect(row.startsWith(`| \`rally-invite-${i}\` Rally invite | ready | scheduled |`)).toBe(true);
      expect(row.endsWith(" | 40 | $1.20 |")).toBe(true);
    });
  });

  it("keeps the whole table and a prefix of the sections when only sections overflow", () => {
    const plan = hugePlan(30);
    const full = renderPlanMarkdown(plan, { maxChars: Number.POSITIVE_INFINITY });
    const limit = Math.floor(full.length / 2);
    const md = renderPlanMarkdown(plan, { maxChars: limit });
    expect(md.length).toBeLessThanOrEqual(limit);
    expectWholeSections(md);
    expect(count(md, "| `rally-invite-")).toBe(30);
    const kept = count(md, "<details>");
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(30);
    for (let i = 0; i < kept; i++) expect(md).toContain(`<summary><code>rally-invite-${i}</code>`);
    expect(md).toContain(
      `> ${30 - kept} of 30 project sections (from the end) were left out to stay under the limit of ${limit.toLocaleString("en-US")} characters.`,
    );
    // Everything that was kept is exactly what the untruncated comment says, up to the cut.
    const lastSection = md.lastIndexOf("</details>") + "</details>".length;
    const note = /> \[!NOTE\]\n.*\n\n/.exec(md)?.[0] ?? "";
    expect(note).not.toBe("");
    expect(full.startsWith(md.slice(0, lastSection).replace(note, ""))).toBe(true);
  });

  it("adds no note when the comment fits", () => {
    expect(renderPlanMarkdown(fullPlan())).not.toContain("[!NOTE]");
  });

  it("renders a plan that could not reach the API", () => {
    const plan: Plan = {
      ...fullPlan(),
      projects: [],
      diagnostics: [
        { severity: "error", code: "api.network", message: "connect ECONNREFUSED 127.0.0.1:4010" },
      ],
      requests: { total: 1, by_endpoint: {}, naive: 1 },
      summary: {
        ...NO_ITEMS,
        projects: 0,
        planned: 0,
        deferred: 0,
        blocked: 0,
        drifted: 0,
        errors: 1,
        warnings: 0,
      },
      totals: totalSends([]),
    };
    expectGolden("plan-api-down.md", renderPlanMarkdown(plan));
  });
});

describe("lineDiff", () => {
  it("marks unchanged, removed and added lines", () => {
    expect(lineDiff("a\nb\nc", "a\nB\nc")).toBe("  a\n- b\n+ B\n  c");
  });
});
