/** The command `argv` runs: its first word that is not an option (the root's options take no value). */
export function commandWord(argv: readonly string[]): string | undefined {
  for (const word of argv) {
    if (word === "--") return undefined;
    if (!word.startsWith("-")) return word;
  }
  return undefined;
}
