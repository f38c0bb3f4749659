import { describe, expect, it } from "vitest";
import { NO_ITEMS } from "../../src/plan/summary.js";
import { totalSends } from "../../src/plan/totals.js";
import type { Plan } from "../../src/plan/types.js";
import { renderPlanHuman } from "../../src/report/plan-human.js";
import { fullPlan, SOURCES } from "./fixtures.js";
import { expectGolden } from "./golden.js";

const ESC = "\u001b[";

describe("renderPlanHuman", () => {
  it("renders every kind of entry without colour (golden)", () => {
    const text = renderPlanHuman(fullPlan(), { color: false, width: 100, sources: SOURCES });
    expect(text).not.toContain(ESC);
    expectGolden("plan-human.txt", text);
  });

  it("renders with colour, wrapped at 80 columns, without source excerpts (golden)", () => {
    const text = renderPlanHuman(fullPlan(), { color: true, width: 80 });
    expect(text).toContain(ESC);
    expect(text).not.toContain("[-11am-]");
    expectGolden("plan-human-color.txt", text);
  });

  it("shows message drift as a word diff with [-removed-] and {+added+} markers", () => {
    const text = renderPlanHuman(fullPlan(), { color: false });
    expect(text).toContain("at the rally Saturday at [-11am-]{+noon+} in Oak Park");
  });

  it("gives a project with nothing to do one line", () => {
    const lines = renderPlanHuman(fullPlan(), { color: false }).split("\n");
    const quiet = lines.filter((l) => l.includes("primary-thanks"));
    expect(quiet).toEqual([
      "= primary-thanks (Primary thank-you) - project 9a000000-0000-4000-8000-000000000009: completed -> desired scheduled: nothing to do",
    ]);
  });

  it("wraps prose at the width but never user text or diagnostics", () => {
    const text = renderPlanHuman(fullPlan(), { color: false, width: 60 });
    const prose = text.split("\n").filter((l) => /^\s+(why|fix|blocked|waits for|note): /.test(l));
    expect(prose.length).toBeGreaterThan(5);
    for (const line of prose) expect(line.length).toBeLessThanOrEqual(60);
  });

  it("ends with the summary line and request counts, and ends in a newline", () => {
    const text = renderPlanHuman(fullPlan(), { color: false });
    expect(text).toContain(
      "Plan: 4 to do (2 test, 1 schedule, 1 pause), 1 deferred, 2 blocked, 1 drifted; 4 errors, 1 warning. 16 API requests.\n" +
        "API requests by endpoint (a naive refresh would have made 31):\n  10  GET /projects/{id}\n",
    );
    expect(text.endsWith("GET /phone-numbers\n")).toBe(true);
  });

  it("names each project's lists with their ids, when it sends, and what the sends add up to", () => {
    const text = renderPlanHuman(fullPlan(), { color: false });
    expect(text).toContain(
      "  contact lists:     Ward 3 Likely Voters (e1000000-0000-4000-8000-000000000001)\n",
    );
    expect(text).toContain("  suppression lists: Do Not Text (e1000000-0000-4000-8000-000000000003)\n");
    expect(text).toContain("e1000000-0000-4000-8000-0000000000ee (name not visible to the key)");
    expect(text).toContain(
      "  sends:             2026-10-31 18:00 America/Los_Angeles (2026-11-01 01:00 UTC)\n",
    );
    expect(text).toContain(
      "  sends:             no: paused; the live schedule was 2026-11-25 10:00 America/Chicago (16:00 UTC)\n",
    );
    expect(text).toMatch(
      /\nTotals of the sends to lists: 4 projects \(1 not estimated: could not be read\), 13,185 recipients,\s+27,130 SMS segments, about \$813\.90\.\n/,
    );
    expect(text).toContain(
      "\n  Riverside Young Democrats: 1 project, 800 recipients, 2,400 SMS segments, about $72.00.\n",
    );
    expect(text.indexOf("Totals of the sends")).toBeLessThan(text.indexOf("Plan: "));
  });

  it("renders an empty plan", () => {
    const empty: Plan = {
      ...fullPlan(),
      files: [],
      excludes: [],
      projects: [],
      diagnostics: [],
      requests: { total: 0, by_endpoint: {}, naive: 0 },
      summary: {
        ...NO_ITEMS,
        projects: 0,
        planned: 0,
        deferred: 0,
        blocked: 0,
        drifted: 0,
        errors: 0,
        warnings: 0,
      },
      totals: totalSends([]),
    };
    expectGolden("plan-human-empty.txt", renderPlanHuman(empty, { color: false }));
  });

  it("shows an unrecognised request body as JSON instead of failing", () => {
    const plan = fullPlan();
    const project = plan.projects[3];
    const action = project?.actions[0];
    if (project === undefined || action === undefined) throw new Error("fixture changed");
    const odd: Plan = {
      ...plan,
      projects: [{ ...project, actions: [{ ...action, request: { ...action.request, body: [1, 2] } }] }],
    };
    expect(renderPlanHuman(odd, { color: false })).toContain(
      "POST /projects/9a000000-0000-4000-8000-000000000004/pause  body [1,2]",
    );
  });
});
