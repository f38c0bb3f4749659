import { describe, expect, it } from "vitest";
import type { Plan } from "../../src/plan/types.js";
import { renderPlanJson, sortKeys } from "../../src/report/plan-json.js";
import { parsePlanDocument } from "../../src/report/plan-schema.js";
import { fullPlan } from "./fixtures.js";
import { expectGolden } from "./golden.js";

/** A deep copy with every object's keys in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reverseKeys(v)]),
    );
  }
  return value;
}

describe("renderPlanJson", () => {
  it("renders the plan document (golden)", () => {
    expectGolden("plan.json", renderPlanJson(fullPlan()));
  });

  it("is the plan's data: reading it back gives the plan", () => {
    const read = parsePlanDocument(renderPlanJson(fullPlan()));
    expect(read.ok && read.plan).toEqual(fullPlan());
  });

  it("writes every diagnostic in the one JSON shape: range and hint null when absent, related a list", () => {
    const document = JSON.parse(renderPlanJson(fullPlan()));
    const all = [
      ...document.diagnostics,
      ...document.projects.flatMap((p: { diagnostics: unknown[] }) => p.diagnostics),
    ];
    expect(all.length).toBeGreaterThan(0);
    for (const d of all)
      expect(Object.keys(d)).toEqual(["severity", "code", "message", "range", "hint", "related"]);
    expect(all.some((d) => d.range === null)).toBe(true);
  });

  it("gives the same bytes whatever order the planner built its objects in", () => {
    const shuffled = reverseKeys(fullPlan()) as Plan;
    expect(Object.keys(shuffled)[0]).toBe("totals");
    expect(renderPlanJson(shuffled)).toBe(renderPlanJson(fullPlan()));
  });

  it("uses a 2-space indent, starts with format_version and ends with one newline", () => {
    const text = renderPlanJson(fullPlan());
    expect(text.startsWith('{\n  "format_version": 3,\n  "tool_version": "0.1.0",\n')).toBe(true);
    expect(text.endsWith("}\n")).toBe(true);
    expect(text.endsWith("}\n\n")).toBe(false);
  });

  it("sorts free-form keys by code unit and keeps __proto__ an ordinary key", () => {
    const sorted = sortKeys(JSON.parse('{"b":1,"__proto__":{"z":1,"a":2},"a":[{"y":1,"x":2}]}'));
    expect(JSON.stringify(sorted)).toBe('{"__proto__":{"a":2,"z":1},"a":[{"x":2,"y":1}],"b":1}');
  });
});
