/**
 * The architecture checker (design.md "Layout", issue 33): a pure function from a source tree (paths
 * relative to the repository, posix, to their text) and the layout's rules to every way the tree
 * breaks them. It reads each file's imports as TypeScript does (`ts.preProcessFile`: `import`,
 * `import type`, `export ... from`, `import()` and `require`), resolves the relative ones to files
 * of the tree, and finds:
 *
 * - `circle`: files that import each other in a loop (type-only and lazy `import()` edges count: the
 *   design says "no circles", and a loop of types is still two files that cannot be read apart);
 * - `layer`: an import from one top folder to a folder of the same or a higher layer, unless allowed;
 * - `io`: a file of src/ outside the IO places importing a Node module outside the pure ones
 *   (`node:fs`, ...): src/ is pure unless the rules say otherwise;
 * - `unresolved`: a relative import that names no file of the tree (it could hide an edge);
 * - `no-layer`: a top folder the rules give no layer;
 * - `unused`: an allowance that nothing needs any more (so the lists only shrink).
 *
 * The test of the real tree is imports.test.ts; checker.test.ts feeds it synthetic trees.
 */
import { builtinModules } from "node:module";
import { posix } from "node:path";
import ts from "./typescript.js";

/** Why an exception or a rule exists: every entry of the rules says it. */
interface Reasoned {
  readonly why: string;
}

/**
 * The layout's rules. Invariants: every top folder of the tree has a layer; allowances name an
 * importing file exactly; a place is a folder (ending in `/`) or one file. Every file of src/ is
 * pure (does no IO of its own) unless it lies in one of `ioPlaces`.
 */
export interface ArchitectureRules {
  /** Top first; a top folder may import the folders of any layer below its own. */
  readonly layers: readonly (readonly string[])[];
  /** Imports allowed between two folders of one layer. */
  readonly sameLayer: readonly (Reasoned & { readonly from: string; readonly to: string })[];
  /** Folders that may import only the folders listed (besides themselves). */
  readonly only: Readonly<Record<string, readonly string[]>>;
  /** Imports that still break the layers, by importing file and imported folder. */
  readonly allowedUp: readonly (Reasoned & { readonly file: string; readonly to: string })[];
  /** The places of src/ that do IO of their own: folders (`src/api/`) or files (`src/webhooks/server.ts`). */
  readonly ioPlaces: readonly (Reasoned & { readonly place: string })[];
  /** The Node modules a pure place may import (without `node:`; a subpath counts as its module). */
  readonly pureNodeModules: readonly (Reasoned & { readonly module: string })[];
  /** Node IO modules that a pure file still imports, by file and module (without `node:`). */
  readonly allowedIo: readonly (Reasoned & { readonly file: string; readonly module: string })[];
}

export type FindingKind = "circle" | "layer" | "io" | "unresolved" | "no-layer" | "unused";

/** One way the tree breaks the rules, in words that name the files (and the line of an import). */
export interface Finding {
  readonly kind: FindingKind;
  readonly text: string;
}

/** One import of one file: a file of the tree (`to`), a Node module (`node`), or a package. */
export interface ImportEdge {
  readonly file: string;
  readonly line: number;
  readonly specifier: string;
  /** The imported file of the tree; null for a Node module or a package, or when unresolved. */
  readonly to: string | null;
  /** The Node module imported, without `node:` (`fs/promises`); null otherwise. */
  readonly node: string | null;
}

const NODE_MODULES = new Set(builtinModules.map((m) => m.replace(/^node:/, "")));

/** The imports of a text as TypeScript reads them (specifier, line), kept by text: trees share most files. */
const parsed = new Map<string, readonly { readonly specifier: string; readonly line: number }[]>();

function importsOf(text: string): readonly { readonly specifier: string; readonly line: number }[] {
  let found = parsed.get(text);
  if (found === undefined) {
    found = ts
      .preProcessFile(text, true, true)
      .importedFiles.map(({ fileName, pos }) => ({ specifier: fileName, line: lineAt(text, pos) }));
    parsed.set(text, found);
  }
  return found;
}

/** Every import of every file of `tree`, in file order. */
export function importEdges(tree: ReadonlyMap<string, string>): ImportEdge[] {
  return [...tree].flatMap(([file, text]) =>
    importsOf(text).map(({ specifier, line }): ImportEdge => {
      if (specifier.startsWith("."))
        return { file, line, specifier, to: resolveIn(tree, file, specifier), node: null };
      const bare = specifier.replace(/^node:/, "");
      const isNode = specifier.startsWith("node:") || NODE_MODULES.has(bare.split("/")[0] ?? bare);
      return { file, line, specifier, to: null, node: isNode ? bare : null };
    }),
  );
}

/**
 * Every way `tree` breaks `rules`: circles first, then folders without a layer, imports against the
 * layers, IO, unresolved imports and unused allowances; each kind sorted by its text.
 */
export function checkArchitecture(tree: ReadonlyMap<string, string>, rules: ArchitectureRules): Finding[] {
  const edges = importEdges(tree);
  const order: readonly FindingKind[] = ["circle", "no-layer", "layer", "io", "unresolved", "unused"];
  return [
    ...circles(edges).map((loop) => ({ kind: "circle" as const, text: `circle: ${loop.join(" -> ")}` })),
    ...layerFindings(tree, edges, rules),
    ...ioFindings(edges, rules),
    ...edges
      .filter((e) => e.specifier.startsWith(".") && e.to === null)
      .map((e) => ({
        kind: "unresolved" as const,
        text: `${e.file}:${e.line} imports ${e.specifier}, which is no file of the tree`,
      })),
    ...unusedAllowances(edges, rules),
  ].sort(
    (a, b) =>
      order.indexOf(a.kind) - order.indexOf(b.kind) || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0),
  );
}

/**
 * The import circles: one loop per strongly connected component of the file graph (Tarjan), as the
 * files of one shortest loop through its first file, that file repeated at the end.
 */
export function circles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (e.to === null) continue;
    const list = next.get(e.file) ?? [];
    if (!list.includes(e.to)) list.push(e.to);
    next.set(e.file, list);
  }
  return stronglyConnected(next)
    .filter(
      (component) =>
        component.length > 1 || (next.get(component[0] ?? "") ?? []).includes(component[0] ?? ""),
    )
    .map((component) => shortestLoop(next, [...component].sort()))
    .sort((a, b) => (a[0] ?? "").localeCompare(b[0] ?? ""));
}

function stronglyConnected(next: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  // Iterative, so a long chain of imports cannot overflow the call stack.
  for (const root of next.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; child: number }[] = [{ node: root, child: 0 }];
    const enter = (node: string) => {
      index.set(node, index.size);
      low.set(node, index.get(node) ?? 0);
      stack.push(node);
      onStack.add(node);
    };
    enter(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; child: number };
      const children = next.get(frame.node) ?? [];
      if (frame.child < children.length) {
        const child = children[frame.child++] as string;
        if (!index.has(child)) {
          enter(child);
          work.push({ node: child, child: 0 });
        } else if (onStack.has(child))
          low.set(frame.node, Math.min(low.get(frame.node) ?? 0, index.get(child) ?? 0));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined)
        low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(frame.node) ?? 0));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop();
          if (member === undefined) break;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        found.push(component);
      }
    }
  }
  return found;
}

/** A shortest loop from the component's first file back to it, staying inside the component. */
function shortestLoop(next: ReadonlyMap<string, readonly string[]>, component: readonly string[]): string[] {
  const start = component[0] as string;
  const inside = new Set(component);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i] as string;
    for (const child of next.get(node) ?? []) {
      if (!inside.has(child)) continue;
      if (child === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = cameFrom.get(at))
          path.splice(1, 0, at);
        const loop = [...path, start];
        return component.length > loop.length - 1
          ? [
              ...loop,
              `(and ${component.length - (loop.length - 1)} more files: ${component.filter((f) => !loop.includes(f)).join(", ")})`,
            ]
          : loop;
      }
      if (!cameFrom.has(child) && child !== start) {
        cameFrom.set(child, node);
        queue.push(child);
      }
    }
  }
  return [...component];
}

/** The top folder of a file: `plan` for src/plan/x.ts, `cli` for cli/x.ts. */
export function folderOf(file: string): string {
  const parts = file.split("/");
  return (parts[0] === "src" ? parts[1] : parts[0]) ?? file;
}

function layerFindings(
  tree: ReadonlyMap<string, string>,
  edges: readonly ImportEdge[],
  rules: ArchitectureRules,
): Finding[] {
  const layerOf = new Map(rules.layers.flatMap((folders, layer) => folders.map((f) => [f, layer] as const)));
  const folders = [...new Set([...tree.keys()].map(folderOf))].sort();
  const noLayer = folders
    .filter((f) => !layerOf.has(f))
    .map((f) => ({ kind: "no-layer" as const, text: `${f} has no layer in the rules (nor in design.md)` }));
  const broken = edges.flatMap((e): Finding[] => {
    if (e.to === null) return [];
    const from = folderOf(e.file);
    const to = folderOf(e.to);
    if (from === to || rules.allowedUp.some((a) => a.file === e.file && a.to === to)) return [];
    const fromLayer = layerOf.get(from);
    const toLayer = layerOf.get(to);
    if (fromLayer === undefined || toLayer === undefined) return [];
    const only = rules.only[from];
    const why =
      only !== undefined && !only.includes(to)
        ? `${from} may import only ${only.join(", ")}`
        : toLayer > fromLayer ||
            (toLayer === fromLayer && rules.sameLayer.some((s) => s.from === from && s.to === to))
          ? null
          : toLayer === fromLayer
            ? "a folder of the same layer"
            : "a folder of a higher layer";
    return why === null
      ? []
      : [{ kind: "layer", text: `${e.file}:${e.line} imports ${e.specifier} (${from} -> ${to}): ${why}` }];
  });
  return [...noLayer, ...broken];
}

/** Whether `file` lies in `place` (a folder ending in `/`, or one file). */
export function inPlace(file: string, place: string): boolean {
  return place.endsWith("/") ? file.startsWith(place) : file === place;
}

/** Whether `file` is pure by the rules: in src/, and in none of the IO places. */
export function isPure(file: string, rules: ArchitectureRules): boolean {
  return file.startsWith("src/") && !rules.ioPlaces.some((p) => inPlace(file, p.place));
}

function ioFindings(edges: readonly ImportEdge[], rules: ArchitectureRules): Finding[] {
  const allowed = new Set(rules.pureNodeModules.map((m) => m.module));
  return edges.flatMap((e): Finding[] => {
    if (e.node === null || !isPure(e.file, rules)) return [];
    if (allowed.has(e.node) || allowed.has(e.node.split("/")[0] ?? e.node)) return [];
    if (rules.allowedIo.some((a) => a.file === e.file && a.module === e.node)) return [];
    return [
      {
        kind: "io",
        text: `${e.file}:${e.line} imports ${e.specifier}: IO in a pure place (pass it in through a port, or move the code to cli/adapters/)`,
      },
    ];
  });
}

function unusedAllowances(edges: readonly ImportEdge[], rules: ArchitectureRules): Finding[] {
  const up = rules.allowedUp
    .filter((a) => !edges.some((e) => e.file === a.file && e.to !== null && folderOf(e.to) === a.to))
    .map((a) => ({ kind: "unused" as const, text: `allowed up, no longer needed: ${a.file} -> ${a.to}` }));
  const io = rules.allowedIo
    .filter((a) => !edges.some((e) => e.file === a.file && e.node === a.module))
    .map((a) => ({
      kind: "unused" as const,
      text: `allowed IO, no longer needed: ${a.file} -> node:${a.module}`,
    }));
  const same = rules.sameLayer
    .filter(
      (a) => !edges.some((e) => folderOf(e.file) === a.from && e.to !== null && folderOf(e.to) === a.to),
    )
    .map((a) => ({
      kind: "unused" as const,
      text: `allowed same layer, no longer needed: ${a.from} -> ${a.to}`,
    }));
  return [...up, ...io, ...same];
}

/** The file a relative import names: `./x.js` is `x.ts` (or `x.mts`...), a folder its `index.ts`. */
function resolveIn(tree: ReadonlyMap<string, string>, file: string, specifier: string): string | null {
  const target = posix.normalize(posix.join(posix.dirname(file), specifier));
  const stem = target.replace(/\.(m|c)?js$/, "");
  const candidates = [
    target,
    `${stem}.ts`,
    `${stem}.mts`,
    `${stem}.cts`,
    `${stem}.tsx`,
    `${target}/index.ts`,
  ];
  return candidates.find((c) => tree.has(c)) ?? null;
}

function lineAt(text: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos && i < text.length; i++) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}
