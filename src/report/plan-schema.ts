/**
 * Reading a saved plan document back: `apply PLANFILE` refuses a malformed plan, a plan of another
 * format version, or one whose action ids are inconsistent, before it reads anything live. Checks the
 * document against `schemas/plan.schema.json` (compiled once per process) and the invariants the
 * schema cannot express. Pure: the schema's validator is generated at build time.
 */

import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { diagnosticFromJson } from "../diagnostics/json.js";
import type { PlanEmail } from "../plan/items.js";
import { PLAN_FORMAT_VERSION, type Plan } from "../plan/types.js";
import { validatePlanSchema } from "./generated/validate-plan.js";
import type { PlanJson } from "./plan-json.js";

/** At most this many schema violations are reported; the rest are summarised in one more diagnostic. */
export const MAX_SCHEMA_DIAGNOSTICS = 20;

/** The outcome of checking a plan document: the typed plan, or why it is refused (never empty). */
export type PlanDocumentResult =
  | { readonly ok: true; readonly plan: Plan }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Options of {@link validatePlanDocument}. */
export interface ValidatePlanOptions {
  /** The plan file's path as the user gave it, named in messages; defaults to "the plan". */
  readonly file?: string;
}

/**
 * The plan schema's validator: ajv standalone code generated at build time from
 * schemas/plan.schema.json with the report schemas' options (scripts/gen-validators.mjs,
 * `REPORT_SCHEMA_OPTIONS` of report-schema-ajv.ts); test/campaign/generated-validators.test.ts keeps it equal to a
 * run-time compile.
 */
function validator(): ValidateFunction {
  return validatePlanSchema;
}

/**
 * Is this file's text a plan document, whatever the file is called (`apply tfplan`)? True when it
 * parses as a JSON object carrying `format_version` (of any version, so that an old plan gets its
 * clear version diagnostic). Campaign files are YAML and say `version:`, never `format_version`.
 */
export function looksLikePlanDocument(text: string): boolean {
  if (!text.trimStart().startsWith("{")) return false;
  try {
    const json: unknown = JSON.parse(text);
    return isObject(json) && "format_version" in json;
  } catch {
    return false;
  }
}

/** Parses a saved plan file's text and checks it (see {@link validatePlanDocument}). */
export function parsePlanDocument(text: string, options: ValidatePlanOptions = {}): PlanDocumentResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    const detail = e instanceof Error ? `: ${e.message}` : "";
    return refuse({
      severity: "error",
      code: "report.plan-not-json",
      message: `${options.file ?? "the plan"} is not valid JSON${detail}`,
      hint: "write the plan with `campaignctl plan --out FILE` and pass that file unchanged",
    });
  }
  return validatePlanDocument(json, options);
}

/**
 * Checks parsed JSON as a plan document: the format version first (a plan of another version gets
 * one clear diagnostic, not a list of schema errors), then the schema, then the invariants the
 * schema cannot express (action ids unique and matching `<address>.<kind>`, `depends_on` naming
 * actions of the same plan).
 */
export function validatePlanDocument(json: unknown, options: ValidatePlanOptions = {}): PlanDocumentResult {
  const name = options.file ?? "the plan";
  const version = isObject(json) ? json.format_version : undefined;
  if (version !== PLAN_FORMAT_VERSION) {
    const found = version === undefined ? "no format_version" : `format_version ${JSON.stringify(version)}`;
    return refuse({
      severity: "error",
      code: "report.plan-version",
      message: `${name} has ${found}; this campaignctl reads plan format version ${PLAN_FORMAT_VERSION}`,
      hint: "make the plan again with this version of campaignctl (`campaignctl plan --out FILE`)",
    });
  }
  const validate = validator();
  if (!validate(json)) {
    return {
      ok: false,
      diagnostics: schemaDiagnostics(name, validate.errors ?? [], {
        code: "report.plan-invalid",
        document: "plan document",
        hint: "do not edit saved plans; make the plan again with `campaignctl plan`",
      }),
    };
  }
  const plan = planFromJson(json as unknown as PlanJson);
  const inconsistencies = checkInvariants(name, plan);
  return inconsistencies.length > 0 ? { ok: false, diagnostics: inconsistencies } : { ok: true, plan };
}

/** The plan a document that passed the schema describes: its diagnostics read back from JSON. */
function planFromJson(written: PlanJson): Plan {
  const { email, ...rest } = written;
  return {
    ...rest,
    projects: written.projects.map((p) => ({ ...p, diagnostics: p.diagnostics.map(diagnosticFromJson) })),
    ...(email === undefined ? {} : { email: emailFromJson(email) }),
    diagnostics: written.diagnostics.map(diagnosticFromJson),
  };
}

/** The email part of a plan (or of an apply report) a schema-valid document describes. */
export function emailFromJson(written: NonNullable<PlanJson["email"]>): PlanEmail {
  return {
    ...written,
    lists: written.lists.map((l) => ({
      ...l,
      readable: l.state !== "unreadable",
      diagnostics: l.diagnostics.map(diagnosticFromJson),
    })),
    campaigns: written.campaigns.map((c) => ({ ...c, diagnostics: c.diagnostics.map(diagnosticFromJson) })),
    diagnostics: written.diagnostics.map(diagnosticFromJson),
  };
}

function refuse(d: Diagnostic): PlanDocumentResult {
  return { ok: false, diagnostics: [d] };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** What {@link schemaDiagnostics} says: the code, the kind of document, the hint on the last one. */
export interface SchemaDiagnosticsWording {
  readonly code: "report.plan-invalid" | "report.apply-invalid";
  /** E.g. "plan document": messages read `NAME is not a valid plan document: ...`. */
  readonly document: string;
  readonly hint: string;
}

/**
 * Schema violations as diagnostics: the specific errors (not the if/oneOf summaries), at most
 * {@link MAX_SCHEMA_DIAGNOSTICS} plus one that counts the rest, the hint on the last.
 */
export function schemaDiagnostics(
  name: string,
  errors: readonly ErrorObject[],
  wording: SchemaDiagnosticsWording,
): Diagnostic[] {
  // if/then/else and oneOf add a summary error next to the specific ones; the specific ones say more.
  const specific = errors.filter((e) => e.keyword !== "if" && e.keyword !== "oneOf");
  const shown = (specific.length > 0 ? specific : errors).slice(0, MAX_SCHEMA_DIAGNOSTICS);
  const out: Diagnostic[] = shown.map((e) => ({
    severity: "error",
    code: wording.code,
    message: `${name} is not a valid ${wording.document}: ${describeSchemaError(e)}`,
  }));
  const more = (specific.length > 0 ? specific : errors).length - shown.length;
  if (more > 0) {
    out.push({
      severity: "error",
      code: wording.code,
      message: `${name} has ${more} more schema violation${more === 1 ? "" : "s"}`,
    });
  }
  const last = out.length - 1;
  const lastDiagnostic = out[last];
  if (lastDiagnostic !== undefined) out[last] = { ...lastDiagnostic, hint: wording.hint };
  return out;
}

/** One ajv error in words: `/projects/0/actions/0 lacks block`. */
export function describeSchemaError(e: ErrorObject): string {
  const at = e.instancePath === "" ? "the document" : e.instancePath;
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required":
      return `${at} lacks ${String(params.missingProperty)}`;
    case "additionalProperties":
      return `${at} has unknown key ${String(params.additionalProperty)}`;
    case "enum":
      return `${at} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    default:
      return `${at} ${e.message ?? `breaks ${e.keyword}`}`;
  }
}

function checkInvariants(name: string, plan: Plan): Diagnostic[] {
  const out: Diagnostic[] = [];
  const ids = new Set<string>();
  const problem = (message: string): void => {
    out.push({ severity: "error", code: "report.plan-inconsistent", message: `${name}: ${message}` });
  };
  for (const project of plan.projects) {
    for (const action of project.actions) {
      if (ids.has(action.id)) problem(`action ${action.id} appears twice`);
      ids.add(action.id);
      if (action.id !== `${project.address}.${action.kind}` || action.address !== project.address) {
        problem(`action ${action.id} does not match its project ${project.address} and kind ${action.kind}`);
      }
      if (action.project_id !== project.project_id) {
        problem(`action ${action.id} names project ${action.project_id}, not ${project.project_id}`);
      }
    }
  }
  for (const project of plan.projects) {
    for (const action of project.actions) {
      for (const dep of action.depends_on) {
        if (!ids.has(dep)) problem(`action ${action.id} depends on ${dep}, which is not in the plan`);
      }
    }
  }
  return out;
}
