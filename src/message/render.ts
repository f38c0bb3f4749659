/**
 * Rendering a message for one contact. Pure.
 *
 * The fallback chain (contract, "What the service does"; design.md): each tag takes the first
 * non-empty of the contact's value, the tag's inline fallback, the organization default
 * (`merge_defaults`), and finally the platform default, which is the empty string. "Empty" means the
 * empty string or absent: an empty inline fallback (`{{first_name|}}`) passes on to the organization
 * default like a missing one. Values are used verbatim (no trimming). Malformed tags render as the
 * literal text they were written as.
 */
import { type MessageSegment, type ParsedMessage, parseMergeTags } from "./merge-tags.js";

/** Where a rendered tag's text came from. `platform` means the empty platform default. */
export type ValueSource = "contact" | "fallback" | "default" | "platform";

/** One piece of the rendered text. Invariant: `outStart`/`outEnd` index into `RenderResult.text`. */
export interface RenderedPart {
  readonly segment: MessageSegment;
  readonly text: string;
  /** For a tag: where its value came from; `undefined` for literal text. */
  readonly source: ValueSource | undefined;
  readonly outStart: number;
  readonly outEnd: number;
}

/** Invariant: `text` is the concatenation of `parts[].text`, in order. */
export interface RenderResult {
  readonly text: string;
  readonly parts: readonly RenderedPart[];
}

export type MergeValues = Readonly<Record<string, string | undefined>>;

/** Resolves one tag by the fallback chain. */
export function resolveTag(
  name: string,
  fallback: string | undefined,
  values: MergeValues,
  mergeDefaults: MergeValues,
): { readonly text: string; readonly source: ValueSource } {
  const own = Object.hasOwn(values, name) ? values[name] : undefined;
  if (own !== undefined && own !== "") return { text: own, source: "contact" };
  if (fallback !== undefined && fallback !== "") return { text: fallback, source: "fallback" };
  const orgDefault = Object.hasOwn(mergeDefaults, name) ? mergeDefaults[name] : undefined;
  if (orgDefault !== undefined && orgDefault !== "") return { text: orgDefault, source: "default" };
  return { text: "", source: "platform" };
}

/** Renders `message` for a contact with `values`; accepts a message already parsed. */
export function render(
  message: string | ParsedMessage,
  values: MergeValues,
  mergeDefaults: MergeValues,
): RenderResult {
  const parsed = typeof message === "string" ? parseMergeTags(message) : message;
  const parts: RenderedPart[] = [];
  let text = "";
  for (const segment of parsed.segments) {
    const outStart = text.length;
    if (segment.kind === "literal") {
      text += segment.text;
      parts.push({ segment, text: segment.text, source: undefined, outStart, outEnd: text.length });
    } else {
      const resolved = resolveTag(segment.name, segment.fallback, values, mergeDefaults);
      text += resolved.text;
      parts.push({ segment, text: resolved.text, source: resolved.source, outStart, outEnd: text.length });
    }
  }
  return { text, parts };
}
