// Issue 34's corpus of backtracking reply patterns: each must be refused by validate or judged in
// linear time. Shared by test/replies/pattern-corpus.test.ts (the acceptance) and
// bench/replies-patterns.mjs (the figures). Each entry: the pattern, its family, and the text that
// makes a backtracking engine explode on it (`unit` repeated, then `tail`), padded to `length`.

/** The API's longest inbound text: what one judgement is measured at. */
export const ATTACK_LENGTH = 1600;

/** @type {readonly import("./replies-pattern-corpus.d.mts").CorpusPattern[]} */
export const PATTERN_CORPUS = [
  // Alternation under repetition (the first two, then their kin).
  { pattern: "(?:a|[ab])+c$", family: "alternation", unit: "a", tail: "!" },
  { pattern: "^(a|ab|b)*c$", family: "alternation", unit: "ab", tail: "!" },
  { pattern: "(a|a)+$", family: "alternation", unit: "a", tail: "!" },
  { pattern: "(a|aa)+$", family: "alternation", unit: "a", tail: "!" },
  { pattern: "(a|a?)+b", family: "alternation", unit: "a", tail: "!" },
  { pattern: "^(\\w|\\d)+!$", family: "alternation", unit: "1", tail: "?" },
  { pattern: "(x|xx|xxx)*y", family: "alternation", unit: "x", tail: "z" },
  { pattern: "(.|\\s)*#", family: "alternation", unit: " ", tail: "!" },
  { pattern: "((ab)*|a)*c", family: "alternation", unit: "ab", tail: "!" },
  { pattern: "(?:where|wh|w|h|e|r)+\\?$", family: "alternation", unit: "where", tail: "!" },
  { pattern: "^(?:vote|v|o|t|e)+ now$", family: "alternation", unit: "vote", tail: " later" },
  { pattern: "(a|b|ab)*bc", family: "alternation", unit: "ab", tail: "!" },
  { pattern: "(foo|f|o|fo)+bar", family: "alternation", unit: "foo", tail: "baz" },
  { pattern: "^(who|is|this|\\s)+\\?$", family: "alternation", unit: "who is this ", tail: "!" },
  // Overlapping classes.
  { pattern: "[ab]*[ac]*[ad]*e", family: "overlap", unit: "a", tail: "!" },
  { pattern: "\\w*\\d*\\w*!", family: "overlap", unit: "1", tail: "?" },
  { pattern: "(\\w+\\s?)+$", family: "overlap", unit: "ab ", tail: "!" },
  { pattern: "^[\\w\\s]+[\\s\\w]+\\.$", family: "overlap", unit: "a ", tail: "!" },
  { pattern: "(\\d+|\\w+)+@", family: "overlap", unit: "a1", tail: "!" },
  { pattern: "^(\\p{L}+\\s?)+$", family: "overlap", unit: "é ", tail: "1" },
  { pattern: "[a-z]+[a-y]+[a-x]+1", family: "overlap", unit: "a", tail: "!" },
  { pattern: "(.*a){12}", family: "overlap", unit: "a", tail: "" },
  { pattern: "^(([a-z])+.)+[A-Z]([a-z])+$", family: "overlap", unit: "aa", tail: "!" },
  {
    pattern:
      "^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$",
    family: "overlap",
    unit: "a",
    tail: "!",
  },
  { pattern: ".*.*.*.*.*.*.*.*=", family: "overlap", unit: "a", tail: "" },
  { pattern: "^(\\s*\\w+\\s*)*$", family: "overlap", unit: "a ", tail: "!" },
  // Nested repetition.
  { pattern: "^(a+)+$", family: "nested", unit: "a", tail: "!" },
  { pattern: "(a*)*b", family: "nested", unit: "a", tail: "" },
  { pattern: "((a+)*)+c", family: "nested", unit: "a", tail: "!" },
  { pattern: "(x+x+)+y", family: "nested", unit: "x", tail: "" },
  { pattern: "^((\\w+)*\\s?)*$", family: "nested", unit: "ab", tail: "!" },
  // Look-around (the third first).
  { pattern: "^(?=(?:x|[xy])+z)", family: "look-around", unit: "x", tail: "!" },
  { pattern: "^(?!.*stop).*(vote)", family: "look-around", unit: "a", tail: "" },
  { pattern: "(?<=where )vote", family: "look-around", unit: "where ", tail: "" },
  { pattern: "(?<!not )vote", family: "look-around", unit: "not ", tail: "" },
  { pattern: "^(?=.*\\bwho\\b)(?=.*\\bthis\\b).*$", family: "look-around", unit: "who ", tail: "" },
  { pattern: "\\b(?=\\w*ing)\\w+", family: "look-around", unit: "a", tail: "" },
  { pattern: "^(?=(a+)+$)", family: "look-around", unit: "a", tail: "!" },
  // Back-references.
  { pattern: "(a+)\\1+$", family: "back-reference", unit: "a", tail: "!" },
  { pattern: "^(\\w+)\\s\\1$", family: "back-reference", unit: "a", tail: "!" },
  { pattern: "([\"'])(?:(?!\\1).)*\\1", family: "back-reference", unit: '"a', tail: "" },
  { pattern: "(\\w)\\1{2,}", family: "back-reference", unit: "ab", tail: "" },
  { pattern: "(a*)*\\1b", family: "back-reference", unit: "a", tail: "" },
  { pattern: "(?<word>\\w+) \\k<word>", family: "back-reference", unit: "ab ", tail: "" },
  // JavaScript-only syntax RE2 refuses.
  { pattern: "\\u0061+b", family: "javascript-only", unit: "a", tail: "" },
  { pattern: "[^]*x", family: "javascript-only", unit: "a", tail: "" },
  // Programs just under the budget: the slowest RE2 gets (where it falls back from its DFA).
  { pattern: "(.*a){39}", family: "near-budget", unit: "a", tail: "" },
  { pattern: "(\\p{L}|\\p{N}){65}z", family: "near-budget", unit: "a", tail: "" },
  { pattern: "(\\w+\\s*){0,28}x", family: "near-budget", unit: "a ", tail: "" },
  { pattern: "(a|aa){0,28}b", family: "near-budget", unit: "a", tail: "" },
  { pattern: "((a?){39}a{39})", family: "near-budget", unit: "a", tail: "" },
  { pattern: "[\\p{L}\\p{N}]{197}q", family: "near-budget", unit: "a", tail: "" },
  // Programs over the budget (linear, but with a large constant).
  { pattern: "(\\w+\\s*){0,100}x", family: "large", unit: "a ", tail: "" },
  { pattern: "[\\p{L}\\p{N}]{600}q", family: "large", unit: "a", tail: "" },
  { pattern: "((a?){300}a{300})", family: "large", unit: "a", tail: "" },
];

/** The attack text of `entry`: `unit` repeated, then `tail`, exactly `length` characters. */
export function attackText(entry, length = ATTACK_LENGTH) {
  const body = length - entry.tail.length;
  return entry.unit.repeat(Math.ceil(body / entry.unit.length)).slice(0, body) + entry.tail;
}

/** The id of the one inbound of `inboundThread`: what a judgement is asked about. */
export const INBOUND_ID = "m1";

/**
 * A conversation's thread holding one inbound, `text`, received (the contract's ThreadMessage):
 * what `decideInbound` judges in the corpus's acceptance and figures alike.
 */
export function inboundThread(text) {
  return [
    {
      message_id: INBOUND_ID,
      direction: "inbound",
      text,
      media_urls: [],
      status: "received",
      sent_at: null,
      delivered_at: null,
      received_at: "2026-11-03T12:00:00.000Z",
      error_code: null,
    },
  ];
}
