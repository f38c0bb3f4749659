/**
 * Checking an apply report (`apply --json`) against `schemas/apply-result.schema.json` (its validator
 * generated at build time, src/report/generated/validate-apply-result.ts, with the report schemas'
 * options: compiling it cost about a second of each process) and against the invariants the schema
 * cannot express: action ids unique and matching `<address>.<kind>`, and the summary counting the
 * actions by status. Used by tests and by tools that read reports back. Pure apart from
 * `applyResultSchema`, which reads the schema file that ships with the package.
 */
import { readFileSync } from "node:fs";
import { summarizeResults } from "../apply/result.js";
import type { ApplyResult, ApplySummary } from "../apply/types.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { diagnosticFromJson } from "../diagnostics/json.js";
import type { ApplyResultJson } from "./apply-json.js";
import { validateApplyResultSchema } from "./generated/validate-apply-result.js";
import { emailFromJson, schemaDiagnostics } from "./plan-schema.js";

export const APPLY_RESULT_SCHEMA_URL = new URL("../../schemas/apply-result.schema.json", import.meta.url);

/** The outcome of checking an apply report: the typed result, or why it is not one (never empty). */
export type ApplyResultCheck =
  | { readonly ok: true; readonly result: ApplyResult }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Options of {@link validateApplyResult}. */
export interface ValidateApplyOptions {
  /** The report's file name, named in messages; defaults to "the apply report". */
  readonly file?: string;
}

/** The parsed schema document (for tests and tools). */
export function applyResultSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(APPLY_RESULT_SCHEMA_URL, "utf8")) as Record<string, unknown>;
}

/** Checks parsed JSON as an apply report: the schema first, then the invariants it cannot express. */
export function validateApplyResult(json: unknown, options: ValidateApplyOptions = {}): ApplyResultCheck {
  const name = options.file ?? "the apply report";
  const validate = validateApplyResultSchema;
  if (!validate(json)) {
    return {
      ok: false,
      diagnostics: schemaDiagnostics(name, validate.errors ?? [], {
        code: "report.apply-invalid",
        document: "apply report",
        hint: "write the report with `campaignctl apply --json` and pass it unchanged",
      }),
    };
  }
  // The schema has checked the shape; the refusals come back as diagnostics.
  const written = json as unknown as ApplyResultJson;
  const { email, ...rest } = written;
  const result: ApplyResult = {
    ...rest,
    refused: written.refused.map(diagnosticFromJson),
    ...(email === undefined
      ? {}
      : {
          email: {
            ...email,
            plan: emailFromJson(email.plan),
            lists: email.lists.map((l) => ({ ...l, diagnostics: l.diagnostics.map(diagnosticFromJson) })),
          },
        }),
  };
  const problems = checkInvariants(name, result);
  return problems.length > 0 ? { ok: false, diagnostics: problems } : { ok: true, result };
}

function checkInvariants(name: string, result: ApplyResult): Diagnostic[] {
  const out: Diagnostic[] = [];
  const problem = (message: string): void => {
    out.push({ severity: "error", code: "report.apply-inconsistent", message: `${name}: ${message}` });
  };
  const ids = new Set<string>();
  for (const a of result.actions) {
    if (ids.has(a.id)) problem(`action ${a.id} appears twice`);
    ids.add(a.id);
    if (a.id !== `${a.address}.${a.kind}`) {
      problem(`action ${a.id} does not match its address ${a.address} and kind ${a.kind}`);
    }
  }
  const counts = summarizeResults(result.actions);
  for (const [key, n] of Object.entries(counts) as [keyof ApplySummary, number][]) {
    if (result.summary[key] !== n) {
      problem(
        `summary.${key} is ${result.summary[key]}, but ${n} action${n === 1 ? " has" : "s have"} that status`,
      );
    }
  }
  return out;
}
