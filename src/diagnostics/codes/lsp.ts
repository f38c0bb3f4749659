/** Diagnostic codes of `campaignctl lsp`, the language server. Each entry: a stable code and what it means. */
export const LSP_CODES = {
  "lsp.internal-error":
    "the language server failed on this document (a bug in campaignctl: please report it); the message says what failed, and `campaignctl validate FILE` shows whether the command line fails too",
} as const;

export type LspCode = keyof typeof LSP_CODES;
