/**
 * The campaign file schema (`schemas/campaign.schema.json`, JSON Schema 2020-12). Files are checked
 * by its validator generated at build time (`scripts/gen-validators.mjs`, ajv standalone code:
 * no schema compiled at run time), and read as data from the module the same script writes (no file
 * is read at run time). The schema file ships with the package for tools and editors.
 */
import type { ErrorObject } from "ajv/dist/2020.js";
import { CAMPAIGN_SCHEMA_TEXT } from "./generated/campaign-schema.js";
import { validateCampaign } from "./generated/validate-campaign.js";

/** The parsed schema document, a copy of its own for each caller (key-trust.ts, the language server, tests). */
export function campaignSchema(): Record<string, unknown> {
  return JSON.parse(CAMPAIGN_SCHEMA_TEXT) as Record<string, unknown>;
}

/** Validates one document's data; returns ajv's errors (empty when valid). */
export function validateCampaignData(data: unknown): readonly ErrorObject[] {
  return validateCampaign(data) ? [] : [...(validateCampaign.errors ?? [])];
}
