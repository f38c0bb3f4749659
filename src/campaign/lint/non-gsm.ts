/**
 * Rule: a character of the message as written that GSM-7 cannot carry (an emoji, a curly quote, a
 * dash, a letter whose accent GSM-7 lacks) turns the whole message into UCS-2: 70 characters a
 * segment instead of 160 (67 instead of 153 once split), so every recipient may be billed more
 * segments. One finding per distinct character, at its first place in the message (the others in
 * `related`), with the segments per recipient as sent and with every such character written in
 * GSM-7 (the message with its tags at their fallbacks: what the file itself costs), and the GSM-7 spelling as the hint where there is one (src/message/gsm-spelling.ts).
 *
 * Severity `warning` when the character costs segments, `info` when the message stays as many
 * segments either way (a cost fact, as `lint.segment-growth`). Invisible and bidi characters are
 * `lint.invisible-character` / `lint.bidi-control`'s; a non-GSM character in a contact's merge value
 * (not in the file) is `lint.segment-growth`'s. Skipped for MMS (a project with media).
 *
 * On a template, each instance is a project with the variant as its message, so each finds every
 * character again, in words that differ only by its address: where findings are gathered they are
 * one per character of the variant, with the instances related (../template-findings.ts). The
 * figures use the instance's `merge_defaults`, so an instance whose own defaults change the segments
 * keeps a finding of its own.
 */
import type { Diagnostic, RelatedInformation } from "../../diagnostics/diagnostic.js";
import { codePointLabel } from "../../message/code-point.js";
import { withOptOutFooter } from "../../message/footer.js";
import { gsmSpelling } from "../../message/gsm-spelling.js";
import { gsm7Septets } from "../../message/gsm7.js";
import { analysisOf, type MessageAnalysis, resultSlot } from "../../message/message-analysis.js";
import { render } from "../../message/render.js";
import { type SegmentInfo, segmentInfo } from "../../message/segments.js";
import type { ProjectSpec } from "../model.js";
import { isInvisibleOrBidi } from "./invisible.js";
import { type LintRule, NO_FINDINGS } from "./rule.js";

/** At most this many further places of one character are listed in `related`. */
const MAX_RELATED = 10;

/** `text` with every character GSM-7 cannot carry written in GSM-7, or left out when it has no spelling. */
export function inGsm7(text: string): string {
  let out = "";
  for (const char of text) out += gsm7Septets(char) === undefined ? (gsmSpelling(char)?.text ?? "") : char;
  return out;
}

/**
 * What goes out, as sent and in GSM-7: the message with every tag at its fallback (so every character
 * written in the file is in it, and none of a contact's values), with the opt-out footer.
 */
function figures(project: ProjectSpec, analysis: MessageAnalysis): Figures {
  const footer = project.optOutFooter === true;
  const mergeDefaults = project.mergeDefaults;
  return analysis.remember(FIGURES, footer, analysis.valuesKey(mergeDefaults), "", () => {
    const text = withOptOutFooter(render(analysis.parsed, {}, mergeDefaults).text, footer);
    return { sent: segmentInfo(text), gsm: segmentInfo(inGsm7(text)) };
  });
}

interface Figures {
  readonly sent: SegmentInfo;
  readonly gsm: SegmentInfo;
}

/** The slots in a message's analysis: its figures by footer and defaults; its characters' places. */
const FIGURES = resultSlot<Figures>();
const PLACES = resultSlot<ReadonlyMap<string, readonly number[]>>();

/** Where each character this rule reports stands in `message` (UTF-16 offsets), in order. */
function placesOf(message: string): ReadonlyMap<string, readonly number[]> {
  const places = new Map<string, number[]>();
  let offset = 0;
  for (const char of message) {
    if (gsm7Septets(char) === undefined && !isInvisibleOrBidi(char)) {
      const seen = places.get(char);
      if (seen === undefined) places.set(char, [offset]);
      else seen.push(offset);
    }
    offset += char.length;
  }
  return places;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function costWords(sent: SegmentInfo, gsm: SegmentInfo): string {
  if (sent.segments <= gsm.segments)
    return `${plural(sent.segments, "segment")} per recipient either way (the message is short enough for UCS-2)`;
  const ratio = sent.segments / gsm.segments;
  const times = Number.isInteger(ratio) ? `${ratio}` : ratio.toFixed(1);
  return `${plural(sent.segments, "segment")} per recipient instead of ${gsm.segments} in GSM-7: ${times} times the cost of each recipient (billed per segment)`;
}

export const nonGsmCharacterRule: LintRule = (project) => {
  const message = project.message;
  if (message === undefined || (project.media?.length ?? 0) > 0) return NO_FINDINGS;
  const analysis = analysisOf(message);
  if (analysis.isGsm7) return NO_FINDINGS;
  const places = analysis.remember(PLACES, "", "", "", () => placesOf(message));
  if (places.size === 0) return NO_FINDINGS;
  const { sent, gsm } = figures(project, analysis);
  const severity = sent.segments > gsm.segments ? "warning" : "info";
  const out: Diagnostic[] = [];
  for (const [char, starts] of places) {
    const [first = 0, ...more] = starts;
    const spelling = gsmSpelling(char);
    const others = places.size - 1;
    const related: RelatedInformation[] = more.slice(0, MAX_RELATED).map((start) => ({
      message: `${shown(char)} (${codePointLabel(char)}) again`,
      range: project.locateInMessage(start, start + char.length),
    }));
    out.push({
      severity,
      code: "lint.non-gsm-character",
      message:
        `${project.address}: the message holds ${shown(char)} (${codePointLabel(char)})${starts.length > 1 ? `, ${starts.length} times,` : ""} which GSM-7 cannot carry: ` +
        `the message goes out in UCS-2, ${costWords(sent, gsm)}` +
        (others > 0
          ? ` (GSM-7 with ${others === 1 ? "both non-GSM characters" : `all ${others + 1} non-GSM characters`} written in GSM-7 or left out)`
          : ""),
      range: project.locateInMessage(first, first + char.length),
      hint:
        char === "\t"
          ? "write a space instead of the tab (GSM-7 has no tab), or keep it and budget for UCS-2 (70 characters a segment, 67 once split)"
          : spelling === undefined
            ? `remove ${shown(char) === char ? char : `${shown(char)} (${codePointLabel(char)})`}, or keep it and budget for UCS-2 (70 characters a segment, 67 once split)`
            : spelling.kind === "punctuation"
              ? `write ${spelling.text} instead of ${char} (GSM-7 has it)`
              : `write ${spelling.text} instead of ${char} if the plain spelling is acceptable (GSM-7 lacks the accent)`,
      ...(related.length === 0 ? {} : { related }),
      fixes: [
        {
          title:
            char === "\t"
              ? "Write a space instead of the tab"
              : spelling === undefined
                ? `Remove ${shown(char)} (${codePointLabel(char)})`
                : `Write ${spelling.text} instead of ${char}`,
          edit: "replace-text",
          text: char === "\t" ? " " : (spelling?.text ?? ""),
          also: more.map((start) => project.locateInMessage(start, start + char.length)),
        },
      ],
    });
  }
  return out;
};

/** A character as a message names it: a blank or control character by its name (a raw tab shows as nothing). */
function shown(char: string): string {
  if (char === "\t") return "a tab";
  if (/^[\p{Cc}\p{Z}]$/u.test(char)) return "an invisible character";
  return char;
}
