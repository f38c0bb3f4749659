/** Diagnostic codes of the `apply` area. Each entry: a stable code and what it means. */
export const APPLY_CODES = {
  "apply.placeholder": "reserved while the apply area is built",
} as const;

export type ApplyCode = keyof typeof APPLY_CODES;
