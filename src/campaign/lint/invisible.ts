/**
 * Rule: invisible and bidirectional control characters in a message. They show nothing (or reorder
 * what is shown) in an editor and a review diff, yet they go out: each one turns a GSM-7 message into
 * UCS-2 (fewer characters per segment, so more cost), and a bidi override can make the reviewed text
 * read differently from what recipients see. One finding per run of such characters, at its place.
 * A `merge_defaults` value goes out too, to every contact without a value, wherever a tag of its field
 * has no inline fallback: one finding per such field, at its first such tag (the file's defaults are
 * not a project's place).
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { codePointLabel } from "../../message/code-point.js";
import type { TagSegment } from "../../message/merge-tags.js";
import { analysisOf, resultSlot } from "../../message/message-analysis.js";
import { type LintRule, NO_FINDINGS } from "./rule.js";

/** Zero-width and otherwise invisible format characters (no glyph, no width). */
const INVISIBLE =
  "\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B\u200C\u200D\u2060\u2061\u2062\u2063\u2064\uFEFF";
/** Bidirectional embeddings, overrides, isolates and marks. */
const BIDI = "\u200E\u200F\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069";

const RUN = new RegExp(`[${INVISIBLE}${BIDI}]+`, "gu");

/** Is `char` one this rule reports (so that `lint.non-gsm-character` leaves it alone)? */
export function isInvisibleOrBidi(char: string): boolean {
  return char.length === 1 && (INVISIBLE.includes(char) || BIDI.includes(char));
}

function codePoints(run: string): string {
  return [...run].map(codePointLabel).join(" ");
}

/** A run of invisible or bidi characters at `index` of a message. */
interface Run {
  readonly run: string;
  readonly index: number;
}

/** The slot of a message's runs in its analysis (message-analysis.ts): projects share messages. */
const RUNS = resultSlot<readonly Run[]>();

export const invisibleCharactersRule: LintRule = (project) => {
  const message = project.message;
  if (message === undefined) return NO_FINDINGS;
  const runs: readonly Run[] = analysisOf(message).remember(RUNS, "", "", "", () =>
    [...message.matchAll(RUN)].map((m) => ({ run: m[0], index: m.index })),
  );
  const inDefaults = defaultFindings(project, message);
  if (runs.length === 0) return inDefaults.length === 0 ? NO_FINDINGS : inDefaults;
  const out: Diagnostic[] = [...inDefaults];
  for (const match of runs) {
    const run = match.run;
    const bidi = [...run].some((c) => BIDI.includes(c));
    const range = project.locateInMessage(match.index, match.index + run.length);
    out.push(
      bidi
        ? {
            severity: "error",
            code: "lint.bidi-control",
            message: `${project.address}: the message holds bidirectional control characters (${codePoints(run)}) that reorder or hide text`,
            range,
            hint: "delete them: what recipients see would differ from what was reviewed, and the message becomes UCS-2",
          }
        : {
            severity: "warning",
            code: "lint.invisible-character",
            message: `${project.address}: the message holds invisible characters (${codePoints(run)})`,
            range,
            hint: "delete them (often pasted from a web page or a word processor): they show nothing but switch the message to UCS-2, which costs more segments",
          },
    );
  }
  return out;
};

/** The findings about the `merge_defaults` values the message sends (see the file comment). */
function defaultFindings(project: Parameters<LintRule>[0], message: string): Diagnostic[] {
  const defaults = project.mergeDefaults;
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const segment of analysisOf(message).parsed.segments) {
    if (segment.kind !== "tag" || seen.has(segment.name) || !sendsDefault(segment, defaults)) continue;
    seen.add(segment.name);
    const value = defaults[segment.name] ?? "";
    const found = [...value.matchAll(RUN)].map((m) => m[0]).join("");
    if (found === "") continue;
    const bidi = [...found].some((c) => BIDI.includes(c));
    const what = `${project.address}: the merge_defaults value of \`${segment.name}\`, which {{${segment.name}}} sends to every contact without one, holds`;
    const range = project.locateInMessage(segment.start, segment.end);
    out.push(
      bidi
        ? {
            severity: "error",
            code: "lint.bidi-control",
            message: `${what} bidirectional control characters (${codePoints(found)}) that reorder or hide text`,
            range,
            hint: `delete them from merge_defaults.${segment.name}: what recipients see would differ from what was reviewed, and the message becomes UCS-2`,
          }
        : {
            severity: "warning",
            code: "lint.invisible-character",
            message: `${what} invisible characters (${codePoints(found)})`,
            range,
            hint: `delete them from merge_defaults.${segment.name}: they show nothing but switch the message to UCS-2, which costs more segments`,
          },
    );
  }
  return out;
}

/** Whether a contact without a value gets the organization default at `tag` (no inline fallback). */
function sendsDefault(tag: TagSegment, defaults: Readonly<Record<string, string>>): boolean {
  return (tag.fallback === undefined || tag.fallback === "") && Object.hasOwn(defaults, tag.name);
}
