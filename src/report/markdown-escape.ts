/**
 * Escaping user text (project names, messages, reasons) for GitHub-flavoured Markdown and for the
 * raw HTML of `<summary>`, so that it shows as written: no formatting, no HTML, no table breakage,
 * and no @-mentions or #-issue links pinging people from a PR comment. Pure.
 */
import { escapeHtml } from "./html-escape.js";

const ZWSP = "&#8203;";

/**
 * Breaks GitHub's @-mention and #123 issue-reference autolinks with a zero-width space; the `#` of
 * a numeric entity (`&#39;`, from escaping) is not a reference and is left whole.
 */
function breakAutolinks(s: string): string {
  return s.replace(/@(?=[A-Za-z0-9])|(?<!&)#(?=\d)/g, (c) => c + ZWSP);
}

function oneLine(s: string): string {
  return s.replace(/\r\n|\r|\n/g, " ");
}

/**
 * Text for a Markdown paragraph, list item or table cell (never at the start of a line): HTML
 * specials as entities, Markdown punctuation backslash-escaped (`|` too, for table cells), line
 * breaks as spaces.
 */
export function escapeMarkdown(text: string): string {
  const escaped = oneLine(text).replace(/[&<>\\`*_[\]|~]/g, (c) => {
    switch (c) {
      case "&":
        return "&amp;";
      case "<":
        return "&lt;";
      case ">":
        return "&gt;";
      default:
        return `\\${c}`;
    }
  });
  return breakAutolinks(escaped);
}

/**
 * Text inside the raw HTML of a `<summary>` line, where Markdown is not interpreted: `escapeHtml`,
 * line breaks as spaces, and autolinks broken as in `escapeMarkdown`.
 */
export function escapeSummaryHtml(text: string): string {
  return breakAutolinks(escapeHtml(oneLine(text)));
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/**
 * A code span showing `text` literally: delimited by more backticks than any run inside, padded
 * when it starts or ends with a backtick. `inTable` escapes `|`, which GFM tables split on even
 * inside code spans (the backslash does not show there).
 */
export function codeSpan(text: string, inTable = false): string {
  const body = oneLine(text);
  const ticks = "`".repeat(longestRun(body, "`") + 1);
  const pad = body.startsWith("`") || body.endsWith("`") ? " " : "";
  const inner = inTable ? body.replace(/\|/g, "\\|") : body;
  return `${ticks}${pad}${inner}${pad}${ticks}`;
}

/** A fenced code block (with an info string such as `diff`) that no line of `content` can close. */
export function fencedBlock(content: string, info: string): string {
  const fence = "`".repeat(Math.max(3, longestRun(content, "`") + 1));
  return `${fence}${info}\n${content}\n${fence}`;
}
