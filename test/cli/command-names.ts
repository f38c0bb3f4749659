/** The top-level commands in the order `help` lists them (the order of cli/program.ts), `help` last. */
export const COMMAND_NAMES: readonly string[] = [
  "init",
  "validate",
  "preview",
  "plan",
  "apply",
  "import",
  "status",
  "watch",
  "results",
  "webhooks",
  "replies",
  "sandbox",
  "lsp",
  "completion",
  "version",
  "help",
];
