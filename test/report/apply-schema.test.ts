import { describe, expect, it } from "vitest";
import { APPLY_FORMAT_VERSION } from "../../src/apply/types.js";
import { renderApplyJson } from "../../src/report/apply-json.js";
import {
  type ApplyResultCheck,
  applyResultSchema,
  validateApplyResult,
} from "../../src/report/apply-schema.js";
import { MAX_SCHEMA_DIAGNOSTICS } from "../../src/report/plan-schema.js";
import {
  completeApplyResult,
  fullApplyResult,
  hugeApplyResult,
  refusedApplyResult,
} from "./apply-fixtures.js";

type Doc = Record<string, unknown> & { actions: Record<string, unknown>[]; refused: unknown[] };

function doc(result = fullApplyResult()): Doc {
  return JSON.parse(renderApplyJson(result));
}

function action(d: Doc, index: number): Record<string, unknown> {
  const a = d.actions[index];
  if (a === undefined) throw new Error("fixture changed");
  return a;
}

function messages(check: ApplyResultCheck): string[] {
  return check.ok ? [] : check.diagnostics.map((x) => `${x.code}: ${x.message}`);
}

describe("apply-result.schema.json", () => {
  it("is a 2020-12 schema without $id, pinned to the format version, closed at the top", () => {
    const schema = applyResultSchema();
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.$id).toBeUndefined();
    expect(schema.additionalProperties).toBe(false);
    expect((schema.properties as Record<string, { const?: unknown }>).format_version?.const).toBe(
      APPLY_FORMAT_VERSION,
    );
  });

  it("accepts every fixture", () => {
    for (const r of [fullApplyResult(), completeApplyResult(), refusedApplyResult(), hugeApplyResult(400)]) {
      expect(messages(validateApplyResult(JSON.parse(renderApplyJson(r))))).toEqual([]);
    }
  });

  it("requires an error iff the action failed", () => {
    const d = doc();
    action(d, 4).error = null;
    action(d, 0).error = { status: 500, code: "internal", message: "x" };
    const found = messages(validateApplyResult(d, { file: "apply.json" }));
    expect(found).toContain(
      "report.apply-invalid: apply.json is not a valid apply report: /actions/4/error must be object",
    );
    expect(found).toContain(
      "report.apply-invalid: apply.json is not a valid apply report: /actions/0/error must be null",
    );
  });

  it("refuses attempts, keys, test messages or schedules on actions that were not attempted", () => {
    const d = doc();
    const skipped = action(d, 5);
    skipped.attempts = 1;
    skipped.idempotency_key = "cc1-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    skipped.test_messages = [{ test_message_id: "t", sent_to: "+1503****188" }];
    const found = messages(validateApplyResult(d)).join("\n");
    expect(found).toContain("/actions/5/attempts must be equal to constant");
    expect(found).toContain("/actions/5/idempotency_key must be null");
    expect(found).toContain("/actions/5/test_messages must NOT have more than 0 items");
  });

  it("refuses a done action without a key, and test messages on a pause", () => {
    const d = doc();
    action(d, 0).idempotency_key = null;
    action(d, 3).test_messages = [{ test_message_id: "t", sent_to: "+1503****188" }];
    const found = messages(validateApplyResult(d)).join("\n");
    expect(found).toContain("/actions/0/idempotency_key must be string");
    expect(found).toContain("/actions/3/test_messages must NOT have more than 0 items");
  });

  it("refuses not-started actions in a run that was neither interrupted nor refused", () => {
    const d = doc();
    d.interrupted = false;
    expect(messages(validateApplyResult(d)).join("\n")).toContain("/actions/7/status must NOT be valid");
  });

  it("refuses a refused run in which an action was done", () => {
    const d = doc(refusedApplyResult());
    d.actions[0] = action(doc(), 0);
    const found = messages(validateApplyResult(d)).join("\n");
    expect(found).toContain(
      '/actions/0/status must be one of "skipped", "blocked", "deferred", "not-started"',
    );
  });

  it("refuses unknown keys, another format version and malformed values, at most 20 listed", () => {
    const d = doc();
    d.colour = "red";
    d.format_version = 2;
    action(d, 0).status = "sent";
    const found = messages(validateApplyResult(d));
    expect(found).toContain(
      "report.apply-invalid: the apply report is not a valid apply report: the document has unknown key colour",
    );
    expect(found.join("\n")).toContain("/format_version must be equal to constant");
    expect(found.join("\n")).toContain('/actions/0/status must be one of "done", "replayed"');
    const many = doc(hugeApplyResult(60));
    for (const a of many.actions) a.surprise = 1;
    const capped = validateApplyResult(many);
    expect(capped.ok ? [] : capped.diagnostics).toHaveLength(MAX_SCHEMA_DIAGNOSTICS + 1);
    expect(capped.ok ? "" : capped.diagnostics.at(-1)?.hint).toMatch(/apply --json/);
  });

  it("refuses a summary that does not count the actions, and inconsistent ids", () => {
    const d = doc();
    (d.summary as Record<string, number>).done = 3;
    action(d, 1).id = "gotv-reminder.test";
    expect(messages(validateApplyResult(d, { file: "apply.json" }))).toEqual([
      "report.apply-inconsistent: apply.json: action gotv-reminder.test appears twice",
      "report.apply-inconsistent: apply.json: action gotv-reminder.test does not match its address gotv-reminder and kind schedule",
      "report.apply-inconsistent: apply.json: summary.done is 3, but 2 actions have that status",
    ]);
  });
});
