/**
 * The campaign file schema (`schemas/campaign.schema.json`, JSON Schema 2020-12). Files are checked
 * by its validator generated at build time (`scripts/gen-validators.mjs`, ajv standalone code:
 * no schema compiled at run time). The schema file ships with the package (copied next to the
 * compiled code) for tools and editors.
 */
import { readFileSync } from "node:fs";
import type { ErrorObject } from "ajv/dist/2020.js";
import { validateCampaign } from "./generated/validate-campaign.js";

export const CAMPAIGN_SCHEMA_URL = new URL("../../schemas/campaign.schema.json", import.meta.url);

/** The parsed schema document (for tests and tools). */
export function campaignSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(CAMPAIGN_SCHEMA_URL, "utf8")) as Record<string, unknown>;
}

/** Validates one document's data; returns ajv's errors (empty when valid). */
export function validateCampaignData(data: unknown): readonly ErrorObject[] {
  return validateCampaign(data) ? [] : [...(validateCampaign.errors ?? [])];
}
