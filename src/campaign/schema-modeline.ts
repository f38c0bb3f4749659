/**
 * Reads the editor modeline `# yaml-language-server: $schema=...` from a YAML file's leading
 * comments, so that a directory can hold other YAML documents (the sandbox fixture) beside the
 * campaign files. Pure.
 */

/** The `$schema` a file's leading comment lines declare, if any. */
export function declaredSchema(text: string): string | undefined {
  for (const line of text.split("\n", 20)) {
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
