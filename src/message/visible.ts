/**
 * Does a text show anything? A value made only of spaces, zero-width and other default-ignorable
 * characters, controls, lone combining marks or blank-looking fillers (the Hangul fillers, the
 * blank braille pattern) reads as empty to a reviewer, so a rule that requires a value (the
 * approver's label of `daily_cap_bypass: require_label`) must not be met by one. Pure.
 */

/** Characters that show nothing on their own. */
const SHOWS_NOTHING =
  /[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{Mn}\p{Me}\u115F\u1160\u2800\u3164\uFFA0]/gu;

/** True when `text` has at least one character that shows something. */
export function hasVisibleCharacters(text: string): boolean {
  return text.replace(SHOWS_NOTHING, "").length > 0;
}
