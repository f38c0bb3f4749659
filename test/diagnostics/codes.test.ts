/**
 * Every diagnostic code of the closed union matches the one pattern that every schema shares
 * (`schemas/diagnostic.schema.json#/$defs/code`), so no document can carry a code its schema refuses,
 * and each code belongs to the area whose file lists it.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { API_CODES } from "../../src/diagnostics/codes/api.js";
import { APPLY_CODES } from "../../src/diagnostics/codes/apply.js";
import { APPROVE_CODES } from "../../src/diagnostics/codes/approve.js";
import { CAMPAIGN_CODES } from "../../src/diagnostics/codes/campaign.js";
import { CLI_CODES } from "../../src/diagnostics/codes/cli.js";
import { FORECAST_CODES } from "../../src/diagnostics/codes/forecast.js";
import { IMPORT_CODES } from "../../src/diagnostics/codes/import.js";
import { LINT_CODES } from "../../src/diagnostics/codes/lint.js";
import { LSP_CODES } from "../../src/diagnostics/codes/lsp.js";
import { MESSAGE_CODES } from "../../src/diagnostics/codes/message.js";
import { PLAN_CODES } from "../../src/diagnostics/codes/plan.js";
import { POLICY_CODES } from "../../src/diagnostics/codes/policy.js";
import { REPLIES_CODES } from "../../src/diagnostics/codes/replies.js";
import { REPORT_CODES } from "../../src/diagnostics/codes/report.js";
import { STATUS_CODES } from "../../src/diagnostics/codes/status.js";
import { WATCH_CODES } from "../../src/diagnostics/codes/watch.js";
import { WEBHOOKS_CODES } from "../../src/diagnostics/codes/webhooks.js";
import { diagnosticJson } from "../../src/diagnostics/json.js";
import { schemaErrors } from "../helpers/schemas.js";

const AREAS: readonly (readonly [string, Record<string, string>])[] = [
  ["api", API_CODES],
  ["apply", APPLY_CODES],
  ["approve", APPROVE_CODES],
  ["campaign", CAMPAIGN_CODES],
  ["cli", CLI_CODES],
  ["forecast", FORECAST_CODES],
  ["import", IMPORT_CODES],
  ["lint", LINT_CODES],
  ["lsp", LSP_CODES],
  ["message", MESSAGE_CODES],
  ["plan", PLAN_CODES],
  ["policy", POLICY_CODES],
  ["report", REPORT_CODES],
  ["status", STATUS_CODES],
  ["watch", WATCH_CODES],
  ["webhooks", WEBHOOKS_CODES],
  ["replies", REPLIES_CODES],
];

const shared = JSON.parse(
  readFileSync(new URL("../../schemas/diagnostic.schema.json", import.meta.url), "utf8"),
);
const PATTERN = new RegExp(shared.$defs.code.pattern as string, "u");

const everyCode = AREAS.flatMap(([area, codes]) => Object.keys(codes).map((code) => [area, code] as const));

describe("diagnostic codes", () => {
  it("the union is not empty", () => {
    expect(everyCode.length).toBeGreaterThan(100);
  });

  it.each(everyCode)("%s: %s matches the shared pattern and its area", (area, code) => {
    expect(code).toMatch(PATTERN);
    expect(code.split(".")[0]).toBe(area);
  });

  it("each code is listed once", () => {
    const codes = everyCode.map(([, code]) => code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it("the pattern refuses what the policy codes used to be", () => {
    expect("policy.daily_cap_bypass").not.toMatch(PATTERN);
    expect("Policy.x").not.toMatch(PATTERN);
    expect("policy").not.toMatch(PATTERN);
  });

  it("a diagnostic of every code, with and without range and hint, is valid in every document shape", () => {
    const range = {
      file: "c.yaml",
      start: { line: 1, column: 1, offset: 0 },
      end: { line: 1, column: 5, offset: 4 },
    };
    for (const [, code] of everyCode) {
      const bare = diagnosticJson({ severity: "error", code: code as never, message: "m" });
      const full = diagnosticJson({
        severity: "warning",
        code: code as never,
        message: "m",
        range,
        hint: "h",
        related: [{ message: "r", range }],
      });
      const document = { format_version: 1, error: true, diagnostics: [bare, full] };
      expect(schemaErrors("error-result", document)).toEqual([]);
    }
  });
});
