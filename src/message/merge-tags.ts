/**
 * The merge tag parser: `{{field}}` and `{{field|fallback}}`. Pure: text in, segments and problems
 * out; the lint rule maps index ranges to source ranges.
 *
 * Syntax (our documented choices where the contract is silent):
 * - A tag opens with `{{` and closes at the first `}}` after it. Spaces around the name and around
 *   the bar are allowed and not part of either: `{{ first_name | friend }}` is `first_name` with
 *   fallback `friend`.
 * - The fallback is literal text from the first `|` up to `}}`, trimmed of surrounding whitespace; it
 *   may contain further `|` and single braces.
 * - A single `{` or `}` is literal text (GSM-7 encodes it with an escape, so it costs two septets).
 *   `}}` outside a tag is an error (`message.stray-close`), as is a `{{` with no `}}` before the next
 *   `{{` or the end (`message.unclosed-tag`); after an unclosed `{{` the scan resumes right after it.
 */

import { itself, memoize } from "./memo.js";

/** Field names a tag may carry. */
export const TAG_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Literal text. Invariant: `start < end`, `text === message.slice(start, end)`.
 */
export interface LiteralSegment {
  readonly kind: "literal";
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/**
 * A well-formed merge tag. Indices are UTF-16 offsets into the message: `start` at the first `{`,
 * `end` just after the last `}`; `nameStart`/`nameEnd` bound the (trimmed) name. `fallback` is
 * `undefined` when the tag has no `|`, and may be `""` (`{{first_name|}}`).
 * Invariant: `name` matches `TAG_NAME_PATTERN`.
 */
export interface TagSegment {
  readonly kind: "tag";
  readonly name: string;
  readonly fallback: string | undefined;
  readonly start: number;
  readonly end: number;
  readonly nameStart: number;
  readonly nameEnd: number;
}

export type MessageSegment = LiteralSegment | TagSegment;

export type MergeTagProblemKind = "unclosed-tag" | "stray-close" | "empty-tag-name" | "invalid-tag-name";

/** A syntax problem, with the UTF-16 range it covers in the message (`start < end`). */
export interface MergeTagProblem {
  readonly kind: MergeTagProblemKind;
  readonly start: number;
  readonly end: number;
  /** The offending name, for `invalid-tag-name`. */
  readonly name?: string;
}

/**
 * The message cut into literal text and tags, in order. Invariants: the segments' ranges cover the
 * whole message exactly once, in order, and no two literals are adjacent; anything malformed (an
 * unclosed `{{`, a stray `}}`, a tag with an empty or invalid name) stays literal text, so rendering
 * still shows it, and is reported in `problems` (ordered by position).
 */
export interface ParsedMessage {
  readonly segments: readonly MessageSegment[];
  readonly problems: readonly MergeTagProblem[];
}

/** `message` parsed (see ParsedMessage); remembered per message text (memo.ts). */
export const parseMergeTags: (message: string) => ParsedMessage = memoize(parse, itself);

function parse(message: string): ParsedMessage {
  const segments: MessageSegment[] = [];
  const problems: MergeTagProblem[] = [];
  let literalStart = 0;
  let i = 0;

  const flushLiteral = (upTo: number): void => {
    if (upTo > literalStart)
      segments.push({
        kind: "literal",
        text: message.slice(literalStart, upTo),
        start: literalStart,
        end: upTo,
      });
  };

  while (i < message.length) {
    if (message.startsWith("}}", i)) {
      problems.push({ kind: "stray-close", start: i, end: i + 2 });
      i += 2;
      continue;
    }
    if (!message.startsWith("{{", i)) {
      i += 1;
      continue;
    }
    const close = message.indexOf("}}", i + 2);
    const nextOpen = message.indexOf("{{", i + 2);
    if (close < 0 || (nextOpen >= 0 && nextOpen < close)) {
      problems.push({ kind: "unclosed-tag", start: i, end: i + 2 });
      i += 2;
      continue;
    }
    const tag = readTag(message, i, close);
    if (tag.kind === "tag") {
      flushLiteral(i);
      segments.push(tag);
      literalStart = tag.end;
    } else {
      problems.push(tag);
    }
    i = close + 2;
  }
  flushLiteral(message.length);
  return { segments, problems };
}

/** Reads the tag between `open` (index of `{{`) and `close` (index of `}}`). */
function readTag(message: string, open: number, close: number): TagSegment | MergeTagProblem {
  const end = close + 2;
  const innerStart = open + 2;
  const inner = message.slice(innerStart, close);
  const bar = inner.indexOf("|");
  const rawName = bar < 0 ? inner : inner.slice(0, bar);
  const leading = rawName.length - rawName.trimStart().length;
  const name = rawName.trim();
  if (name === "") return { kind: "empty-tag-name", start: open, end };
  const nameStart = innerStart + leading;
  const nameEnd = nameStart + name.length;
  if (!TAG_NAME_PATTERN.test(name)) return { kind: "invalid-tag-name", start: nameStart, end: nameEnd, name };
  const fallback = bar < 0 ? undefined : inner.slice(bar + 1).trim();
  return { kind: "tag", name, fallback, start: open, end, nameStart, nameEnd };
}

/** The well-formed tags of a message, in order. */
export function tagsOf(parsed: ParsedMessage): TagSegment[] {
  return parsed.segments.filter((s): s is TagSegment => s.kind === "tag");
}
