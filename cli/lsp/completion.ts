/**
 * Completion in a campaign file, pure: mapping keys from the campaign file schema at the cursor's
 * place (with the schema's title and description), the values the schema lists there (`enum`,
 * `const`: states, channels, time zones), and for `after:` the addresses of the projects
 * declared in the file and the other files of its workspace folder (the project's own left out).
 * Names of lists, numbers, brands, registrations and tracking domains come from the offline
 * snapshot of the file's organization, and merge tags from the standard fields, the file's
 * `fields` and `merge_defaults` and the snapshot's fields. Nothing is looked up over the network.
 * A key-shaped name (src/contract/key-shaped.ts) is never offered, and no detail shows one:
 * inserted, it would write a key into the file.
 */
import { type CompletionItem, CompletionItemKind } from "vscode-languageserver";
import { keyShapedRuns, maskKeyShaped } from "../../src/contract/key-shaped.js";
import { type CursorSpot, cursorSpot } from "./yaml-path.js";

type Schema = Readonly<Record<string, unknown>>;

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `#/$defs/x` of `root`. */
function resolve(root: Schema, node: Schema): Schema {
  const ref = node.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/")) return node;
  let target: unknown = root;
  for (const part of ref.slice(2).split("/")) target = isSchema(target) ? target[part] : undefined;
  return isSchema(target) ? target : node;
}

/** Every subschema that describes the same value as `node` ($ref, allOf, anyOf, oneOf), `node` first. */
function alternatives(root: Schema, node: Schema, depth = 0): Schema[] {
  if (depth > 8) return [node];
  const out: Schema[] = [node];
  if (typeof node.$ref === "string") out.push(...alternatives(root, resolve(root, node), depth + 1));
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    const list = node[key];
    if (Array.isArray(list))
      for (const sub of list) if (isSchema(sub)) out.push(...alternatives(root, sub, depth + 1));
  }
  return out;
}

/** The schema of the value at `path` ("[]" an array item), or undefined where the schema says nothing. */
function schemaAt(root: Schema, path: readonly string[]): Schema[] {
  let nodes: Schema[] = [root];
  for (const step of path) {
    const next: Schema[] = [];
    for (const node of nodes.flatMap((n) => alternatives(root, n))) {
      if (step === "[]") {
        if (isSchema(node.items)) next.push(node.items);
        continue;
      }
      const properties = node.properties;
      const own = isSchema(properties) && Object.hasOwn(properties, step) ? properties[step] : undefined;
      if (isSchema(own)) next.push(own);
      else if (own === undefined && isSchema(node.additionalProperties)) next.push(node.additionalProperties);
    }
    nodes = next;
  }
  return nodes;
}

/** The keys the schema allows in the mapping at `path`, each with its subschema (a key set `false` is left out). */
export function keysAt(root: Schema, path: readonly string[]): Map<string, Schema> {
  const keys = new Map<string, Schema>();
  const forbidden = new Set<string>();
  for (const node of schemaAt(root, path).flatMap((n) => alternatives(root, n))) {
    const properties = node.properties;
    if (!isSchema(properties)) continue;
    for (const [key, sub] of Object.entries(properties)) {
      if (sub === false) forbidden.add(key);
      else if (isSchema(sub) && !keys.has(key)) keys.set(key, resolve(root, sub));
      else if (sub === true && !keys.has(key)) keys.set(key, {});
    }
  }
  for (const key of forbidden) keys.delete(key);
  return keys;
}

/**
 * The values the schema allows at `path` (`enum` and `const`, an array's items' included), each
 * with the description of the schema that lists it.
 */
export function valuesAt(root: Schema, path: readonly string[]): Map<string, string | undefined> {
  const values = new Map<string, string | undefined>();
  const nodes = schemaAt(root, path).flatMap((n) => alternatives(root, n));
  const withItems = [
    ...nodes,
    ...nodes.flatMap((n) => (isSchema(n.items) ? alternatives(root, n.items) : [])),
  ];
  for (const node of withItems) {
    const listed = Array.isArray(node.enum) ? node.enum : "const" in node ? [node.const] : [];
    const description = typeof node.description === "string" ? node.description : undefined;
    for (const value of listed)
      if (typeof value === "string" && !values.has(value)) values.set(value, description);
  }
  return values;
}

/** The keys whose values name a record of the organization, and what each names. */
export const NAME_KEYS = {
  contact_lists: "contact list",
  suppression_lists: "suppression list",
  phone_numbers: "phone number",
  brand: "brand",
  campaign: "10DLC campaign registration",
  toll_free_verification: "toll-free verification",
  domain: "tracking domain",
} as const;

export type NameKey = keyof typeof NAME_KEYS;

/** The key of `path` when its value names a record (a project's or `defaults`'), else undefined. */
export function nameKeyOf(path: readonly string[]): NameKey | undefined {
  const key = path.at(-1);
  if (key === undefined || !(key in NAME_KEYS)) return undefined;
  if (key === "domain") return path.at(-2) === "link_tracking" ? "domain" : undefined;
  return key as NameKey;
}

/** One name offered for a record, with what to show beside it. */
export interface NameChoice {
  readonly name: string;
  readonly detail: string;
}

/** What completion knows besides the text: the schema, and the addresses declared around the file. */
export interface CompletionSources {
  readonly schema: Schema;
  /** Addresses declared in the document and in the other files of its workspace folder. */
  readonly addresses: readonly string[];
  /** The names of each kind of record, from the snapshot; undefined when there is no snapshot. */
  readonly names?: (key: NameKey) => readonly NameChoice[];
  /** The fields a merge tag may name, each with where it comes from. */
  readonly mergeFields?: ReadonlyMap<string, string>;
}

/** A name as a YAML value: plain when that reads back as the same string, else double-quoted. */
function yamlName(name: string): string {
  return /^[A-Za-z][A-Za-z0-9 _.()&'-]*$/.test(name) &&
    !/ $/.test(name) &&
    !/^(true|false|null|yes|no|on|off)$/i.test(name)
    ? name
    : JSON.stringify(name);
}

/** The completion items at `line`, `character` (0-based, UTF-16) of `text`, none of them key-shaped. */
export function completionsAt(
  text: string,
  line: number,
  character: number,
  sources: CompletionSources,
): CompletionItem[] {
  return itemsWithEdits(text, line, character, sources)
    .filter((item) => keyShapedRuns(`${item.label} ${item.textEdit?.newText ?? ""}`).length === 0)
    .map((item) => (item.detail === undefined ? item : { ...item, detail: maskKeyShaped(item.detail) }));
}

function itemsWithEdits(
  text: string,
  line: number,
  character: number,
  sources: CompletionSources,
): CompletionItem[] {
  const before = (text.split(/\r?\n/)[line] ?? "").slice(0, character);
  const tag = /\{\{\s*([A-Za-z0-9_]*)$/.exec(before);
  if (tag !== null) {
    const prefix = tag[1] ?? "";
    const range = { start: { line, character: character - prefix.length }, end: { line, character } };
    return [...(sources.mergeFields ?? [])]
      .filter(([field]) => field.startsWith(prefix))
      .map(([field, from]) => ({
        label: field,
        kind: CompletionItemKind.Field,
        detail: from,
        textEdit: { range, newText: field },
      }));
  }
  const spot = cursorSpot(text, line, character);
  if (spot.kind === "other") return [];
  // Each item replaces what was typed of it (a zone's `America/` included, whatever the editor's words).
  const range = { start: { line, character: character - spot.prefix.length }, end: { line, character } };
  return itemsAt(spot, sources).map((item) => ({
    ...item,
    textEdit: { range, newText: item.insertText ?? item.label },
  }));
}

function itemsAt(spot: Exclude<CursorSpot, { kind: "other" }>, sources: CompletionSources): CompletionItem[] {
  switch (spot.kind) {
    case "key":
      return [...keysAt(sources.schema, spot.path)]
        .filter(([key]) => key.startsWith(spot.prefix))
        .map(([key, sub]) => ({
          label: key,
          kind: CompletionItemKind.Property,
          ...(typeof sub.title === "string" ? { detail: sub.title } : {}),
          ...(typeof sub.description === "string" ? { documentation: sub.description } : {}),
          insertText: `${key}: `,
        }));
    case "value": {
      const path = spot.path;
      const isAfter = path.at(-1) === "after" && (path[0] === "projects" || path[0] === "defaults");
      const nameKey = nameKeyOf(path);
      if (nameKey !== undefined && sources.names !== undefined)
        return sources
          .names(nameKey)
          .filter((choice) => choice.name.toLowerCase().startsWith(spot.prefix.toLowerCase()))
          .map((choice) => ({
            label: choice.name,
            kind: CompletionItemKind.Value,
            detail: choice.detail,
            insertText: nameKey === "phone_numbers" ? JSON.stringify(choice.name) : yamlName(choice.name),
          }));
      if (!isAfter)
        return [...valuesAt(sources.schema, path)]
          .filter(([value]) => value.startsWith(spot.prefix))
          .map(([value, description]) => ({
            label: value,
            kind: CompletionItemKind.EnumMember,
            ...(description === undefined ? {} : { documentation: description }),
          }));
      const own = path[0] === "projects" ? path[1] : undefined;
      return [...new Set(sources.addresses)]
        .filter((a) => a !== own && a.startsWith(spot.prefix))
        .sort()
        .map((address) => ({
          label: address,
          kind: CompletionItemKind.Reference,
          detail: "project address",
        }));
    }
  }
}
