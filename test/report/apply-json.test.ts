import { describe, expect, it } from "vitest";
import type { ApplyResult } from "../../src/apply/types.js";
import { renderApplyJson } from "../../src/report/apply-json.js";
import { validateApplyResult } from "../../src/report/apply-schema.js";
import { fullApplyResult, refusedApplyResult } from "./apply-fixtures.js";
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

describe("renderApplyJson", () => {
  it("renders the apply report of a run with every status, valid against the schema (golden)", () => {
    const text = renderApplyJson(fullApplyResult());
    expect(validateApplyResult(JSON.parse(text))).toEqual({ ok: true, result: fullApplyResult() });
    expectGolden("apply.json", text);
  });

  it("renders a refused run, valid against the schema (golden)", () => {
    const text = renderApplyJson(refusedApplyResult());
    expect(validateApplyResult(JSON.parse(text)).ok).toBe(true);
    expectGolden("apply-refused.json", text);
  });

  it("gives the same bytes whatever order the executor built its objects in", () => {
    const shuffled = reverseKeys(fullApplyResult()) as ApplyResult;
    expect(Object.keys(shuffled)[0]).toBe("journal");
    expect(renderApplyJson(shuffled)).toBe(renderApplyJson(fullApplyResult()));
  });

  it("uses a 2-space indent, starts with format_version, sorts endpoints and ends with one newline", () => {
    const text = renderApplyJson(fullApplyResult());
    expect(text.startsWith('{\n  "format_version": 1,\n  "tool_version": "0.1.0",\n')).toBe(true);
    expect(text).toContain(
      '"by_endpoint": {\n      "GET /projects/{id}": 7,\n      "POST /projects/{id}/pause": 1,\n',
    );
    expect(text.endsWith("}\n")).toBe(true);
    expect(text.endsWith("}\n\n")).toBe(false);
  });
});
