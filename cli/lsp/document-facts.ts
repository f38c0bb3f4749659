/**
 * What completion and hover read from a campaign file besides the cursor's place, tolerant of a
 * file being typed: the organization it names, its declared `fields` and its `merge_defaults`.
 * Pure. Each of the three keys is read on its own, so a mistake anywhere else in the file (a
 * project's YAML error, an alias that expands too far, a key that is not a string) loses nothing
 * of them; a text whose top is not a mapping gives what a line-by-line reading finds.
 */
import { type Document, isMap, isNode, parseDocument } from "yaml";

export interface DocumentFacts {
  /** The top-level `organization:` (name or id), if written. */
  readonly organization?: string;
  readonly fields: readonly string[];
  readonly mergeDefaults: Readonly<Record<string, string>>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The plain value of the top-level `key`, or undefined where it is missing or cannot be built. */
function topValue(doc: Document, key: string): unknown {
  const node: unknown = doc.get(key, true);
  if (!isNode(node)) return node;
  try {
    return node.toJS(doc, { maxAliasCount: 100 });
  } catch {
    return undefined;
  }
}

export function documentFacts(text: string): DocumentFacts {
  let doc: Document | undefined;
  try {
    doc = parseDocument(text, { uniqueKeys: false, logLevel: "error" });
  } catch {
    doc = undefined;
  }
  if (doc === undefined || !isMap(doc.contents)) {
    const organization = /^organization:[ \t]*["']?([^"'#\r\n]+?)["']?[ \t]*(?:#.*)?$/m.exec(text)?.[1];
    return { ...(organization === undefined ? {} : { organization }), fields: [], mergeDefaults: {} };
  }
  const named = topValue(doc, "organization");
  const organization = typeof named === "string" ? named : undefined;
  const listed = topValue(doc, "fields");
  const fields = Array.isArray(listed) ? listed.filter((f): f is string => typeof f === "string") : [];
  const written = topValue(doc, "merge_defaults");
  const defaults = isRecord(written) ? written : {};
  const mergeDefaults = Object.fromEntries(
    Object.entries(defaults).flatMap(([k, v]) =>
      typeof v === "string" || typeof v === "number" ? [[k, String(v)]] : [],
    ),
  );
  return { ...(organization === undefined ? {} : { organization }), fields, mergeDefaults };
}
