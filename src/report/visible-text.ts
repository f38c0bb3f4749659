/**
 * Text from the files or the API made safe to print on a terminal: its control characters (C0, DEL,
 * C1) shown as U+FFFD, so a name, a message or a line of a file cannot drive the terminal (hide
 * text, move the cursor, set the title). Pure, and loads nothing (a cold `validate` prints with it).
 */

/** Control characters (C0, DEL, C1) shown as U+FFFD, so names from the API cannot drive the terminal. */
export function visibleText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "\uFFFD");
}
