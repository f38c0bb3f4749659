/**
 * The E.164 form of a phone number written another way, for hints: `15035550101`, `5035550101`,
 * `(503) 555-0101` and `+1 503 555 0101` all mean `+15035550101`. Pure.
 */

/** Separators people write inside phone numbers. */
const WRITTEN_PHONE = /^\+?[0-9][0-9 ().\-_]*$/;

/**
 * The E.164 number `written` most likely means, or undefined when that is not clear. With a leading
 * `+` the digits are taken as they are (country code first); without one, only US/Canada numbers
 * are completed: ten digits (area code first, not starting with 0 or 1) or eleven starting with 1.
 */
export function e164Suggestion(written: string): string | undefined {
  const text = written.trim();
  if (!WRITTEN_PHONE.test(text.replace(/^\(/, ""))) return undefined;
  const digits = text.replace(/[^0-9]/g, "");
  if (text.startsWith("+")) return /^[1-9][0-9]{1,14}$/.test(digits) ? `+${digits}` : undefined;
  if (/^[2-9][0-9]{9}$/.test(digits)) return `+1${digits}`;
  if (/^1[2-9][0-9]{9}$/.test(digits)) return `+${digits}`;
  return undefined;
}
