/** Small builders for campaign tests: files from inline text, diagnostics as comparable tuples. */
import { createHash } from "node:crypto";
import type { CampaignFile } from "../../src/campaign/model.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";

export function campaignFile(path: string, text: string): CampaignFile {
  return { path, text, sha256: createHash("sha256").update(text).digest("hex") };
}

/** `code@line:column`, the part of a diagnostic the table-driven tests pin down. */
export function where(d: Diagnostic): string {
  return d.range ? `${d.code}@${d.range.start.line}:${d.range.start.column}` : d.code;
}

/** A minimal valid project body, to build broken variants from. */
export const VALID_HEADER = "version: 1\nprojects:\n";
