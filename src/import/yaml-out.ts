/**
 * The small YAML tree import writes (values with the comments that explain them), and the managed
 * keys of a project in the order import writes them. Pure data.
 */

/**
 * A value to write. `message` scalars are written as block scalars (folded for reading, literal when
 * the text has line breaks) or double-quoted when no block scalar reproduces the text exactly.
 * `comment` is a trailing comment on the scalar's line; a map's `notes` are comment lines after it.
 */
export type YamlOut =
  | {
      readonly kind: "scalar";
      readonly value: string | number | boolean;
      readonly message?: boolean;
      readonly comment?: string;
    }
  | { readonly kind: "seq"; readonly items: readonly YamlOut[] }
  | {
      readonly kind: "map";
      readonly pairs: readonly (readonly [string, YamlOut])[];
      readonly notes?: readonly string[];
    };

export const scalar = (value: string | number | boolean, comment?: string): YamlOut =>
  comment === undefined ? { kind: "scalar", value } : { kind: "scalar", value, comment };

/** A plain JSON-like value (as read from a file) as a YamlOut, without comments. */
export function outOf(value: unknown): YamlOut {
  if (Array.isArray(value)) return { kind: "seq", items: value.map(outOf) };
  if (value !== null && typeof value === "object")
    return { kind: "map", pairs: Object.entries(value).map(([k, v]) => [k, outOf(v)] as const) };
  if (typeof value === "boolean" || typeof value === "number") return scalar(value);
  return scalar(String(value));
}

/** The project keys import manages (sets, replaces or removes), in the order it writes them. */
export const MANAGED_KEYS = [
  "name",
  "type",
  "channel",
  "brand",
  "campaign",
  "toll_free_verification",
  "phone_numbers",
  "contact_lists",
  "suppression_lists",
  "media",
  "message",
  "link_tracking",
  "opt_out_footer",
  "state",
  "schedule",
  "pause",
] as const;

/** A project key import sets, replaces or removes (any other key it leaves as written). */
export type ManagedKey = (typeof MANAGED_KEYS)[number];

/** Every project key in writing order: where a key import adds goes among those already written. */
export const PROJECT_KEY_ORDER: readonly string[] = [
  "id",
  ...MANAGED_KEYS.slice(0, MANAGED_KEYS.indexOf("state") + 1),
  "test",
  "schedule",
  "pause",
  "after",
];

/** Top-level keys of a campaign file in writing order. */
export const FILE_KEY_ORDER: readonly string[] = [
  "version",
  "organization",
  "merge_defaults",
  "fields",
  "defaults",
  "projects",
];

/** Keys `defaults` may group (content shared by projects; never lifecycle or identity). */
export const GROUPABLE_KEYS: readonly ManagedKey[] = [
  "channel",
  "brand",
  "campaign",
  "toll_free_verification",
  "phone_numbers",
  "contact_lists",
  "suppression_lists",
  "media",
  "link_tracking",
  "opt_out_footer",
];
