/**
 * How much a GSM-7 message would cost for a contact whose value has one character outside GSM-7 (a
 * name like "Đặng"): that one character switches the whole message to UCS-2. Pure.
 */
import type { RenderResult } from "./render.js";
import { type SegmentInfo, segmentInfo } from "./segments.js";

/** The character we put into a contact's value to model a non-GSM name ("Đ", as in Đặng). */
export const NON_GSM_PROBE = "Đ";

/**
 * The segment growth, when there is one. Invariant: returned only when `before` is GSM-7 and
 * `after.segments > before.segments`; `tag` is the tag whose value was probed.
 */
export interface SegmentRisk {
  readonly tag: string;
  readonly tagStart: number;
  readonly tagEnd: number;
  readonly before: SegmentInfo;
  readonly after: SegmentInfo;
}

/**
 * `rendered` is the sample rendering of `parsed`; `finish` turns rendered text into what goes out
 * (appends the footer). The first tag's value gets one character replaced by `NON_GSM_PROBE` (or,
 * when empty, becomes that character). Not remembered: lint remembers each message's risk
 * (src/campaign/lint/segments.ts).
 */
export function segmentRisk(
  rendered: RenderResult,
  finish: (text: string) => string,
): SegmentRisk | undefined {
  const before = segmentInfo(finish(rendered.text));
  if (before.encoding !== "GSM-7") return undefined;
  const part = rendered.parts.find((p) => p.segment.kind === "tag");
  if (part === undefined || part.segment.kind !== "tag") return undefined;
  const probed = `${NON_GSM_PROBE}${[...part.text].slice(1).join("")}`;
  const text = rendered.text.slice(0, part.outStart) + probed + rendered.text.slice(part.outEnd);
  const after = segmentInfo(finish(text));
  if (after.segments <= before.segments) return undefined;
  return { tag: part.segment.name, tagStart: part.segment.start, tagEnd: part.segment.end, before, after };
}
