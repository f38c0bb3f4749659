/** Types of replies-pattern-corpus.mjs, for test/replies/pattern-corpus.test.ts. */
import type { ThreadMessage } from "../src/contract/resources.js";

export declare const ATTACK_LENGTH: number;

export type PatternFamily =
  | "alternation"
  | "overlap"
  | "nested"
  | "look-around"
  | "back-reference"
  | "javascript-only"
  | "near-budget"
  | "large";

export interface CorpusPattern {
  readonly pattern: string;
  readonly family: PatternFamily;
  readonly unit: string;
  readonly tail: string;
}

export declare const PATTERN_CORPUS: readonly CorpusPattern[];

export declare function attackText(entry: CorpusPattern, length?: number): string;

export declare const INBOUND_ID: string;

export declare function inboundThread(text: string): ThreadMessage[];
