/**
 * An API key written into a campaign file or a policy file. Keys come only from the environment: a key in a reviewed
 * file is in the repository's history for good, and its text would be shown back (in a source
 * excerpt, a message, the plan). The contract says every key begins with a fixed prefix ending in
 * `live_`; a run of that shape (src/contract/key-shaped.ts) anywhere in the file, comments included, is
 * the error `campaign.api-key-in-file`. Pure.
 */

import { keyShapedRuns } from "../contract/key-shaped.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { rangeAt, type SourceText } from "./source-range.js";

/**
 * One error per key-shaped run of the file, at the run: `campaign.api-key-in-file` in a campaign
 * file, `policy.api-key-in-file` in a policy file.
 */
export function apiKeysInFile(
  source: SourceText,
  code: "campaign.api-key-in-file" | "policy.api-key-in-file" = "campaign.api-key-in-file",
): Diagnostic[] {
  return keyShapedRuns(source.text).map(([start, end]) => ({
    severity: "error",
    code,
    message: "an API key is written in this file: keys are read only from the environment",
    range: rangeAt(source, start, end),
    hint: "remove it and revoke the key in the dashboard (it stays in the repository's history); set CAMPAIGNCTL_API_KEY, or the organization's CAMPAIGNCTL_API_KEY_<SLUG>, where campaignctl runs",
  }));
}
