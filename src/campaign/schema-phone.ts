/**
 * The phone-number side of schema findings: where a phone is written, how to write it so that it
 * passes, and the quick fixes (its E.164 form, quoted) the editor offers. Pure.
 */
import type { DiagnosticFix } from "../diagnostics/diagnostic.js";
import { e164Suggestion } from "./phone-suggestion.js";

/** A test contact's `phone` or an entry of `phone_numbers`: where a phone number is written. */
export function isPhonePath(segments: readonly string[]): boolean {
  const last = segments[segments.length - 1];
  return last === "phone" || (segments[segments.length - 2] === "phone_numbers" && /^\d+$/.test(last ?? ""));
}

/** A phone's E.164 form in quotes and, for one written without quotes, the same digits quoted. */
export function phoneFixes(written: string, unquoted: boolean): DiagnosticFix[] {
  const e164 = e164Suggestion(written);
  const fixes: DiagnosticFix[] = [];
  if (e164 !== undefined) fixes.push({ title: `Write "${e164}"`, edit: "replace-value", text: e164 });
  if (unquoted && e164 !== written.trim())
    fixes.push({ title: `Quote it: "${written.trim()}"`, edit: "replace-value", text: written.trim() });
  return fixes;
}

/** Says how to write a phone number so that it passes: in quotes, in E.164 form (`+15035550101`). */
export function phoneHint(written: string): string {
  const e164 = e164Suggestion(written);
  return e164 === undefined
    ? 'write it in quotes, in E.164 form: + and country code, area code and number, like "+15035550123"'
    : `write it in quotes, in E.164 form: "${e164}"`;
}
