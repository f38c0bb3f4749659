/**
 * What a file named on the command line holds, judged before it is read as YAML: a campaign file, a
 * saved plan, or another format (a Markdown report, a JUnit XML, a gallery page, a text file), so that
 * `apply plan.md` gets one clear diagnostic instead of a screenful of YAML errors. Pure.
 *
 * A file is a campaign file when it says so: a YAML mapping with a top-level `version` key (the key
 * every campaign file starts with), whatever its name. Otherwise the name and the content decide:
 * `.yaml`/`.yml` files are always read as campaign files (a campaign file with a YAML error must get
 * its YAML diagnostics); a JSON object with `format_version` is a saved plan; `.md`, `.markdown`,
 * `.html`, `.htm`, `.xml`, `.txt` and `.json` files, and texts that start like XML or HTML or parse as
 * JSON, are another format; any other name is read as a campaign file (a campaign file may be named
 * anything when it is named explicitly).
 */
import { isMap, parseDocument } from "yaml";

/** The formats a file that is not a campaign file is recognised as. */
export type ForeignFormat = "Markdown" | "HTML" | "XML" | "JSON" | "plain text";

/**
 * What a file holds. Invariant: `plan` only for a JSON object carrying `format_version` (the mark of
 * every campaignctl plan document, of any format version).
 */
export type FileKind =
  | { readonly kind: "campaign" }
  | { readonly kind: "plan" }
  | { readonly kind: "foreign"; readonly format: ForeignFormat };

/** File name endings that are never campaign files unless their content says `version:`. */
const FOREIGN_EXTENSIONS: ReadonlyArray<readonly [string, ForeignFormat]> = [
  [".md", "Markdown"],
  [".markdown", "Markdown"],
  [".html", "HTML"],
  [".htm", "HTML"],
  [".xml", "XML"],
  [".txt", "plain text"],
  [".json", "JSON"],
];

const CAMPAIGN = { kind: "campaign" } as const;

/**
 * Does `name` end like a YAML file (`.yaml`, `.yml`, in any case: `PAUSE.YAML` too)? The one test,
 * for a file named on the command line and for a directory's entries alike.
 */
export function hasYamlExtension(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.endsWith(".yaml") || lower.endsWith(".yml");
}

/** The kind of the file named `name` (as given; only its ending counts) whose text is `text`. */
export function fileKindOf(name: string, text: string): FileKind {
  if (hasYamlExtension(name)) return CAMPAIGN;
  const lower = name.toLowerCase();
  const json = jsonKind(text);
  if (json !== undefined) return json;
  const byName = FOREIGN_EXTENSIONS.find(([ext]) => lower.endsWith(ext))?.[1];
  const byContent = markupFormat(text);
  if (byName === undefined && byContent === undefined) return CAMPAIGN;
  return hasVersionKey(text) ? CAMPAIGN : { kind: "foreign", format: byName ?? byContent ?? "plain text" };
}

/** A text that parses as JSON: a plan, a campaign file written as JSON, or other JSON; else undefined. */
function jsonKind(text: string): FileKind | undefined {
  const start = text.trimStart();
  if (!start.startsWith("{") && !start.startsWith("[")) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const object = typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
  if (object !== undefined && "format_version" in object) return { kind: "plan" };
  if (object !== undefined && "version" in object) return CAMPAIGN;
  return { kind: "foreign", format: "JSON" };
}

/** XML or HTML by the text's first characters (no campaign file starts with `<`). */
function markupFormat(text: string): ForeignFormat | undefined {
  const start = text.trimStart().slice(0, 256).toLowerCase();
  if (!start.startsWith("<")) return undefined;
  return /^<!doctype html|^<html[\s>]/.test(start) ? "HTML" : "XML";
}

/** Does the text read as a YAML mapping with a top-level `version` key (errors elsewhere allowed)? */
function hasVersionKey(text: string): boolean {
  if (!/^["']?version["']?[ \t]*:/m.test(text)) return false;
  const doc = parseDocument(text, { uniqueKeys: false, prettyErrors: false });
  return isMap(doc.contents) && doc.contents.has("version");
}

/** How a report names a foreign format: `Markdown`, `a JUnit or other XML file`, ... */
export function describeForeign(format: ForeignFormat): string {
  switch (format) {
    case "Markdown":
      return "Markdown (a report, such as the one `plan --markdown` writes?)";
    case "HTML":
      return "an HTML page";
    case "XML":
      return "XML (a JUnit report, such as the one `--junit` writes?)";
    case "JSON":
      return "JSON without the `format_version` of a saved plan";
    case "plain text":
      return "plain text, not YAML with `version: 1`";
  }
}
