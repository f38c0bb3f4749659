/**
 * One analysis per distinct message text, shared by every rule that reads the text (lint runs six
 * rules on each project's message, and a campaign's projects share few messages or none): the
 * parsed merge tags, their names, whether GSM-7 carries the text as written, and the results that
 * depend on the text and on values (renderings, merge tag findings, segment figures), each computed
 * once per text and values rather than once per rule and project. Pure as long as the computations
 * given to `remember` are.
 *
 * Keys by identity, then by content: what a result depends on besides the text is a map of merge
 * values (`merge_defaults`, a test contact's values), and only the values of the message's own tags
 * count (message-key.ts). `valuesKey` reads those values once per map object (the projects of a
 * file share one `merge_defaults` object) and gives the same string object each time, so the
 * lookups by it hash nothing; maps of equal values made apart (a template's instances) get equal
 * keys, so they share results too. Invariant: a map of values is never changed once made (every
 * `MergeValues` is read-only).
 */
import { gsm7Length } from "./gsm7.js";
import { MAX_REMEMBERED } from "./memo.js";
import { type ParsedMessage, parseMergeTags } from "./merge-tags.js";
import { tagNames } from "./message-key.js";
import type { MergeValues } from "./render.js";

/** Results remembered per analysis (all slots and keys together); past it they start again. */
const MAX_RESULTS = 64;

/** Distinct value maps whose keys one analysis remembers; past it they start again. */
const MAX_VALUE_MAPS = 16;

/**
 * What a message's rules share. Invariants: `parsed` is `parseMergeTags(text)` and `names` its
 * distinct tag names in order; every remembered result is the computation's for the same text and
 * keys, and results are shared, so they are never changed.
 */
export class MessageAnalysis {
  readonly text: string;
  readonly parsed: ParsedMessage;
  readonly names: readonly string[];
  private gsm7: boolean | undefined;
  private lastMap: MergeValues | undefined;
  private lastKey = "";
  private keys: Map<MergeValues, string> | undefined;
  /** By slot index. */
  private readonly slots: (SlotMemo<unknown> | undefined)[] = [];
  private resultCount = 0;

  constructor(text: string) {
    this.text = text;
    this.parsed = parseMergeTags(text);
    this.names = tagNames(this.parsed);
  }

  /** Does GSM-7 carry every character of the text as written (tags and all)? */
  get isGsm7(): boolean {
    this.gsm7 ??= gsm7Length(this.text) !== undefined;
    return this.gsm7;
  }

  /**
   * What `map` gives this message's tags, as one string (`tagValuesKey(text, map)`), the same
   * string object for the same map object.
   */
  valuesKey(map: MergeValues): string {
    if (this.names.length === 0) return "";
    if (map === this.lastMap) return this.lastKey;
    let key = this.keys?.get(map);
    if (key === undefined) {
      key = "";
      for (const name of this.names) {
        const value = (Object.hasOwn(map, name) ? map[name] : undefined) ?? "";
        key += `${value.length}:${value}`;
      }
      // A second map: from now on they are kept by map (most texts only ever see one).
      if (this.lastMap !== undefined) {
        this.keys ??= new Map([[this.lastMap, this.lastKey]]);
        if (this.keys.size >= MAX_VALUE_MAPS) this.keys.clear();
        this.keys.set(map, key);
      }
    }
    this.lastMap = map;
    this.lastKey = key;
    return key;
  }

  /**
   * The result of `compute` for this text in `slot` and three keys (compared as Map keys: strings
   * by value, objects by identity; `""` for a key a result does not use), computed at the first
   * call and remembered. The keys must name everything else `compute` reads. The last keys of each
   * slot are checked first: the projects of a file mostly ask with the same ones.
   */
  remember<T>(slot: ResultSlot<T>, first: unknown, second: unknown, third: unknown, compute: () => T): T {
    let memo = this.slots[slot.index] as SlotMemo<T> | undefined;
    if (memo?.find(first, second, third)) return memo.value;
    const value = compute();
    if (this.resultCount >= MAX_RESULTS) {
      this.slots.length = 0;
      this.resultCount = 0;
      memo = undefined;
    }
    if (memo === undefined) this.slots[slot.index] = new SlotMemo<T>(first, second, third, value);
    else memo.add(first, second, third, value);
    this.resultCount += 1;
    return value;
  }
}

/**
 * A kind of result an analysis remembers (one constant per kind, made by `resultSlot`): `T` is
 * the type of its results.
 */
export interface ResultSlot<T> {
  readonly index: number;
  /** Never set: carries `T`. */
  readonly type?: T;
}

let slots = 0;

/** A new kind of result, for a module's constant. */
export function resultSlot<T>(): ResultSlot<T> {
  const slot: ResultSlot<T> = { index: slots };
  slots += 1;
  return slot;
}

/**
 * One slot's results in one analysis: the last keys asked for and their result, and, once a second
 * set of keys comes (most texts only ever see one), every result by its keys.
 */
class SlotMemo<T> {
  private byKeys: Map<unknown, Map<unknown, Map<unknown, T>>> | undefined;
  first: unknown;
  second: unknown;
  third: unknown;
  value: T;

  constructor(first: unknown, second: unknown, third: unknown, value: T) {
    this.first = first;
    this.second = second;
    this.third = third;
    this.value = value;
  }

  /** Is the result for these keys remembered? Then it is `value` (they become the last keys). */
  find(first: unknown, second: unknown, third: unknown): boolean {
    if (this.first === first && this.second === second && this.third === third) return true;
    const known = this.byKeys?.get(first)?.get(second);
    if (known === undefined || !known.has(third)) return false;
    this.set(first, second, third, known.get(third) as T);
    return true;
  }

  /** Remembers `value` for these keys (not remembered yet); they become the last keys. */
  add(first: unknown, second: unknown, third: unknown, value: T): void {
    if (this.byKeys === undefined) {
      this.byKeys = new Map();
      this.keep(this.first, this.second, this.third, this.value);
    }
    this.keep(first, second, third, value);
    this.set(first, second, third, value);
  }

  private keep(first: unknown, second: unknown, third: unknown, value: T): void {
    const byKeys = this.byKeys as Map<unknown, Map<unknown, Map<unknown, T>>>;
    let byFirst = byKeys.get(first);
    if (byFirst === undefined) {
      byFirst = new Map();
      byKeys.set(first, byFirst);
    }
    let bySecond = byFirst.get(second);
    if (bySecond === undefined) {
      bySecond = new Map();
      byFirst.set(second, bySecond);
    }
    bySecond.set(third, value);
  }

  private set(first: unknown, second: unknown, third: unknown, value: T): void {
    this.first = first;
    this.second = second;
    this.third = third;
    this.value = value;
  }
}

const analyses = new Map<string, MessageAnalysis>();

/**
 * The analysis of `text`, made at its first use and shared (up to MAX_REMEMBERED texts, then they
 * start again): one per distinct message, not one per rule or project.
 */
export function analysisOf(text: string): MessageAnalysis {
  let analysis = analyses.get(text);
  if (analysis === undefined) {
    analysis = new MessageAnalysis(text);
    if (analyses.size >= MAX_REMEMBERED) analyses.clear();
    analyses.set(text, analysis);
  }
  return analysis;
}
