/**
 * A diagnostic as it is shown: every key-shaped run (src/contract/key-shaped.ts) in its message, hint
 * and related messages replaced by `*`, as the source excerpt shows one. A finding that quotes what
 * the file says (an unknown merge tag, an unknown key, a name) would otherwise print an API key
 * written in the file, whose own error (`campaign.api-key-in-file`) says where it is. Every output
 * of diagnostics goes through it: the JSON form (json.ts), the text (src/report/diagnostics-text.ts)
 * and the language server's (cli/lsp/lsp-diagnostic.ts). Pure.
 */
import { maskKeyShaped } from "../contract/key-shaped.js";
import type { Diagnostic } from "./diagnostic.js";

/** `d` with no key-shaped run in its words (itself when it has none, the common case). */
export function maskedKeys(d: Diagnostic): Diagnostic {
  const related = d.related ?? [];
  const shows = (text: string | undefined) => text !== undefined && /live_/i.test(text);
  if (!shows(d.message) && !shows(d.hint) && !related.some((r) => shows(r.message))) return d;
  return {
    ...d,
    message: maskKeyShaped(d.message),
    ...(d.hint === undefined ? {} : { hint: maskKeyShaped(d.hint) }),
    ...(d.related === undefined
      ? {}
      : { related: d.related.map((r) => ({ ...r, message: maskKeyShaped(r.message) })) }),
  };
}
