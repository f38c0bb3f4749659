/** The link targets of a Markdown text, as a reader (and GitHub) follows them. Pure. */

/** Text outside fenced code blocks and inline code spans, where links are links. */
export function proseOf(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** Link targets: [text](target) and <a href="target">, without titles. */
export function linkTargets(markdown: string): string[] {
  const prose = proseOf(markdown);
  const out: string[] = [];
  for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1] ?? "");
  for (const m of prose.matchAll(/\bhref="([^"]+)"/g)) out.push(m[1] ?? "");
  return out;
}
