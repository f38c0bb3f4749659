/**
 * The pure core of `campaignctl import`: live projects and the existing campaign files in, the
 * files to write out. Pure.
 *
 * - A project some existing file already describes (by id) is updated in place there, under its
 *   address; any other goes to the file of its organization (`--out DIR`: an existing file whose
 *   `organization` is that organization, else `<organization-slug>.yaml`) or to the one `--out FILE`.
 * - New addresses are derived from names (`addresses.ts`), unique across every file given.
 * - Every file written is read back (`verify.ts`); a difference is a bug and stops the import.
 */
import { join } from "node:path/posix";
import { parse } from "yaml";
import type { Organization, Project } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Catalogs } from "../plan/catalogs.js";
import { deriveAddresses, slugOf } from "./addresses.js";
import { mergeIntoText, type Placement, type ProjectChange } from "./merge-into-document.js";
import { resolvedId, writtenRef } from "./names.js";
import { renderNewFile } from "./new-file.js";
import { type ImportedProject, importProject, type Wanted } from "./project-to-yaml.js";
import { type FileToVerify, verifyFiles } from "./verify.js";
import { scalar } from "./yaml-out.js";

/** An existing campaign file under the target. Invariant: the files together load without errors. */
export interface ExistingFile {
  readonly path: string;
  readonly text: string;
}

/** Where import writes: a directory (one file per organization) or one file. */
export type ImportTarget =
  | { readonly kind: "dir"; readonly dir: string }
  | { readonly kind: "file"; readonly path: string };

/** Everything the pure import needs: the live records already read, and the files already there. */
export interface ImportInput {
  /** The selected live projects, each read by id. */
  readonly projects: readonly Project[];
  readonly organizations: readonly Organization[];
  readonly catalogs: Catalogs;
  /** The existing files under the target (paths relative as they will be reported). */
  readonly existing: readonly ExistingFile[];
  readonly target: ImportTarget;
  /** The API's clock: decides whether a live schedule time is past. */
  readonly now: Date;
  /**
   * The `$schema` a new file at `path` (as reported) names in its modeline; default the campaign
   * schema's `$id`. The CLI's rule is cli/output/schema-reference.ts.
   */
  readonly schemaFor?: (path: string) => string;
}

/** One file import would write. `before` is its current text (undefined: a new file). */
export interface FileResult {
  readonly path: string;
  readonly before: string | undefined;
  readonly text: string;
  readonly changed: boolean;
}

/** One imported project. */
export interface ProjectResult {
  readonly id: string;
  readonly name: string;
  readonly address: string;
  readonly file: string;
  readonly organizationId: string;
  readonly status: Project["status"];
  readonly state: string;
  readonly change: ProjectChange;
}

/**
 * The files to write and the projects in them, or why nothing may be written. Invariant: on success
 * every project's `file` is one of `files[].path`, and every file loads and means the live projects.
 */
export type ImportOutput =
  | { readonly ok: true; readonly files: readonly FileResult[]; readonly projects: readonly ProjectResult[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

interface FileDeclares {
  readonly ids: Map<string, string>;
  readonly organizationId?: string;
}

function declaresOf(text: string, catalogs: Catalogs): FileDeclares {
  const raw = parse(text) as { organization?: unknown; projects?: Record<string, { id?: unknown }> } | null;
  const ids = new Map<string, string>();
  for (const [address, project] of Object.entries(raw?.projects ?? {}))
    if (project !== null && typeof project === "object" && typeof project.id === "string")
      ids.set(project.id, address);
  const org =
    typeof raw?.organization === "string"
      ? resolvedId(catalogs, "organization", raw.organization)
      : undefined;
  return org === undefined ? { ids } : { ids, organizationId: org };
}

export function importFiles(input: ImportInput): ImportOutput {
  const { catalogs, target } = input;
  const imported = input.projects.map((p) => importProject(p, catalogs));
  const existing = input.existing.map((f) => ({ ...f, declares: declaresOf(f.text, catalogs) }));

  const placementsByFile = new Map<string, { address?: string; project: ImportedProject }[]>();
  const addTo = (path: string, entry: { address?: string; project: ImportedProject }) => {
    const list = placementsByFile.get(path) ?? [];
    list.push(entry);
    placementsByFile.set(path, list);
  };
  const orgName = (id: string) => input.organizations.find((o) => o.id === id)?.display_name ?? id;
  const newPaths = new Map<string, string>();
  const fileForOrg = (orgId: string): string => {
    if (target.kind === "file") return target.path;
    const declared = existing.find((f) => f.declares.organizationId === orgId);
    if (declared !== undefined) return declared.path;
    const known = newPaths.get(orgId);
    if (known !== undefined) return known;
    const taken = new Set([...existing.map((f) => f.path), ...newPaths.values()]);
    let path = join(target.dir, `${slugOf(orgName(orgId), "organization")}.yaml`);
    for (let n = 2; taken.has(path); n++)
      path = join(target.dir, `${slugOf(orgName(orgId), "organization")}-${n}.yaml`);
    newPaths.set(orgId, path);
    return path;
  };
  for (const project of imported) {
    const home = existing.find((f) => f.declares.ids.has(project.id));
    if (home !== undefined) addTo(home.path, { address: home.declares.ids.get(project.id), project });
    else addTo(fileForOrg(project.organizationId), { project });
  }

  const taken = new Set(existing.flatMap((f) => [...f.declares.ids.values()]));
  const newcomers = [...placementsByFile.values()].flat().filter((e) => e.address === undefined);
  const addresses = deriveAddresses(
    newcomers.map((e) => ({ id: e.project.id, name: e.project.name })),
    taken,
  );

  const diagnostics: Diagnostic[] = [];
  const files: FileResult[] = [];
  const projects: ProjectResult[] = [];
  const toVerify: FileToVerify[] = [];
  const paths = [...placementsByFile.keys()].sort();
  for (const path of paths) {
    const entries = placementsByFile.get(path) ?? [];
    const placements: Placement[] = entries.map((e) => ({
      address: e.address ?? addresses.get(e.project.id) ?? e.project.id,
      project: e.project,
    }));
    const orgs = [...new Set(placements.map((p) => p.project.organizationId))];
    const before = existing.find((f) => f.path === path);
    const fileOrg = before?.declares.organizationId;
    const foreign = placements.filter((p) => fileOrg !== undefined && p.project.organizationId !== fileOrg);
    if (foreign.length > 0) {
      diagnostics.push({
        severity: "error",
        code: "import.organization-conflict",
        message: `${path} is for organization ${orgName(fileOrg ?? "")}, but ${foreign.map((p) => `${p.project.name} (${p.project.id})`).join(", ")} belong${foreign.length === 1 ? "s" : ""} to ${orgName(foreign[0]?.project.organizationId ?? "")}`,
        hint: "import those projects into another file (--out DIR writes one file per organization)",
      });
      continue;
    }
    const organization: Wanted =
      orgs.length === 1 && orgs[0] !== undefined ? organizationWanted(catalogs, orgs[0]) : { kind: "keep" };
    const fields = [...new Set(placements.flatMap((p) => p.project.customFields))].sort();
    let text: string;
    let changes: ReadonlyMap<string, ProjectChange>;
    if (before === undefined) {
      text = renderNewFile(placements, organization, fields, catalogs, input.schemaFor?.(path));
      changes = new Map(placements.map((p) => [p.project.id, "added" as const]));
    } else {
      const merged = mergeIntoText(before.text, placements, { organization, fields }, catalogs);
      text = merged.text;
      changes = merged.changes;
    }
    toVerify.push({ path, text, written: before?.text !== text, placements });
    files.push({ path, before: before?.text, text, changed: before?.text !== text });
    for (const p of placements)
      projects.push({
        id: p.project.id,
        name: p.project.name,
        address: p.address,
        file: path,
        organizationId: p.project.organizationId,
        status: p.project.status,
        state: stateText(p.project),
        change: changes.get(p.project.id) ?? "unchanged",
      });
  }
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  const untouched = existing.filter((f) => !placementsByFile.has(f.path));
  diagnostics.push(
    ...verifyFiles(
      [
        ...toVerify,
        ...untouched.map((f) => ({ path: f.path, text: f.text, written: false, placements: [] })),
      ],
      catalogs,
    ),
  );
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  const order = new Map(input.projects.map((p, i) => [p.project_id, i]));
  projects.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return { ok: true, files, projects };
}

function organizationWanted(catalogs: Catalogs, id: string): Wanted {
  const ref = writtenRef(catalogs, "organization", id);
  if (!ref.visible) return { kind: "keep" };
  return {
    kind: "set",
    out: scalar(ref.value, ref.comment === undefined ? undefined : `by id: ${ref.comment}`),
    semantic: { kind: "ref", ref: "organization", id },
  };
}

function stateText(project: ImportedProject): string {
  const wanted = project.wanted.get("state");
  return wanted?.kind === "set" && wanted.semantic.kind === "text" ? wanted.semantic.value : "draft";
}
