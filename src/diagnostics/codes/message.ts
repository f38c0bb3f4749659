/** Diagnostic codes of merge tags, rendering and segments. */
export const MESSAGE_CODES = {
  "message.unclosed-tag": "a `{{` has no matching `}}` before the next `{{` or the end of the message",
  "message.stray-close": "a `}}` closes no open `{{`",
  "message.empty-tag-name": "a merge tag has no field name, as in `{{}}` or `{{|friend}}`",
  "message.invalid-tag-name": "a merge tag's name is not a field name (`[A-Za-z_][A-Za-z0-9_]*`)",
  "message.unknown-tag": "a merge tag names a field that is neither standard nor declared under `fields`",
  "message.tag-may-render-empty":
    "a merge tag has no inline fallback and no `merge_defaults` entry, so it can render empty",
} as const;

export type MessageCode = keyof typeof MESSAGE_CODES;
