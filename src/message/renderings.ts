/**
 * The texts a contact can receive from one message: a rule about what every recipient reads (opt-out
 * language) must hold in each of them, not in the message as written. `{{optout|Reply STOP to opt
 * out}}` shows its fallback only to a contact with no `optout` value; every other contact gets their
 * own value instead. Pure.
 *
 * A contact's value is unknown when the files are checked, so it stands as {@link CONTACT_VALUE}, a
 * short word with no meaning of its own. The renderings judged: every tag falling back (a contact
 * with no values, as the preview shows it), each tag alone taking a contact value, and every tag
 * taking one. A rule whose wording sits in a tag's fallback fails the rendering where that tag has
 * a value; wording in the message's own text holds in all of them.
 */

import { wordList } from "../text/word-list.js";
import { TextMemo } from "./memo.js";
import { parseMergeTags } from "./merge-tags.js";
import { tagNames, tagValuesKey } from "./message-key.js";
import { type MergeValues, render } from "./render.js";

/** What stands for a contact's own value of a tag: a word, so it also joins a neighbouring word. */
export const CONTACT_VALUE = "x";

/**
 * One text a contact can receive. Invariant: `valued` lists the tags (by name, in message order, no
 * repeats) that took a contact's value in this rendering; the rest fell back.
 */
export interface PossibleRendering {
  readonly text: string;
  readonly valued: readonly string[];
}

/**
 * Every rendering a contact can get, as described above; the no-values rendering first. Remembered
 * per message and the organization defaults of its tags (memo.ts): the projects of a campaign share
 * a few messages, each rendered once. The result is shared: never change it.
 */
export function possibleRenderings(
  message: string,
  mergeDefaults: MergeValues,
): readonly PossibleRendering[] {
  return remembered.get(message, tagValuesKey(message, mergeDefaults), () =>
    renderingsOf(message, mergeDefaults),
  );
}

const remembered = new TextMemo<readonly PossibleRendering[]>();

/**
 * `possibleRenderings`, computed every time: for callers that remember the result themselves (lint,
 * once per message text and defaults: message-analysis.ts), where a memo by text would only miss.
 */
export function renderingsOf(message: string, mergeDefaults: MergeValues): PossibleRendering[] {
  const parsed = parseMergeTags(message);
  const names = tagNames(parsed);
  const rendered = (valued: readonly string[]): PossibleRendering => ({
    text: render(parsed, Object.fromEntries(valued.map((n) => [n, CONTACT_VALUE])), mergeDefaults).text,
    valued,
  });
  const out = [rendered([])];
  if (names.length === 0) return out;
  for (const name of names) out.push(rendered([name]));
  if (names.length > 1) out.push(rendered(names));
  return out;
}

/**
 * The first rendering in which `holds` is false, or undefined when it holds in every rendering a
 * contact can get.
 */
export function renderingWithout(
  message: string,
  mergeDefaults: MergeValues,
  holds: (text: string) => boolean,
): PossibleRendering | undefined {
  return possibleRenderings(message, mergeDefaults).find((r) => !holds(r.text));
}

/** `a contact with no values`, `a contact with a value for optout`, `... for first_name and optout`. */
export function describeContact(rendering: PossibleRendering): string {
  const names = rendering.valued;
  if (names.length === 0) return "a contact with no values";
  return `a contact with a value for ${wordList(names)}`;
}
