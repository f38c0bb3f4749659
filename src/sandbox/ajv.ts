/**
 * ajv's findings as the API words them. The sandbox's schemas (its fixture's, its request bodies')
 * are compiled at build time (scripts/gen-validators.mjs): no sandbox compiles a schema at run time.
 */
import type { ErrorObject } from "ajv/dist/2020.js";
import type { ValidationIssue } from "../contract/errors.js";

/** JSON pointer (`/a/0/b`) to the array of field names the contract's VALIDATION_ERROR uses. */
export function pointerToPath(pointer: string): (string | number)[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/**
 * Maps ajv errors to VALIDATION_ERROR detail items. Codes follow the vendor's issue codes
 * (`invalid_type`, `too_small`, `too_big`, `invalid_string`, `invalid_enum_value`,
 * `unrecognized_keys`, `custom`); `path` names the offending field, including a missing one.
 */
export function toIssues(errors: readonly ErrorObject[] | null | undefined): ValidationIssue[] {
  return (errors ?? []).map((e) => {
    const path = pointerToPath(e.instancePath);
    const params = e.params as Record<string, unknown>;
    switch (e.keyword) {
      case "required":
        return { code: "invalid_type", path: [...path, String(params.missingProperty)], message: "Required" };
      case "additionalProperties":
        return {
          code: "unrecognized_keys",
          path,
          message: `Unrecognized key: '${String(params.additionalProperty)}'`,
        };
      case "type":
        return { code: "invalid_type", path, message: `Expected ${String(params.type)}` };
      case "minItems":
      case "minLength":
      case "minimum":
      case "exclusiveMinimum":
      case "minProperties":
        return { code: "too_small", path, message: messageOf(e) };
      case "maxItems":
      case "maxLength":
      case "maximum":
      case "exclusiveMaximum":
      case "maxProperties":
        return { code: "too_big", path, message: messageOf(e) };
      case "format":
        return { code: "invalid_string", format: String(params.format), path, message: messageOf(e) };
      case "pattern":
        return { code: "invalid_string", format: "regex", path, message: messageOf(e) };
      case "enum":
      case "const":
        return { code: "invalid_enum_value", path, message: messageOf(e) };
      default:
        return { code: "custom", path, message: messageOf(e) };
    }
  });
}

function messageOf(e: ErrorObject): string {
  const text = e.message ?? e.keyword;
  return text.charAt(0).toUpperCase() + text.slice(1);
}
