/** Words as a sentence lists them: `a`, `a and b`, `a, b and c` (empty for none). Pure. */
export function wordList(words: readonly string[]): string {
  return words.length < 2 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}
