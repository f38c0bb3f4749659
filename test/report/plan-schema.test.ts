import { describe, expect, it } from "vitest";
import { hasErrors } from "../../src/diagnostics/diagnostic.js";
import { PLAN_FORMAT_VERSION } from "../../src/plan/types.js";
import { renderPlanJson } from "../../src/report/plan-json.js";
import {
  MAX_SCHEMA_DIAGNOSTICS,
  type PlanDocumentResult,
  parsePlanDocument,
  validatePlanDocument,
} from "../../src/report/plan-schema.js";
import { planSchema } from "../../src/report/report-schema-ajv.js";
import { fullPlan, hugePlan } from "./fixtures.js";

/** The full plan as parsed JSON, for editing into broken documents. */
function doc(): Record<string, unknown> & { projects: Record<string, unknown>[] } {
  return JSON.parse(renderPlanJson(fullPlan()));
}

function action(d: ReturnType<typeof doc>, project: number, index: number): Record<string, unknown> {
  const actions = d.projects[project]?.actions as Record<string, unknown>[] | undefined;
  const a = actions?.[index];
  if (a === undefined) throw new Error("fixture changed");
  return a;
}

function codesOf(result: PlanDocumentResult): string[] {
  if (result.ok) return [];
  expect(hasErrors(result.diagnostics)).toBe(true);
  return result.diagnostics.map((d) => d.code);
}

describe("plan.schema.json", () => {
  it("is a 2020-12 schema without $id, pinned to the format version", () => {
    const schema = planSchema();
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.$id).toBeUndefined();
    expect((schema.properties as Record<string, { const?: unknown }>).format_version?.const).toBe(
      PLAN_FORMAT_VERSION,
    );
  });

  it("accepts the plan with every kind of entry, rendered and parsed back", () => {
    const result = parsePlanDocument(renderPlanJson(fullPlan()), { file: "plan.json" });
    expect(result).toEqual({ ok: true, plan: fullPlan() });
  });

  it("accepts a huge plan", () => {
    expect(validatePlanDocument(JSON.parse(renderPlanJson(hugePlan(2000)))).ok).toBe(true);
  });
});

describe("validatePlanDocument", () => {
  it("refuses another format version with one diagnostic", () => {
    const result = validatePlanDocument(
      { ...doc(), format_version: 2, surprise: true },
      { file: "plan.json" },
    );
    expect(result).toEqual({
      ok: false,
      diagnostics: [
        {
          severity: "error",
          code: "report.plan-version",
          message: "plan.json has format_version 2; this campaignctl reads plan format version 3",
          hint: "make the plan again with this version of campaignctl (`campaignctl plan --out FILE`)",
        },
      ],
    });
  });

  it("refuses something that is not a plan at all", () => {
    expect(codesOf(validatePlanDocument([1, 2]))).toEqual(["report.plan-version"]);
    expect(codesOf(validatePlanDocument(null))).toEqual(["report.plan-version"]);
  });

  it("refuses text that is not JSON", () => {
    const result = parsePlanDocument("{ nope", { file: "plan.json" });
    expect(codesOf(result)).toEqual(["report.plan-not-json"]);
    expect(result.ok ? "" : result.diagnostics[0]?.message).toMatch(/^plan\.json is not valid JSON: /);
  });

  it("refuses unknown keys and says where", () => {
    const d = doc();
    action(d, 0, 0).colour = "red";
    const result = validatePlanDocument(d, { file: "plan.json" });
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.diagnostics.map((x) => x.message)).toEqual([
      "plan.json is not a valid plan document: /projects/0/actions/0 has unknown key colour",
    ]);
  });

  it("refuses a blocked action without its block, and a deferred one with a key", () => {
    const d = doc();
    delete action(d, 4, 0).block;
    (action(d, 0, 1).request as Record<string, unknown>).idempotency_key =
      "cc1-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    const result = validatePlanDocument(d);
    expect(codesOf(result)).toContain("report.plan-invalid");
    const messages = result.ok ? "" : result.diagnostics.map((x) => x.message).join("\n");
    expect(messages).toContain("/projects/4/actions/0 lacks block");
    expect(messages).toContain("/projects/0/actions/1/request/idempotency_key must be null");
  });

  it("refuses a planned action without a key, and actions on a project that could not be read", () => {
    const d = doc();
    (action(d, 0, 0).request as Record<string, unknown>).idempotency_key = null;
    const unread = d.projects[6];
    if (unread === undefined) throw new Error("fixture changed");
    unread.actions = [action(d, 3, 0)];
    const messages = ((r) => (r.ok ? "" : r.diagnostics.map((x) => x.message).join("\n")))(
      validatePlanDocument(d),
    );
    expect(messages).toContain("/projects/0/actions/0/request/idempotency_key must be string");
    expect(messages).toContain("/projects/6/actions must NOT have more than 0 items");
  });

  it("refuses wrong enum values and malformed hashes", () => {
    const d = doc();
    action(d, 0, 0).status = "done";
    (d.files as Record<string, unknown>[])[0] = { path: "a.yaml", sha256: "abc" };
    const messages = ((r) => (r.ok ? "" : r.diagnostics.map((x) => x.message).join("\n")))(
      validatePlanDocument(d),
    );
    expect(messages).toContain(
      '/projects/0/actions/0/status must be one of "planned", "blocked", "deferred"',
    );
    expect(messages).toContain("/files/0/sha256 must match pattern");
  });

  it("requires the audience, schedule, sends and totals, and an audience only for a project that was read", () => {
    const d = doc();
    const first = d.projects[0];
    const unread = d.projects[6];
    if (first === undefined || unread === undefined) throw new Error("fixture changed");
    delete first.sends;
    unread.audience = d.projects[1]?.audience;
    (first.schedule as Record<string, unknown>).utc = "2026-11-03T09:00:00-06:00";
    (d.totals as { overall: Record<string, unknown> }).overall.recipients = -1;
    const messages = ((r) => (r.ok ? "" : r.diagnostics.map((x) => x.message).join("\n")))(
      validatePlanDocument(d),
    );
    expect(messages).toContain("/projects/0 lacks sends");
    expect(messages).toContain("/projects/6/audience must be null");
    expect(messages).toContain('/projects/0/schedule/utc must match pattern "Z$"');
    expect(messages).toContain("/totals/overall/recipients must be >= 0");
    const noTotals = doc();
    delete noTotals.totals;
    expect(codesOf(validatePlanDocument(noTotals))).toEqual(["report.plan-invalid"]);
  });

  it("caps the number of schema diagnostics and ends with a hint", () => {
    const d = JSON.parse(renderPlanJson(hugePlan(50)));
    for (const p of d.projects) p.surprise = 1;
    const result = validatePlanDocument(d);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.diagnostics).toHaveLength(MAX_SCHEMA_DIAGNOSTICS + 1);
    expect(result.diagnostics.at(-1)?.message).toBe("the plan has 30 more schema violations");
    expect(result.diagnostics.at(-1)?.hint).toMatch(/make the plan again/);
  });

  it("refuses duplicate action ids, ids that do not match, and dangling dependencies", () => {
    const d = doc();
    action(d, 0, 1).depends_on = ["nowhere.test"];
    action(d, 1, 0).id = "gotv-reminder.test";
    const result = validatePlanDocument(d, { file: "plan.json" });
    expect(result.ok ? [] : result.diagnostics.map((x) => `${x.code}: ${x.message}`)).toEqual([
      "report.plan-inconsistent: plan.json: action gotv-reminder.test appears twice",
      "report.plan-inconsistent: plan.json: action gotv-reminder.test does not match its project volunteer-recruitment and kind test",
      "report.plan-inconsistent: plan.json: action gotv-reminder.schedule depends on nowhere.test, which is not in the plan",
    ]);
  });
});
