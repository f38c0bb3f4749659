/**
 * What completion and hover read from a campaign file besides the cursor's place, tolerant of a
 * file being typed: the organization it names, its declared `fields` and its `merge_defaults`.
 * Pure; a text that does not parse gives what a line-by-line reading finds.
 */
import { parseDocument } from "yaml";

export interface DocumentFacts {
  /** The top-level `organization:` (name or id), if written. */
  readonly organization?: string;
  readonly fields: readonly string[];
  readonly mergeDefaults: Readonly<Record<string, string>>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function documentFacts(text: string): DocumentFacts {
  let root: unknown;
  try {
    root = parseDocument(text, { uniqueKeys: false }).toJS({ maxAliasCount: 100 });
  } catch {
    root = undefined;
  }
  if (!isRecord(root)) {
    const organization = /^organization:[ \t]*["']?([^"'#\r\n]+?)["']?[ \t]*(?:#.*)?$/m.exec(text)?.[1];
    return { ...(organization === undefined ? {} : { organization }), fields: [], mergeDefaults: {} };
  }
  const organization = typeof root.organization === "string" ? root.organization : undefined;
  const fields = Array.isArray(root.fields)
    ? root.fields.filter((f): f is string => typeof f === "string")
    : [];
  const defaults = isRecord(root.merge_defaults) ? root.merge_defaults : {};
  const mergeDefaults = Object.fromEntries(
    Object.entries(defaults).flatMap(([k, v]) =>
      typeof v === "string" || typeof v === "number" ? [[k, String(v)]] : [],
    ),
  );
  return { ...(organization === undefined ? {} : { organization }), fields, mergeDefaults };
}
