/**
 * The policy file schema (`schemas/policy.schema.json`, JSON Schema 2020-12), compiled once per
 * process on first use; it ships next to the compiled code like the campaign schema.
 */
import { readFileSync } from "node:fs";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";

export const POLICY_SCHEMA_URL = new URL("../../schemas/policy.schema.json", import.meta.url);

let compiled: ValidateFunction | undefined;

export function policySchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(POLICY_SCHEMA_URL, "utf8")) as Record<string, unknown>;
}

/** Validates a policy document's data; returns ajv's errors (empty when valid). */
export function validatePolicyData(data: unknown): readonly ErrorObject[] {
  if (compiled === undefined)
    compiled = new Ajv2020({ allErrors: true, strict: true }).compile(policySchema());
  return compiled(data) ? [] : [...(compiled.errors ?? [])];
}
