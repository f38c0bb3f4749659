/**
 * Imports point one way (design.md "Layout"): every import of every file under src/ goes to a folder
 * of a lower layer, or stays in its own folder. The layers, the few imports allowed between folders
 * of one layer, the sandbox's isolation and the imports that still point up are data below; a new
 * folder under src/ fails until it is given a layer here (and in design.md).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SRC = join(ROOT, "src");

/**
 * design.md "Layout", top first: cli -> (apply, import, status, webhooks, report, sandbox) ->
 * (forecast, plan) -> policy -> (api, campaign) -> message -> (contract, diagnostics, text).
 * A folder may import the folders of any layer below its own.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["cli"],
  ["apply", "import", "status", "watch", "webhooks", "replies", "report", "sandbox", "email"],
  ["forecast", "plan"],
  ["policy"],
  ["api", "campaign"],
  ["message"],
  ["contract", "diagnostics", "text"],
];

/** Imports between two folders of one layer, each with the reason it is allowed. */
const SAME_LAYER: readonly { readonly from: string; readonly to: string; readonly why: string }[] = [
  {
    from: "plan",
    to: "forecast",
    why: "the judge forecasts its plan, and the plan carries its typed forecast (design principle 11)",
  },
  {
    from: "report",
    to: "apply",
    why: "report renders apply results (design: report renders data it is given)",
  },
  {
    from: "report",
    to: "status",
    why: "report renders status reports (design: report renders data it is given)",
  },
  {
    from: "report",
    to: "watch",
    why: "report renders watch's events (design: report renders data it is given)",
  },
  {
    from: "watch",
    to: "status",
    why: "watch judges status's per-project figures (design: status = statistics rows -> figures)",
  },
  {
    from: "email",
    to: "status",
    why: "email campaigns' rates use status's exact fractions (one rounding rule for every rate)",
  },
  {
    from: "report",
    to: "email",
    why: "report renders the email plan and sync results (design: report renders data it is given)",
  },
  {
    from: "report",
    to: "webhooks",
    why: "report renders the listener's notes (design: report renders data it is given)",
  },
  {
    from: "report",
    to: "replies",
    why: "report renders reply plans and the worker's events (design: report renders data it is given)",
  },
  {
    from: "replies",
    to: "webhooks",
    why: "the replies worker takes message.replied events from the listener's core (issue 28: reuse, do not copy)",
  },
];

/** Folders that may import only the folders listed (besides themselves). */
const ONLY: Readonly<Record<string, readonly string[]>> = {
  sandbox: ["contract"], // design: the sandbox shares only the contract's types with the client
};

/**
 * Imports that still point up, by importing file (relative to the repository) and imported folder,
 * each with a one-line reason. Empty: keep it so, or say here why not.
 */
const ALLOWED_UP: readonly { readonly file: string; readonly to: string; readonly why: string }[] = [];

const layerOf = new Map(LAYERS.flatMap((folders, layer) => folders.map((f) => [f, layer] as const)));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|cts)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The top folder of an absolute path: `plan` for src/plan/x.ts, `cli` for cli/x.ts, else the path. */
function folderOf(absolute: string): string {
  const inSrc = relative(SRC, absolute);
  if (!inSrc.startsWith("..")) return inSrc.split(sep)[0] ?? inSrc;
  const inRoot = relative(ROOT, absolute);
  return inRoot.split(sep)[0] ?? inRoot;
}

interface Edge {
  readonly file: string;
  readonly specifier: string;
  readonly from: string;
  readonly to: string;
}

/** Every relative import, `export ... from`, `import type` and `import()` of src/, between folders. */
function crossFolderImports(): Edge[] {
  return sourceFiles(SRC).flatMap((path) => {
    const from = folderOf(path);
    const { importedFiles } = ts.preProcessFile(readFileSync(path, "utf8"), true, true);
    return importedFiles
      .map((f) => f.fileName)
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => ({
        file: relative(ROOT, path).split(sep).join("/"),
        specifier,
        from,
        to: folderOf(resolve(dirname(path), specifier)),
      }))
      .filter((edge) => edge.to !== from);
  });
}

/** Why `edge` breaks the layout, or null when it is allowed. */
function problem(edge: Edge): string | null {
  const from = layerOf.get(edge.from);
  const to = layerOf.get(edge.to);
  if (from === undefined) return `src/${edge.from} has no layer in this test (nor in design.md)`;
  if (to === undefined) return `${edge.to} has no layer in this test (nor in design.md)`;
  const only = ONLY[edge.from];
  if (only !== undefined && !only.includes(edge.to)) return `${edge.from} may import only ${only.join(", ")}`;
  if (to > from) return null;
  if (to === from && SAME_LAYER.some((s) => s.from === edge.from && s.to === edge.to)) return null;
  return to === from ? "a folder of the same layer" : "a folder of a higher layer";
}

describe("imports point one way (design.md Layout)", () => {
  const edges = crossFolderImports();

  test("the scan sees the imports (a sanity check on the parser)", () => {
    expect(edges.some((e) => e.from === "plan" && e.to === "campaign")).toBe(true);
    expect(edges.some((e) => e.from === "api" && e.to === "contract")).toBe(true);
  });

  test("no folder under src/ imports one above it, except as allowed here", () => {
    const broken = edges
      .filter((e) => !ALLOWED_UP.some((a) => a.file === e.file && a.to === e.to))
      .flatMap((e) => {
        const why = problem(e);
        return why === null ? [] : [`${e.file} imports ${e.specifier} (${e.from} -> ${e.to}): ${why}`];
      });
    expect(broken).toEqual([]);
  });

  test("every folder under src/ has a layer", () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((f) => !layerOf.has(f))).toEqual([]);
  });

  test("every allowance is still needed", () => {
    const unused = ALLOWED_UP.filter((a) => !edges.some((e) => e.file === a.file && e.to === a.to));
    expect(unused).toEqual([]);
  });
});
