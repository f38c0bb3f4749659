/**
 * The policy file schema (`schemas/policy.schema.json`, JSON Schema 2020-12), checked by its
 * validator generated at build time like the campaign schema's (`scripts/gen-validators.mjs`); no
 * file is read at run time. The schema file ships with the package for tools and editors.
 */
import type { ErrorObject } from "ajv/dist/2020.js";
import { validatePolicy } from "./generated/validate-policy.js";

/** Validates a policy document's data; returns ajv's errors (empty when valid). */
export function validatePolicyData(data: unknown): readonly ErrorObject[] {
  return validatePolicy(data) ? [] : [...(validatePolicy.errors ?? [])];
}
