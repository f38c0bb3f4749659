/**
 * Reads the editor modeline `# yaml-language-server: $schema=...` from a YAML file's leading
 * comments, so that a directory can hold other YAML documents (the sandbox fixture) beside the
 * campaign files. Pure.
 */

/**
 * `text.split("\n", count)` without reading past those lines (V8 splits the whole text first: a
 * few milliseconds for a 10,000-project file, at every check of the language server).
 */
function leadingLines(text: string, count: number): string[] {
  const lines: string[] = [];
  let at = 0;
  while (lines.length < count) {
    const end = text.indexOf("\n", at);
    if (end < 0) {
      lines.push(text.slice(at));
      break;
    }
    lines.push(text.slice(at, end));
    at = end + 1;
  }
  return lines;
}

/** The `$schema` a file's leading comment lines declare, if any. */
export function declaredSchema(text: string): string | undefined {
  for (const line of leadingLines(text, 20)) {
    const trimmed = line.trim();
    if (trimmed === "") continue;
    if (!trimmed.startsWith("#")) return undefined;
    const match = /^#\s*yaml-language-server:\s*\$schema=(\S+)/.exec(trimmed);
    if (match) return match[1];
  }
  return undefined;
}

/** False only for a file that declares a schema other than the campaign file schema. */
export function mayBeCampaignFile(text: string): boolean {
  const schema = declaredSchema(text);
  return schema === undefined || /(^|\/)campaign\.schema\.json$/.test(schema);
}
