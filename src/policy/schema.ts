/**
 * The policy file schema (`schemas/policy.schema.json`, JSON Schema 2020-12), checked by its
 * validator generated at build time like the campaign schema's (`scripts/gen-validators.mjs`); the
 * schema file ships next to the compiled code.
 */
import { readFileSync } from "node:fs";
import type { ErrorObject } from "ajv/dist/2020.js";
import { validatePolicy } from "./generated/validate-policy.js";

export const POLICY_SCHEMA_URL = new URL("../../schemas/policy.schema.json", import.meta.url);

export function policySchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(POLICY_SCHEMA_URL, "utf8")) as Record<string, unknown>;
}

/** Validates a policy document's data; returns ajv's errors (empty when valid). */
export function validatePolicyData(data: unknown): readonly ErrorObject[] {
  return validatePolicy(data) ? [] : [...(validatePolicy.errors ?? [])];
}
