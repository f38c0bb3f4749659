/**
 * Re-import: brings an existing campaign file up to date with live projects by splicing edits into
 * its text, so that everything import leaves alone keeps its bytes (comments, key order, quoting,
 * blank lines) and a reviewer sees a small diff. Pure: text and imported projects in, text out.
 *
 * Per project key, the value the file means (its own, else the file's `defaults`) is compared with
 * what import wants (`equivalence.ts`); only keys that differ are replaced, added (at their place in
 * the writing order) or removed. A key the live project must not have but `defaults` gives is
 * removed from `defaults` and written into every other project that inherited it, so that their
 * meaning does not change. New projects are appended to `projects`.
 */
import { isMap, isScalar, isSeq, type Pair, parseDocument, type YAMLMap } from "yaml";
import type { Catalogs } from "../plan/catalogs.js";
import { equivalent } from "./equivalence.js";
import type { ImportedProject, Wanted } from "./project-to-yaml.js";
import { isBlockMap, renderInline, renderPair } from "./render.js";
import {
  applySplices,
  deletePair,
  indentOf,
  insertPairs,
  replacePair,
  replaceScalarValue,
  type Splice,
} from "./splice.js";
import {
  FILE_KEY_ORDER,
  MANAGED_KEYS,
  type ManagedKey,
  outOf,
  PROJECT_KEY_ORDER,
  type YamlOut,
} from "./yaml-out.js";

/** A project to write into a file, under `address`. */
export interface Placement {
  readonly address: string;
  readonly project: ImportedProject;
}

/** What the file as a whole should say: its organization, and custom fields it must declare. */
export interface FileWanted {
  readonly organization: Wanted;
  readonly fields: readonly string[];
}

/** What happened to one project of the file. */
export type ProjectChange = "added" | "updated" | "unchanged";

/** The file's new text (equal to the old when nothing differs) and what happened to each project. */
export interface MergeResult {
  readonly text: string;
  /** By project id, for every placement. */
  readonly changes: ReadonlyMap<string, ProjectChange>;
}

type AnyPair = Pair<unknown, unknown>;

const keyOf = (pair: AnyPair): string => (isScalar(pair.key) ? String(pair.key.value) : "");
const findPair = (map: YAMLMap, key: string): AnyPair | undefined =>
  (map.items as AnyPair[]).find((p) => keyOf(p) === key);
const plain = (node: unknown): unknown =>
  node !== null && typeof node === "object" && "toJSON" in node && typeof node.toJSON === "function"
    ? (node as { toJSON(): unknown }).toJSON()
    : node;
const jsOf = (pair: AnyPair | undefined): unknown => (pair === undefined ? undefined : plain(pair.value));
const has = (object: Record<string, unknown>, key: string) => Object.hasOwn(object, key);

/** Edits of one map: a rendered value to set, or null to delete. */
type MapEdits = Map<string, YamlOut | null>;

/**
 * The project's own keys as a new project writes them (only where the file's defaults do not
 * already say it), then its notes.
 */
export function newProjectOut(
  project: ImportedProject,
  defaults: Record<string, unknown>,
  catalogs: Catalogs,
): YamlOut {
  const pairs: [string, YamlOut][] = [["id", { kind: "scalar", value: project.id }]];
  for (const key of PROJECT_KEY_ORDER) {
    if (!isManaged(key)) continue;
    const wanted = project.wanted.get(key);
    if (wanted?.kind !== "set") continue;
    if (!equivalent(key, defaults[key], wanted, catalogs)) pairs.push([key, wanted.out]);
  }
  return { kind: "map", pairs, notes: project.notes };
}

function isManaged(key: string): key is ManagedKey {
  return (MANAGED_KEYS as readonly string[]).includes(key);
}

export function mergeIntoText(
  text: string,
  placements: readonly Placement[],
  file: FileWanted,
  catalogs: Catalogs,
): MergeResult {
  const doc = parseDocument(text);
  const top = doc.contents;
  if (!isBlockMap(top)) throw new Error("mergeIntoText: the file is not a block map (load it first)");
  const splices: Splice[] = [];
  const changes = new Map<string, ProjectChange>();
  const byAddress = new Map(placements.map((p) => [p.address, p]));

  const defaultsPair = findPair(top, "defaults");
  const defaultsNode = defaultsPair?.value;
  const defaults = (isMap(defaultsNode) ? plain(defaultsNode) : {}) as Record<string, unknown>;
  // Keys some imported project must not have that the defaults give: they leave the defaults.
  const dropped = new Set<ManagedKey>();
  for (const { project } of placements)
    for (const key of MANAGED_KEYS)
      if (project.wanted.get(key)?.kind === "absent" && has(defaults, key)) dropped.add(key);
  const inherited: Record<string, unknown> = Object.fromEntries(
    Object.entries(defaults).filter(([k]) => !dropped.has(k as ManagedKey)),
  );

  const projectsPair = findPair(top, "projects");
  const projectsNode = projectsPair?.value;
  const seen = new Set<string>();
  if (isMap(projectsNode)) {
    for (const pair of projectsNode.items as AnyPair[]) {
      const address = keyOf(pair);
      const placement = byAddress.get(address);
      if (placement !== undefined) seen.add(address);
      const node = pair.value;
      const own = (isMap(node) ? plain(node) : {}) as Record<string, unknown>;
      const edits: MapEdits = new Map();
      for (const key of dropped)
        if (
          !has(own, key) &&
          placement?.project.wanted.get(key)?.kind !== "set" &&
          placement?.project.wanted.get(key)?.kind !== "absent"
        )
          edits.set(key, outOf(defaults[key]));
      if (placement !== undefined)
        for (const key of MANAGED_KEYS) {
          const wanted = placement.project.wanted.get(key) ?? { kind: "keep" };
          const effective = has(own, key) ? own[key] : inherited[key];
          if (equivalent(key, effective, wanted, catalogs)) continue;
          if (wanted.kind === "set") edits.set(key, wanted.out);
          else if (wanted.kind === "absent" && has(own, key)) edits.set(key, null);
        }
      if (edits.size === 0) {
        if (placement !== undefined) changes.set(placement.project.id, "unchanged");
        continue;
      }
      if (placement !== undefined) changes.set(placement.project.id, "updated");
      if (isBlockMap(node) && node.items.length > 0)
        splices.push(...mapSplices(text, node, edits, PROJECT_KEY_ORDER));
      else {
        const merged = { ...own };
        for (const [k, v] of edits) if (v === null) delete merged[k];
        const out = outOf(merged);
        const pairs = out.kind === "map" ? [...out.pairs] : [];
        for (const [k, v] of edits) {
          if (v === null) continue;
          const at = pairs.findIndex(([pk]) => pk === k);
          if (at === -1) pairs.push([k, v]);
          else pairs[at] = [k, v];
        }
        splices.push(
          replacePair(text, pair, renderPair(address, { kind: "map", pairs }, indentOf(text, pair))),
        );
      }
    }
  }

  // Defaults lose the dropped keys (the whole block when nothing is left).
  if (defaultsPair !== undefined && dropped.size > 0 && isBlockMap(defaultsNode)) {
    if (dropped.size >= defaultsNode.items.length) splices.push(deletePair(text, defaultsPair));
    else {
      const edits: MapEdits = new Map([...dropped].map((k) => [k, null]));
      splices.push(...mapSplices(text, defaultsNode, edits, PROJECT_KEY_ORDER));
    }
  }

  // New projects go at the end of `projects`, a blank line before each.
  const added = placements.filter((p) => !seen.has(p.address));
  const topEdits: MapEdits = new Map();
  if (added.length > 0) {
    for (const p of added) changes.set(p.project.id, "added");
    const outs = added.map((p) => [p.address, newProjectOut(p.project, inherited, catalogs)] as const);
    if (isBlockMap(projectsNode) && projectsNode.items.length > 0) {
      const last = projectsNode.items.at(-1) as AnyPair;
      const indent = indentOf(text, projectsNode.items[0] as AnyPair);
      const rendered = outs.map(([address, out]) => renderPair(address, out, indent));
      splices.push(insertPairs(text, projectsNode, last, indent, rendered, true));
    } else {
      const existing = isMap(projectsNode) ? (plain(projectsNode) as Record<string, unknown>) : {};
      const pairs: [string, YamlOut][] = Object.entries(existing).map(([k, v]) => [k, outOf(v)]);
      topEdits.set("projects", { kind: "map", pairs: [...pairs, ...outs] });
    }
  }

  const organization = jsOf(findPair(top, "organization"));
  if (
    file.organization.kind === "set" &&
    !equivalent("organization", organization, file.organization, catalogs)
  )
    topEdits.set("organization", file.organization.out);
  const declared = jsOf(findPair(top, "fields"));
  const fields = Array.isArray(declared) ? declared.map(String) : [];
  const missing = file.fields.filter((f) => !fields.includes(f));
  if (missing.length > 0)
    topEdits.set("fields", {
      kind: "seq",
      items: [...fields, ...missing].map((f) => ({ kind: "scalar", value: f })),
    });
  if (topEdits.size > 0) splices.push(...mapSplices(text, top, topEdits, FILE_KEY_ORDER));

  return { text: applySplices(text, splices), changes };
}

/** Splices that apply `edits` to a block map, new keys placed by `order`. */
function mapSplices(text: string, map: YAMLMap, edits: MapEdits, order: readonly string[]): Splice[] {
  const pairs = map.items as AnyPair[];
  const indent = indentOf(text, pairs[0] as AnyPair);
  const rank = (key: string) => {
    const i = order.indexOf(key);
    return i === -1 ? order.length : i;
  };
  const splices: Splice[] = [];
  const inserts = new Map<AnyPair | undefined, [string, YamlOut][]>();
  for (const [key, out] of edits) {
    const pair = findPair(map, key);
    if (pair !== undefined) {
      if (out === null) splices.push(deletePair(text, pair));
      else splices.push(replaceValue(text, pair, key, out, indent));
      continue;
    }
    if (out === null) continue;
    let anchor: AnyPair | undefined;
    for (const p of pairs) {
      const k = keyOf(p);
      if (edits.get(k) === null) continue;
      if (rank(k) < rank(key) || (rank(k) === order.length && rank(key) === order.length)) anchor = p;
    }
    const group = inserts.get(anchor) ?? [];
    group.push([key, out]);
    inserts.set(anchor, group);
  }
  for (const [anchor, group] of inserts) {
    group.sort(([a], [b]) => rank(a) - rank(b));
    splices.push(
      insertPairs(
        text,
        map,
        anchor,
        indent,
        group.map(([k, out]) => renderPair(k, out, indent)),
      ),
    );
  }
  return splices;
}

function replaceValue(text: string, pair: AnyPair, key: string, out: YamlOut, indent: number): Splice {
  if (out.kind === "scalar" && out.message !== true && out.comment === undefined) {
    const inline = replaceScalarValue(pair, renderInline(out.value));
    if (inline !== undefined) return inline;
  }
  if (
    out.kind === "seq" &&
    isSeq(pair.value) &&
    pair.value.flow === true &&
    out.items.every((i) => i.kind === "scalar" && i.comment === undefined)
  ) {
    const items = out.items.map((i) => (i.kind === "scalar" ? renderInline(i.value) : ""));
    const range = pair.value.range;
    if (range != null) return { start: range[0], end: range[1], text: `[${items.join(", ")}]` };
  }
  return replacePair(text, pair, renderPair(key, out, indent));
}
