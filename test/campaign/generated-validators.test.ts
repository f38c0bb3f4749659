/**
 * The schema validators in src/{campaign,policy,results,sandbox,report}/generated are ajv standalone code written by
 * scripts/gen-validators.mjs at build time; this fails when a schema (or ajv) changed since the last build,
 * and checks that the generated code judges like ajv compiling the schema at run time. What the
 * generator renders is kept across passes under a hash of its inputs (./rendered-validators.ts).
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
// @ts-expect-error: a plain ES module script without type declarations
import * as generator from "../../scripts/gen-validators.mjs";
import { campaignSchema, validateCampaignData } from "../../src/campaign/schema.js";
import { validatePolicyData } from "../../src/policy/schema.js";
import { applyResultSchema } from "../../src/report/apply-schema.js";
import { validateApplyResultSchema } from "../../src/report/generated/validate-apply-result.js";
import { validatePlanSchema } from "../../src/report/generated/validate-plan.js";
import {
  compileReportSchema,
  planSchema,
  REPORT_SCHEMA_FORMATS,
  REPORT_SCHEMA_OPTIONS,
  SHARED_SCHEMA_URLS,
} from "../../src/report/report-schema-ajv.js";
import { validateFixtureSchema } from "../../src/sandbox/generated/validate-fixture.js";
import { renderedOnce } from "./rendered-validators.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
interface Spec {
  readonly schema: string;
  readonly out: string;
  readonly options: Record<string, unknown>;
  readonly formats: string[];
}
interface SchemaModule {
  readonly schema: string;
  readonly out: string;
}
const { renderSchemaModule, renderValidator, SCHEMA_MODULES, VALIDATORS } = generator as {
  renderSchemaModule: (spec: SchemaModule) => string;
  renderValidator: (spec: Spec) => string;
  SCHEMA_MODULES: SchemaModule[];
  VALIDATORS: Spec[];
};
const specs = VALIDATORS;
const render = renderValidator;
const schemaModules = SCHEMA_MODULES;
const renderSchema = renderSchemaModule;

/**
 * The schema of `spec` compiled by ajv at run time, once per spec (a fresh ajv compiles the 2020-12
 * meta-schema and the schema, most of this file's time when each case did it): ajv keeps no state
 * between calls but `errors`, which {@link errorsOf} copies at once.
 */
const runTimeCompiled = new Map<Spec, ValidateFunction>();
function compiledAtRunTime(spec: Spec): ValidateFunction {
  let validate = runTimeCompiled.get(spec);
  if (validate === undefined) {
    const ajv = new Ajv2020(spec.options);
    if (spec.formats.length > 0) formats.default(ajv, spec.formats as ["date-time"]);
    validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, spec.schema), "utf8")));
    runTimeCompiled.set(spec, validate);
  }
  return validate;
}

function errorsOf(spec: Spec, data: unknown): ErrorObject[] {
  const validate = compiledAtRunTime(spec);
  return validate(data) ? [] : [...(validate.errors ?? [])];
}

describe("generated schema validators", () => {
  test.each(specs.map((s) => [s.out, s] as const))("%s is up to date", (out, spec) => {
    const current = readFileSync(join(ROOT, out), "utf8");
    // What the generator renders from these inputs (kept across passes under their hash:
    // ./rendered-validators.ts), never read from the generated file.
    const now = renderedOnce(ROOT, spec, render);
    expect(current === now, `${out} is out of date: run npm run build`).toBe(true);
  });

  test.each(schemaModules.map((s) => [s.out, s] as const))("%s is up to date", (out, spec) => {
    const current = readFileSync(join(ROOT, out), "utf8");
    expect(current === renderSchema(spec), `${out} is out of date: run npm run build`).toBe(true);
  });

  test("the campaign schema read as data is schemas/campaign.schema.json", () => {
    const file = JSON.parse(readFileSync(join(ROOT, "schemas/campaign.schema.json"), "utf8"));
    expect(campaignSchema()).toEqual(file);
    // A copy of its own: a caller that changes it changes nobody else's.
    expect(campaignSchema()).not.toBe(campaignSchema());
  });

  const campaign = specs.find((s) => s.out.includes("campaign")) as Spec;
  const policy = specs.find((s) => s.out.includes("policy")) as Spec;
  const campaignCases: [string, unknown][] = [
    ["valid", { version: 1, projects: { a: { name: "A", state: "draft" } } }],
    ["wrong version and unknown key", { version: 2, projekts: {} }],
    [
      "bad date-time and channel",
      { version: 1, projects: { a: { schedule: { at: "tomorrow" }, channel: "fax" } } },
    ],
    ["not an object", ["version", 1]],
  ];
  test.each(campaignCases)("campaign: %s gives the errors ajv gives at run time", (_, data) => {
    expect(validateCampaignData(data)).toEqual(errorsOf(campaign, data));
  });
  // Errors are reported, not just detected: the run-time compile must see some for the bad cases.
  test("campaign: the bad cases have errors", () => {
    expect(errorsOf(campaign, campaignCases[1]?.[1]).map((e) => e.keyword)).toEqual(
      expect.arrayContaining(["const", "additionalProperties"]),
    );
    expect(validateCampaignData(campaignCases[2]?.[1]).map((e) => e.keyword)).toContain("format");
  });

  const policyCases: [string, unknown][] = [
    ["valid", { version: 1, rules: {} }],
    ["unknown rule", { version: 1, rules: { no_such_rule: true } }],
    ["wrong type", { version: "one" }],
  ];
  test.each(policyCases)("policy: %s gives the errors ajv gives at run time", (_, data) => {
    expect(validatePolicyData(data)).toEqual(errorsOf(policy, data));
  });
  test("policy: the bad cases have errors", () => {
    expect(validatePolicyData(policyCases[1]?.[1]).map((e) => e.keyword)).toEqual(["additionalProperties"]);
    expect(validatePolicyData(policyCases[2]?.[1]).map((e) => e.keyword)).toEqual(["required", "const"]);
  });
});

describe("the generated fixture validator", () => {
  const fixture = VALIDATORS.find((s) => s.out.includes("fixture")) as Spec;
  const cases: [string, unknown][] = [
    ["the example world", parse(readFileSync(join(ROOT, "examples/sandbox.yaml"), "utf8"))],
    [
      "unknown keys and a bad date-time",
      { version: 1, organizations: [], nonsense: true, clock: { start: "noon" } },
    ],
    ["not an object", ["version", 1]],
  ];
  test.each(cases)("fixture: %s gives the errors ajv gives at run time", (_, data) => {
    const generated = validateFixtureSchema(data) ? [] : [...(validateFixtureSchema.errors ?? [])];
    expect(generated).toEqual(errorsOf(fixture, data));
  });
  test("fixture: the example is valid, the bad cases have errors", () => {
    expect(validateFixtureSchema(cases[0]?.[1])).toBe(true);
    expect(errorsOf(fixture, cases[1]?.[1]).length).toBeGreaterThan(0);
  });
});

/** A golden report read from test/golden. */
const goldenReport = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(ROOT, "test/golden", file), "utf8")) as Record<string, unknown>;
const plan = goldenReport("plan.json");
const applied = goldenReport("apply.json");

/** The report validators generated at build time, each with the cases it must judge as ajv does at run time. */
const REPORT_VALIDATORS = [
  {
    what: "saved-plan",
    out: "validate-plan",
    validate: validatePlanSchema,
    schema: planSchema,
    golden: plan,
    cases: [
      ["a plan the CLI printed (test/golden/plan.json)", plan],
      ["an action of no known kind", { ...plan, actions: [{ id: "x.y", kind: "teleport" }] }],
      ["a bad date-time and an unknown key", { ...plan, created_at: "noon", extra: 1 }],
      ["not an object", ["format_version", 2]],
    ] as [string, unknown][],
  },
  {
    what: "apply-report",
    out: "validate-apply-result",
    validate: validateApplyResultSchema,
    schema: applyResultSchema,
    golden: applied,
    cases: [
      ["a report the CLI printed (test/golden/apply.json)", applied],
      ["an action of no known status", { ...applied, actions: [{ id: "x.test", status: "teleported" }] }],
      ["a bad date-time and an unknown key", { ...applied, started_at: "noon", extra: 1 }],
      ["not an object", ["ok", true]],
    ] as [string, unknown][],
  },
];

describe.each(REPORT_VALIDATORS)(
  "the generated $what validator",
  ({ out, validate, schema, golden, cases }) => {
    const spec = VALIDATORS.find((s) => s.out.includes(out)) as Spec & { shared: string[] };
    const runTime = compileReportSchema(schema());
    test.each(cases)("%s gives the errors ajv gives at run time", (_, data) => {
      const generated = validate(data) ? [] : [...(validate.errors ?? [])];
      const expected = runTime(data) ? [] : [...(runTime.errors ?? [])];
      expect(generated).toEqual(expected);
    });
    test("the printed document is valid, the bad cases have errors", () => {
      expect(validate(golden)).toBe(true);
      for (const [, data] of cases.slice(1)) expect(validate(data)).toBe(false);
    });
    test("built with the report schemas' options, formats and shared schemas", () => {
      expect(spec.options).toEqual(REPORT_SCHEMA_OPTIONS);
      expect(spec.formats).toEqual([...REPORT_SCHEMA_FORMATS]);
      expect(spec.shared.map((f) => f.slice(f.lastIndexOf("/") + 1))).toEqual(
        SHARED_SCHEMA_URLS.map((u) => u.pathname.slice(u.pathname.lastIndexOf("/") + 1)),
      );
    });
  },
);
