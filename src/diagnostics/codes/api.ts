/** Diagnostic codes of the `api` area. Each entry: a stable code and what it means. */
export const API_CODES = {
  "api.placeholder": "reserved while the api area is built",
} as const;

export type ApiCode = keyof typeof API_CODES;
