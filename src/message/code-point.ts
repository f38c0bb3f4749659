/** How a code point is named in messages and reports: `U+1EB7`. Pure. */
export function codePointLabel(char: string): string {
  const cp = char.codePointAt(0) ?? 0;
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}
