/**
 * Merge tag findings of one message: syntax problems, unknown fields and tags that can render empty.
 * Pure; findings carry UTF-16 index ranges into the message, which callers map to source ranges.
 */

import { STANDARD_FIELDS } from "../contract/limits.js";
import type { MessageCode } from "../diagnostics/codes/message.js";
import type { Severity } from "../diagnostics/diagnostic.js";
import { didYouMean } from "../text/did-you-mean.js";
import { type MergeTagProblem, type ParsedMessage, parseMergeTags, tagsOf } from "./merge-tags.js";
import { type MergeValues, render } from "./render.js";

/** One finding. Invariant: `0 <= start < end <= message.length`. */
export interface MessageFinding {
  readonly severity: Severity;
  readonly code: MessageCode;
  readonly message: string;
  readonly hint?: string;
  /** The field to write instead of an unknown one (the did-you-mean of the hint). */
  readonly suggestion?: string;
  readonly start: number;
  readonly end: number;
}

export interface TagContext {
  /** Custom fields declared in the file, beyond `STANDARD_FIELDS`. */
  readonly fields: readonly string[];
  /** Organization defaults (`merge_defaults`). */
  readonly mergeDefaults: MergeValues;
}

/** Every field a tag may name: the standard ones, then the declared ones. */
export function knownFields(fields: readonly string[]): string[] {
  return [...STANDARD_FIELDS, ...fields.filter((f) => !(STANDARD_FIELDS as readonly string[]).includes(f))];
}

export function checkMergeTags(message: string | ParsedMessage, context: TagContext): MessageFinding[] {
  const parsed = typeof message === "string" ? parseMergeTags(message) : message;
  const findings: MessageFinding[] = parsed.problems.map(problemFinding);
  const known = knownFields(context.fields);
  const empty = render(parsed, {}, context.mergeDefaults);
  for (const tag of tagsOf(parsed)) {
    if (!known.includes(tag.name)) {
      const suggestion = didYouMean(tag.name, known);
      findings.push({
        severity: "error",
        code: "message.unknown-tag",
        message: `merge tag {{${tag.name}}} names an unknown field`,
        hint:
          (suggestion !== undefined ? `did you mean {{${suggestion}}}? ` : "") +
          `Standard fields: ${STANDARD_FIELDS.join(", ")}; declare custom ones under \`fields\``,
        ...(suggestion !== undefined ? { suggestion } : {}),
        start: tag.nameStart,
        end: tag.nameEnd,
      });
      continue;
    }
    const part = empty.parts.find((p) => p.segment === tag);
    if (part?.source === "platform") {
      const shown = excerptAround(empty.text, part.outStart, 30);
      findings.push({
        severity: "warning",
        code: "message.tag-may-render-empty",
        message: `{{${tag.name}}} has no fallback and no merge_defaults entry, so a contact without it gets "${shown}"`,
        hint: `add an inline fallback ({{${tag.name}|...}}) or a \`merge_defaults\` entry for ${tag.name}`,
        start: tag.start,
        end: tag.end,
      });
    }
  }
  return findings.sort((a, b) => a.start - b.start);
}

function problemFinding(problem: MergeTagProblem): MessageFinding {
  const range = { start: problem.start, end: problem.end };
  switch (problem.kind) {
    case "unclosed-tag":
      return {
        severity: "error",
        code: "message.unclosed-tag",
        message: "merge tag opened with {{ is never closed",
        hint: "close it with }} (a literal brace is written as a single { )",
        ...range,
      };
    case "stray-close":
      return {
        severity: "error",
        code: "message.stray-close",
        message: "}} closes no merge tag",
        hint: "remove it, or open the tag with {{",
        ...range,
      };
    case "empty-tag-name":
      return {
        severity: "error",
        code: "message.empty-tag-name",
        message: "merge tag has no field name",
        hint: "write the field inside the braces, as in {{first_name|friend}}",
        ...range,
      };
    case "invalid-tag-name":
      return {
        severity: "error",
        code: "message.invalid-tag-name",
        message: `"${problem.name ?? ""}" is not a valid merge field name`,
        hint: "field names are letters, digits and underscores, not starting with a digit",
        ...range,
      };
  }
}

/** Up to `radius` characters either side of `at`, with an ellipsis where cut; newlines shown as ⏎. */
function excerptAround(text: string, at: number, radius: number): string {
  const from = Math.max(0, at - radius);
  const to = Math.min(text.length, at + radius);
  const body = text.slice(from, to).replace(/\r?\n/g, "⏎");
  return `${from > 0 ? "…" : ""}${body}${to < text.length ? "…" : ""}`;
}
