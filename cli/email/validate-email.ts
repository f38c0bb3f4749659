/**
 * The email part of `validate` (offline): every email list's CSV checked to its end, streaming,
 * each problem with its file and line (src/email/row-check.ts).
 */
import type { CampaignFile } from "../../src/campaign/model.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { emailSpecsOf, repeatedLists } from "../../src/email/specs.js";

export async function validateEmail(
  files: readonly CampaignFile[],
  requireConsent: boolean,
  cwd: string,
): Promise<Diagnostic[]> {
  const { specs, diagnostics } = repeatedLists(emailSpecsOf(files));
  const out: Diagnostic[] = [...diagnostics];
  if (specs.lists.length === 0) return out;
  // Loaded only for a file with email lists: the CSV reader is a tenth of validate's modules.
  const { checkList } = await import("./check-list.js");
  for (const list of specs.lists) out.push(...(await checkList(list, cwd, requireConsent)).diagnostics);
  return out;
}
