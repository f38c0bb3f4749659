/**
 * The email part of `validate` (offline): every email list's CSV checked to its end, streaming,
 * each problem with its file and line (src/email/row-check.ts). The lists are the campaign model's
 * (decoded by the loader; a list naming a live list named before is already reported there).
 */
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { EmailListSpec } from "../../src/email/model.js";

export async function validateEmail(
  lists: readonly EmailListSpec[],
  requireConsent: boolean,
  cwd: string,
): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  if (lists.length === 0) return out;
  // Loaded only for a file with email lists: the CSV reader is a tenth of validate's modules.
  const { checkList } = await import("./check-list.js");
  for (const list of lists) out.push(...(await checkList(list, cwd, requireConsent)).diagnostics);
  return out;
}
