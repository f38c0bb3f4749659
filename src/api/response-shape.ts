/**
 * Whether a success answer's `data` has the shape its endpoint's schema says (response-schemas.ts,
 * through the validators the build generated from it): null when it does, else what is wrong, in
 * words for the error (`data.projects[3].status is not one of the allowed values`).
 */
import { RESPONSE_VALIDATORS } from "./generated/validate-responses.js";
import type { ResponseSchemaName } from "./response-schemas.js";

export function responseProblem(schema: ResponseSchemaName, data: unknown): string | null {
  const validate = RESPONSE_VALIDATORS[schema];
  if (validate(data)) return null;
  const first = validate.errors?.[0];
  if (first === undefined) return "data does not have the contract's shape";
  const where = `data${first.instancePath.replace(/\/(\d+)(?=\/|$)/g, "[$1]").replaceAll("/", ".")}`;
  switch (first.keyword) {
    case "required":
      return `${where} has no ${String((first.params as { missingProperty?: unknown }).missingProperty)}`;
    case "enum":
      return `${where} is ${shown(at(data, first.instancePath))}, not one of the contract's values`;
    default:
      return `${where} ${first.message ?? "does not have the contract's shape"}`;
  }
}

/** The value at a JSON pointer of `data` (undefined where there is none). */
function at(data: unknown, pointer: string): unknown {
  let value = data;
  for (const part of pointer.split("/").slice(1)) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[part.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return value;
}

/** A value as JSON, cut to 40 characters (the API's words are not ours to print at length). */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
