/** The shells `campaignctl completion` writes a script for (a light module: the registration reads it). */
export const SHELLS = ["bash", "zsh", "fish"] as const;

export type CompletionShell = (typeof SHELLS)[number];
