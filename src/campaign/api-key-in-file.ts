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

/** The keys of a file reported one by one; past them, one error counts the rest (as YAML errors). */
export const MAX_KEYS_SHOWN = 20;

const HINT =
  "remove it and revoke the key in the dashboard (it stays in the repository's history); set CAMPAIGNCTL_API_KEY, or the organization's CAMPAIGNCTL_API_KEY_<SLUG>, where campaignctl runs";

/**
 * One error per key-shaped run of the file, at the run: `campaign.api-key-in-file` in a campaign
 * file, `policy.api-key-in-file` in a policy file. Past MAX_KEYS_SHOWN, one more error at the next
 * run counts the rest: a pasted blob of keys (100,000s) is not that many findings.
 */
export function apiKeysInFile(
  source: SourceText,
  code: "campaign.api-key-in-file" | "policy.api-key-in-file" = "campaign.api-key-in-file",
): Diagnostic[] {
  const runs = keyShapedRuns(source.text);
  const found: Diagnostic[] = runs.slice(0, MAX_KEYS_SHOWN).map(([start, end]) => ({
    severity: "error",
    code,
    message: "an API key is written in this file: keys are read only from the environment",
    range: rangeAt(source, start, end),
    hint: HINT,
  }));
  const next = runs[MAX_KEYS_SHOWN];
  if (next !== undefined)
    found.push({
      severity: "error",
      code,
      message: `${runs.length - MAX_KEYS_SHOWN} more API keys in this file are not shown`,
      range: rangeAt(source, next[0], next[1]),
      hint: HINT,
    });
  return found;
}
