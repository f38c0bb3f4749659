/**
 * What a message's renderings depend on besides its text, for memos of them (memo.ts `TextMemo`):
 * for each of its tags, the value each map gives it (an absent value and an empty one render alike,
 * render.ts). Values of names the message has no tag for do not count, so projects that share a
 * message share its key. Pure.
 */
import { type ParsedMessage, parseMergeTags, tagsOf } from "./merge-tags.js";
import type { MergeValues } from "./render.js";

/** The distinct tag names of a parsed message, in order (parsed messages are remembered too). */
const namesOfParsed = new WeakMap<ParsedMessage, readonly string[]>();

/** The distinct names of `parsed`'s tags, in message order. */
export function tagNames(parsed: ParsedMessage): readonly string[] {
  let names = namesOfParsed.get(parsed);
  if (names === undefined) {
    names = [...new Set(tagsOf(parsed).map((t) => t.name))];
    namesOfParsed.set(parsed, names);
  }
  return names;
}

/**
 * What each of `maps` gives each tag of `message`, as one string (the message itself is not in it).
 * Every value is prefixed with its length, so two different lists of values never share a key.
 */
export function tagValuesKey(message: string, ...maps: readonly MergeValues[]): string {
  let key = "";
  const names = tagNames(parseMergeTags(message));
  for (const map of maps)
    for (const name of names) {
      const value = (Object.hasOwn(map, name) ? map[name] : undefined) ?? "";
      key += `${value.length}:${value}`;
    }
  return key;
}
