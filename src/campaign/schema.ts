/**
 * The campaign file schema (`schemas/campaign.schema.json`, JSON Schema 2020-12), compiled once per
 * process on first use. The schema file ships with the package (copied next to the compiled code).
 */
import { readFileSync } from "node:fs";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
// ajv-formats is CommonJS: under NodeNext its default import is the module object, whose `default`
// is the plugin (it also sets `exports.default`, so this holds at run time too).
import formats from "ajv-formats";

export const CAMPAIGN_SCHEMA_URL = new URL("../../schemas/campaign.schema.json", import.meta.url);

let compiled: ValidateFunction | undefined;

/** The parsed schema document (for tests and tools). */
export function campaignSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(CAMPAIGN_SCHEMA_URL, "utf8")) as Record<string, unknown>;
}

function validator(): ValidateFunction {
  if (compiled === undefined) {
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true });
    formats.default(ajv, ["date-time"]);
    compiled = ajv.compile(campaignSchema());
  }
  return compiled;
}

/** Validates one document's data; returns ajv's errors (empty when valid). */
export function validateCampaignData(data: unknown): readonly ErrorObject[] {
  const validate = validator();
  return validate(data) ? [] : [...(validate.errors ?? [])];
}
