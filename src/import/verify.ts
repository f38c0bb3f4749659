/**
 * Reads a file import is about to write back, as the loader will, and checks that it says exactly
 * what import meant: it loads without errors, and every imported project's keys (after `defaults`)
 * mean what the live project has (`equivalence.ts`). A failure is a bug in import, reported as an
 * error so that nothing wrong is written; but for a live project that holds an API key in what
 * import would write (its message text): no file may hold a key, so that is the error, at the
 * project (`import.live-key`). Pure.
 */
import { parse } from "yaml";
import { assembleCampaign } from "../campaign/assemble.js";
import { sha256Hex } from "../campaign/decode.js";
import { keyShapedRuns } from "../contract/key-shaped.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Catalogs } from "../plan/catalogs.js";
import { own } from "../text/names.js";
import { equivalent } from "./equivalence.js";
import type { Placement } from "./merge-into-document.js";
import type { ImportedProject } from "./project-to-yaml.js";
import { MANAGED_KEYS } from "./yaml-out.js";

/** A file as it would be after the import, and the projects import placed in it. */
export interface FileToVerify {
  readonly path: string;
  readonly text: string;
  /** True for a file import writes (its load errors count); false for one it leaves alone. */
  readonly written: boolean;
  readonly placements: readonly Placement[];
}

export function verifyFiles(files: readonly FileToVerify[], catalogs: Catalogs): Diagnostic[] {
  const keyed = files
    .filter((f) => f.written)
    .flatMap((f) => f.placements.flatMap(({ project }) => liveKeyErrors(project)));
  if (keyed.length > 0) return keyed;
  const loaded = assembleCampaign(
    files.map((f) => ({ path: f.path, text: f.text, sha256: sha256Hex(new TextEncoder().encode(f.text)) })),
  );
  const written = new Set(files.filter((f) => f.written).map((f) => f.path));
  // The files left alone loaded without errors before: an error that names a written file anywhere
  // (a duplicate id or address across files is reported at the later file) is import's.
  const touchesWritten = (d: Diagnostic) =>
    d.range === undefined ||
    written.has(d.range.file) ||
    (d.related ?? []).some((r) => written.has(r.range.file));
  const errors = loaded.diagnostics.filter((d) => d.severity === "error" && touchesWritten(d));
  if (errors.length > 0)
    return errors.map((d) => ({
      ...d,
      severity: "error",
      code: "import.verify-failed",
      message: `the file import would write does not load: ${d.message}`,
      hint: "this is a bug in campaignctl import; nothing was written",
    }));
  return files.flatMap((f) => verifyProjects(f.path, f.text, f.placements, catalogs));
}

/**
 * An error when what import would write of `project` holds a key-shaped run
 * (src/contract/key-shaped.ts): for every file import writes, `--template`'s too.
 */
export function liveKeyErrors(project: ImportedProject): Diagnostic[] {
  const keys = [...project.wanted]
    .filter(([, wanted]) => wanted.kind === "set" && keyShapedRuns(JSON.stringify(wanted.out)).length > 0)
    .map(([key]) => key);
  if (keys.length === 0) return [];
  return [
    {
      severity: "error",
      code: "import.live-key",
      message: `the live project ${project.id} (${project.name}) holds an API key in its ${keys.join(", ")}, and no file may hold one; nothing was written`,
      hint: "remove the key from the project in the dashboard and revoke it there (it was in the project's text), then import again",
    },
  ];
}

function verifyProjects(
  path: string,
  text: string,
  placements: readonly Placement[],
  catalogs: Catalogs,
): Diagnostic[] {
  const raw = parse(text) as {
    defaults?: Record<string, unknown>;
    projects?: Record<string, Record<string, unknown>>;
  };
  const out: Diagnostic[] = [];
  for (const { address, project } of placements) {
    const merged = { ...(raw.defaults ?? {}), ...(own(raw.projects, address) ?? {}) };
    const wrong = MANAGED_KEYS.filter(
      (key) => !equivalent(key, merged[key], project.wanted.get(key) ?? { kind: "keep" }, catalogs),
    );
    if (wrong.length > 0)
      out.push({
        severity: "error",
        code: "import.verify-failed",
        message: `${path}: ${address} would not describe the live project ${project.id} exactly (${wrong.join(", ")})`,
        hint: "this is a bug in campaignctl import; nothing was written",
      });
  }
  return out;
}
