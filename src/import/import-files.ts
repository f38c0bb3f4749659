/**
 * The pure core of `campaignctl import`: live projects and the existing campaign files in, the
 * files to write out. Pure.
 *
 * - A project some existing file already describes (by id) is updated in place there, under its
 *   address; one a template's instance describes is left as it is (import does not edit
 *   templates), reported unchanged under the instance's address; any other goes to the file of its organization (`--out DIR`: an existing file whose
 *   `organization` is that organization, else `<organization-slug>.yaml`) or to the one `--out FILE`.
 * - New addresses are derived from names (`addresses.ts`), unique across every file given.
 * - Every file written is read back (`verify.ts`); a difference is a bug and stops the import.
 */
import { join } from "node:path/posix";
import type { Organization, Project } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Catalogs } from "../plan/catalogs.js";
import { deriveAddresses, slugOf } from "./addresses.js";
import { type Declared, declaredIn } from "./existing-declared.js";
import { mergeIntoText, type Placement, type ProjectChange } from "./merge-into-document.js";
import { writtenRef } from "./names.js";
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

/** A project and where import puts it; `kept`: a template's instance describes it, left as it is. */
interface Entry {
  readonly address?: string;
  readonly project: ImportedProject;
  readonly kept?: boolean;
}

/** One file's part of the output, or the conflict that stops the import. */
type FileOutcome =
  | {
      readonly ok: true;
      readonly file: FileResult;
      readonly verify: FileToVerify;
      readonly projects: ProjectResult[];
    }
  | { readonly ok: false; readonly diagnostic: Diagnostic };

export function importFiles(input: ImportInput): ImportOutput {
  const declared = declaredIn(input.existing, input.catalogs);
  const byFile = placeProjects(input, declared);
  const newcomers = [...byFile.values()].flat().filter((e) => e.address === undefined);
  const addresses = deriveAddresses(
    newcomers.map((e) => ({ id: e.project.id, name: e.project.name })),
    declared.addresses,
  );
  const outcomes = [...byFile.keys()].sort().map((path) => {
    const entries = (byFile.get(path) ?? []).map((e) => ({
      ...e,
      address: e.address ?? addresses.get(e.project.id) ?? e.project.id,
    }));
    return fileOutcome(input, declared, path, entries);
  });
  const conflicts = outcomes.flatMap((o) => (o.ok ? [] : [o.diagnostic]));
  if (conflicts.length > 0) return { ok: false, diagnostics: conflicts };
  const done = outcomes.flatMap((o) => (o.ok ? [o] : []));
  const untouched = input.existing.filter((f) => !byFile.has(f.path));
  const diagnostics = verifyFiles(
    [
      ...done.map((o) => o.verify),
      ...untouched.map((f) => ({ path: f.path, text: f.text, written: false, placements: [] })),
    ],
    input.catalogs,
  );
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  const order = new Map(input.projects.map((p, i) => [p.project_id, i]));
  const projects = done.flatMap((o) => o.projects);
  projects.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return { ok: true, files: done.map((o) => o.file), projects };
}

/**
 * By file path, the projects each file gets: a project already described goes to its file under its
 * address (`kept` when a template's instance describes it); any other to its organization's file.
 */
function placeProjects(input: ImportInput, declared: Declared): Map<string, Entry[]> {
  const { existing, target } = input;
  const byFile = new Map<string, Entry[]>();
  const newPaths = new Map<string, string>();
  const fileForOrg = (orgId: string): string => {
    if (target.kind === "file") return target.path;
    const home = existing.find((f) => declared.organizations.get(f.path) === orgId);
    if (home !== undefined) return home.path;
    const known = newPaths.get(orgId);
    if (known !== undefined) return known;
    const taken = new Set([...existing.map((f) => f.path), ...newPaths.values()]);
    const slug = slugOf(orgName(input, orgId), "organization");
    let path = join(target.dir, `${slug}.yaml`);
    for (let n = 2; taken.has(path); n++) path = join(target.dir, `${slug}-${n}.yaml`);
    newPaths.set(orgId, path);
    return path;
  };
  for (const project of input.projects.map((p) => importProject(p, input.catalogs))) {
    const home = declared.homes.get(project.id);
    const path = home?.path ?? fileForOrg(project.organizationId);
    const entry: Entry =
      home === undefined
        ? { project }
        : { address: home.address, project, kept: home.template !== undefined };
    byFile.set(path, [...(byFile.get(path) ?? []), entry]);
  }
  return byFile;
}

const orgName = (input: ImportInput, id: string): string =>
  input.organizations.find((o) => o.id === id)?.display_name ?? id;

/** The file at `path` with `entries` merged in (a new file when none is there), and its projects. */
function fileOutcome(
  input: ImportInput,
  declared: Declared,
  path: string,
  entries: readonly (Entry & { readonly address: string })[],
): FileOutcome {
  const { catalogs } = input;
  const placements: Placement[] = entries.filter((e) => e.kept !== true);
  const before = input.existing.find((f) => f.path === path);
  const fileOrg = before === undefined ? undefined : declared.organizations.get(path);
  const foreign = placements.filter((p) => fileOrg !== undefined && p.project.organizationId !== fileOrg);
  if (foreign.length > 0)
    return {
      ok: false,
      diagnostic: {
        severity: "error",
        code: "import.organization-conflict",
        message: `${path} is for organization ${orgName(input, fileOrg ?? "")}, but ${foreign.map((p) => `${p.project.name} (${p.project.id})`).join(", ")} belong${foreign.length === 1 ? "s" : ""} to ${orgName(input, foreign[0]?.project.organizationId ?? "")}`,
        hint: "import those projects into another file (--out DIR writes one file per organization)",
      },
    };
  const orgs = [...new Set(placements.map((p) => p.project.organizationId))];
  const organization: Wanted =
    orgs.length === 1 && orgs[0] !== undefined ? organizationWanted(catalogs, orgs[0]) : { kind: "keep" };
  const fields = [...new Set(placements.flatMap((p) => p.project.customFields))].sort();
  let text: string;
  let changes: ReadonlyMap<string, ProjectChange>;
  if (before === undefined) {
    text = renderNewFile(placements, organization, fields, catalogs, input.schemaFor?.(path));
    changes = new Map(placements.map((p) => [p.project.id, "added" as const]));
  } else if (placements.length === 0) {
    // Only template instances: nothing of the file is edited.
    text = before.text;
    changes = new Map();
  } else {
    ({ text, changes } = mergeIntoText(before.text, placements, { organization, fields }, catalogs));
  }
  const projects = entries.map((e) => ({
    id: e.project.id,
    name: e.project.name,
    address: e.address,
    file: path,
    organizationId: e.project.organizationId,
    status: e.project.status,
    state: stateText(e.project),
    change: changes.get(e.project.id) ?? "unchanged",
  }));
  return {
    ok: true,
    file: { path, before: before?.text, text, changed: before?.text !== text },
    verify: { path, text, written: before?.text !== text, placements },
    projects,
  };
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
