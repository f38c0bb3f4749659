/** Word wrapping for terminal prose (reasons, fixes, notes). Pure; never breaks inside a word. */

/**
 * Wraps `text` so that no line is longer than `width` (unless one word alone is), the first line
 * starting with `firstPrefix` and the rest with `restPrefix`. Existing line breaks are kept. A
 * `width` of `Infinity` only adds the prefixes. Returns the lines joined by `\n`, without a final one.
 */
export function wrapText(text: string, width: number, firstPrefix: string, restPrefix: string): string {
  const out: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = out.length === 0 ? firstPrefix : restPrefix;
    let empty = true;
    for (const word of paragraph.split(" ")) {
      if (word === "") continue;
      if (!empty && line.length + 1 + word.length > width) {
        out.push(line);
        line = restPrefix + word;
      } else {
        line += (empty ? "" : " ") + word;
      }
      empty = false;
    }
    out.push(line);
  }
  return out.join("\n");
}

/** Prefixes every line of `text` (a multi-line message) with `prefix`. */
export function indentLines(text: string, prefix: string): string {
  return text
    .split("\n")
    .map((l) => prefix + l)
    .join("\n");
}
