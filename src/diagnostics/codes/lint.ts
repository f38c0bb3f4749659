/** Diagnostic codes of content and schedule lint rules. */
export const LINT_CODES = {
  "lint.placeholder": "reserved while the lint rules are built",
} as const;

export type LintCode = keyof typeof LINT_CODES;
