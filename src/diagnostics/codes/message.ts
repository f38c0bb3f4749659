/** Diagnostic codes of merge tags, rendering and segments. */
export const MESSAGE_CODES = {
  "message.placeholder": "reserved while the message area is built",
} as const;

export type MessageCode = keyof typeof MESSAGE_CODES;
