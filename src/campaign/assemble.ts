/**
 * Turns read campaign files into the Campaign model and every problem found on the way: YAML,
 * schema, duplicate addresses and ids, per-project rules and `after` ordering. Pure: no IO, no clock.
 * Keeps going after errors; a project whose own values (or whose file's shared values) are invalid
 * is left out of `campaign.projects`, so later stages only see schema-valid projects.
 */
import { type Document, isAlias, isMap, isScalar, type Node, type YAMLMap } from "yaml";
import type { Diagnostic, SourceRange } from "../diagnostics/diagnostic.js";
import { own } from "../text/names.js";
import { checkAfter } from "./after-graph.js";
import type { CrossProject } from "./cross-project.js";
import { duplicateIds } from "./duplicate-ids.js";
import { emailGuardFindings } from "./email-guard-checks.js";
import { type EmailSpecs, NO_EMAIL } from "./email-model.js";
import { decodeEmail, repeatedLists } from "./email-spec.js";
import { checkExperiments, decodeExperiments } from "./experiment-spec.js";
import { findingTrusted, type KeyTrust, keyTrust, projectUntrusted } from "./key-trust.js";
import type { Campaign, CampaignFile, ExperimentSpec, ProjectSpec, TemplateSpec } from "./model.js";
import { parseCampaignFile } from "./parse-yaml.js";
import { checkProject } from "./project-checks.js";
import { buildProjectSpec } from "./project-spec.js";
import type { RawCampaignDocument } from "./raw.js";
import { validateCampaignData } from "./schema.js";
import { schemaDiagnostics } from "./schema-diagnostics.js";
import { fileStart, rangeAt, type SourceText } from "./source-range.js";
import { type InstanceDeclaration, instanceDeclarations } from "./template-declarations.js";
import { expandTemplates } from "./template-expand.js";
import { relateToOrigin } from "./template-origin.js";
import { propertyNameOf, trustedData } from "./trusted-data.js";
import { MAX_NESTING, tooDeep } from "./yaml-depth.js";
import { findPath, resolveAlias } from "./yaml-path.js";

const NOTHING: ReadonlySet<string> = new Set();

/** Aliases may expand at most this much while building a file's data (billion-laughs guard). */
export const MAX_ALIAS_COUNT = 100;

export interface AssembleResult {
  readonly campaign: Campaign;
  /** In discovery order; sort with `compareDiagnostics` to show. */
  readonly diagnostics: readonly Diagnostic[];
  /** Every address declared by the files (valid or not), first declaration first. */
  readonly addresses: readonly string[];
}

interface Declaration {
  readonly address: string;
  readonly source: SourceText;
  readonly span: readonly [number, number];
  /** The project's value node (resolved through an alias). */
  readonly node: Node | undefined;
}

/** A project key as written, for the checks across files (duplicate addresses). */
export interface FileDeclaration {
  readonly address: string;
  readonly range: SourceRange;
}

/**
 * One file on its own: every problem found in it alone (YAML, schema, per-project rules), the
 * addresses it declares, and the schema-valid projects it describes. Invariant: `projects` are in
 * key order, each declared in `declarations`. `P` is `ProjectSpec`, or its cross-file summary when
 * the file was assembled on a worker thread (cross-project.ts).
 */
export interface FileAssembly<P extends CrossProject = ProjectSpec> {
  readonly diagnostics: readonly Diagnostic[];
  readonly declarations: readonly FileDeclaration[];
  readonly projects: readonly P[];
  /**
   * Projects with schema errors (theirs, or in the file's `defaults` or top level), built without
   * the untrusted keys: only for the findings about their other keys (lint, validate's policy check),
   * never planned, never in the checks across files. Same thread only (not plain data).
   */
  readonly partial?: readonly PartialProject[];
  /** The file's templates, for the checks between their variants. Same thread only. */
  readonly templates?: readonly TemplateSpec[];
  /** The file's email lists and email campaigns (plain data); absent: none. */
  readonly email?: EmailSpecs;
  /** The file's experiments that pass its own checks (plain data); absent: none. */
  readonly experiments?: readonly ExperimentSpec[];
}

/** A project checked without the keys it cannot trust (src/campaign/key-trust.ts). */
export interface PartialProject {
  readonly project: ProjectSpec;
  readonly untrusted: ReadonlySet<string>;
}

/**
 * The files assembled together. `assemble` is {@link assembleFile} or a memo of it (it must return
 * what `assembleFile` returns for the same file: cli/adapters/load-campaign.ts keeps them across the
 * in-process runs of one process).
 */
export function assembleCampaign(
  files: readonly CampaignFile[],
  assemble: (file: CampaignFile) => FileAssembly = assembleFile,
): AssembleResult {
  const assembled = files.map(assemble);
  const combined = combineFiles(assembled);
  const templates = assembled.flatMap((file) => file.templates ?? []);
  const { email, experiments } = combined;
  return {
    campaign: {
      files,
      projects: combined.projects,
      ...(templates.length === 0 ? {} : { templates }),
      ...(email.lists.length === 0 ? {} : { emailLists: email.lists }),
      ...(email.campaigns.length === 0 ? {} : { emailCampaigns: email.campaigns }),
      ...(experiments.length === 0 ? {} : { experiments }),
    },
    diagnostics: combined.diagnostics,
    addresses: combined.addresses,
  };
}

/** The checks of one file that need no other file. Pure; safe to run on a worker thread. */
export function assembleFile(file: CampaignFile): FileAssembly {
  const diagnostics: Diagnostic[] = [];
  const projects: ProjectSpec[] = [];
  const parsed = parseCampaignFile(file);
  diagnostics.push(...parsed.diagnostics);
  const doc = parsed.doc;
  if (doc === undefined) return { diagnostics, declarations: [], projects };
  const declarations = declarationsOf(doc, parsed.source, parsed.mapsWithRepeatedKeys);
  const instances = instanceDeclarations(doc);
  // Each project key located once: its declaration and its ProjectSpec share the range.
  const keyRanges = declarations.map((d) => rangeAt(d.source, d.span[0], d.span[1]));
  const declared = [
    ...declarations.map((d, i) => ({ address: d.address, range: keyRanges[i] as SourceRange })),
    ...instances.map((d) => ({ address: d.address, range: rangeAt(parsed.source, d.span[0], d.span[1]) })),
  ];
  let email: EmailSpecs = NO_EMAIL;
  let experiments: readonly ExperimentSpec[] = [];
  const done = () => ({
    diagnostics,
    declarations: declared,
    projects,
    ...(email.lists.length === 0 && email.campaigns.length === 0 ? {} : { email }),
    ...(experiments.length === 0 ? {} : { experiments }),
  });
  if (!parsed.usable) return done();
  // Built by the walk for duplicate keys when it could be (yaml-walk.ts), else by `toJS`.
  const data = parsed.data === undefined ? toData(doc, parsed.source, diagnostics) : parsed.data.value;
  if (data === undefined) return done();
  const errors = validateCampaignData(data);
  diagnostics.push(...schemaDiagnostics(errors, doc, parsed.source));
  email = decodeEmail(
    data,
    errors.map((e) => e.instancePath),
    { doc, source: parsed.source },
  );
  const decoded = decodeExperiments(
    data,
    errors.map((e) => e.instancePath),
    { doc, source: parsed.source },
  );
  diagnostics.push(...decoded.diagnostics);
  experiments = decoded.experiments;
  const trust = keyTrust(
    errors.map((e) => ({ ...e, propertyName: propertyNameOf(e) })),
    data,
  );
  if (trust.fileWide) return done();
  // With schema errors, the projects are built from the file without its untrusted keys (schema-valid).
  const raw = errors.length === 0 ? (data as RawCampaignDocument) : trustedData(data, trust);
  if (raw === undefined) return done();
  const defaultsNode = findPath(doc, doc.contents, ["defaults"]).node;
  const partial: PartialProject[] = [];
  declarations.forEach((declaration, index) => {
    const rawProject = own(raw.projects, declaration.address);
    if (rawProject === undefined) return;
    // Without schema errors every key is trusted (the common case: no per-project work).
    const untrusted =
      errors.length === 0 ? NOTHING : projectUntrusted(trust, declaration.address, Object.keys(rawProject));
    if (untrusted === null) return;
    const project = buildProjectSpec(declaration.address, rawProject, raw, {
      source: parsed.source,
      doc,
      node: declaration.node,
      keySpan: declaration.span,
      keyRange: keyRanges[index],
      defaultsNode,
    });
    if (!trust.outsideProjects && !trust.projects.has(declaration.address)) {
      projects.push(project);
      diagnostics.push(...checkProject(project));
    } else {
      partial.push({ project, untrusted });
      diagnostics.push(...checkProject(project).filter((d) => findingTrusted(d.code, untrusted)));
    }
  });
  const skip = instancesToSkip(instances, declarations, trust);
  const expansion = expandTemplates(raw, { source: parsed.source, doc, defaultsNode }, instances, skip);
  diagnostics.push(...expansion.diagnostics);
  for (const project of expansion.projects) {
    const untrusted = projectUntrusted(trust, project.address, []);
    if (untrusted === null) continue;
    const found = relateToOrigin(project, checkProject(project));
    if (!trust.outsideProjects) {
      projects.push(project);
      diagnostics.push(...found);
    } else {
      partial.push({ project, untrusted });
      diagnostics.push(...found.filter((d) => findingTrusted(d.code, untrusted)));
    }
  }
  return { ...done(), partial, templates: expansion.templates };
}

/**
 * Template instances not to expand: an address already declared in the file (by a project or an
 * earlier instance), which combineFiles reports across files, and an untrusted one.
 */
function instancesToSkip(
  instances: readonly InstanceDeclaration[],
  declarations: readonly Declaration[],
  trust: KeyTrust,
): Set<string> {
  const skip = new Set<string>();
  // No instance, nothing to skip: no index of the file's addresses (60,000 in one 10 MiB file).
  if (instances.length === 0) return skip;
  const seen = new Set(declarations.map((d) => d.address));
  for (const instance of instances) {
    const untrustedTemplate = trust.templates.get(instance.template) ?? trust.templates.get("*");
    if (
      seen.has(instance.address) ||
      untrustedTemplate === "all" ||
      untrustedTemplate?.has(instance.address) === true
    )
      skip.add(instance.address);
    seen.add(instance.address);
  }
  return skip;
}

/**
 * The checks across files, over the files' own results in load order: an address declared again
 * (the first declaration wins, later projects with it are dropped), ids used twice or differing
 * only in case, and `after` entries (unknown names, cycles). Pure.
 */
export function combineFiles<P extends CrossProject>(
  files: readonly Pick<
    FileAssembly<P>,
    "diagnostics" | "declarations" | "projects" | "email" | "experiments"
  >[],
): {
  readonly projects: P[];
  readonly diagnostics: Diagnostic[];
  readonly addresses: string[];
  /** Every file's email entries, in load order, a list naming a live list named before left out. */
  readonly email: EmailSpecs;
  /** Every file's experiments whose arms and holdout name projects, a repeated name left out. */
  readonly experiments: ExperimentSpec[];
} {
  const diagnostics: Diagnostic[] = [];
  const declared = new Map<string, { readonly file: number; readonly declaration: FileDeclaration }>();
  files.forEach((file, index) => {
    diagnostics.push(...file.diagnostics);
    for (const declaration of file.declarations) {
      const first = declared.get(declaration.address);
      if (first === undefined) declared.set(declaration.address, { file: index, declaration });
      else diagnostics.push(duplicateAddress(declaration, first.declaration));
    }
  });
  const projects = files.flatMap((file, index) =>
    file.projects.filter((p) => declared.get(p.address)?.file === index),
  );
  diagnostics.push(...duplicateIds(projects));
  diagnostics.push(...checkAfter(projects, declared));
  const email = repeatedLists({
    lists: files.flatMap((f) => f.email?.lists ?? []),
    campaigns: files.flatMap((f) => f.email?.campaigns ?? []),
  });
  diagnostics.push(...email.diagnostics, ...emailGuardFindings(email.specs.campaigns));
  const experiments = checkExperiments(
    files.flatMap((f) => f.experiments ?? []),
    declared,
  );
  diagnostics.push(...experiments.diagnostics);
  return {
    projects,
    diagnostics,
    addresses: [...declared.keys()],
    email: email.specs,
    experiments: experiments.experiments,
  };
}

/** The file's data as plain values, or undefined (with a diagnostic) when building it is refused. */
function toData(doc: Document, source: SourceText, diagnostics: Diagnostic[]): unknown {
  const deep = tooDeep(doc.contents);
  if (deep !== undefined) {
    const [start, end] = deep.node.range ?? [0, 0];
    diagnostics.push({
      severity: "error",
      code: "campaign.yaml-too-complex",
      message: `the file nests lists and maps more than ${MAX_NESTING} levels deep (inside each other); a campaign file needs about six`,
      range: rangeAt(source, start, Math.min(end, start + 1)),
      hint: "close the brackets or fix the indentation where nesting runs away; campaign files need no deep nesting",
    });
    return undefined;
  }
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // The yaml library throws ReferenceError on an alias bomb (nesting was measured above).
    if (!(error instanceof ReferenceError || error instanceof RangeError)) throw error;
    diagnostics.push({
      severity: "error",
      code: "campaign.yaml-too-complex",
      message: `the file's aliases expand to too much data (more than ${MAX_ALIAS_COUNT} alias expansions)`,
      range: fileStart(source.file),
      hint: "campaign files do not need nested aliases; use `defaults` to share values between projects",
    });
    return undefined;
  }
}

/**
 * Project keys written under a top-level `projects` map, with where each is written, each address
 * once (its first key). `repeatedIn`: the maps with a repeated key as the walk found them (absent:
 * unknown); only those need an index to skip repeats.
 */
function declarationsOf(
  doc: Document,
  source: SourceText,
  repeatedIn: readonly YAMLMap<unknown, unknown>[] | undefined,
): Declaration[] {
  // `complete`: a file without `projects` has none (the hit would be the top-level map itself).
  const hit = findPath(doc, doc.contents, ["projects"]);
  const projects = hit.complete ? hit.node : undefined;
  if (!isMap(projects)) return [];
  const out: Declaration[] = [];
  // Keys as the walk's duplicate-key check reads them; a duplicate key is already reported.
  const seen = repeatedIn === undefined || repeatedIn.includes(projects) ? new Set<string>() : undefined;
  for (const pair of projects.items) {
    const key = pair.key;
    if (!isScalar(key) || !key.range) continue;
    const address = String(key.value);
    if (seen !== undefined) {
      if (seen.has(address)) continue;
      seen.add(address);
    }
    const value = isAlias(pair.value) ? resolveAlias(doc, pair.value) : pair.value;
    const node = isMap(value) || isScalar(value) ? value : undefined;
    out.push({ address, source, span: [key.range[0], key.range[1]], node });
  }
  return out;
}

function duplicateAddress(again: FileDeclaration, first: FileDeclaration): Diagnostic {
  return {
    severity: "error",
    code: "campaign.duplicate-address",
    message: `project address \`${again.address}\` is already declared in ${first.range.file}`,
    range: again.range,
    hint: "addresses are unique across all loaded files: rename one of the projects",
    related: [{ message: `\`${first.address}\` first declared here`, range: first.range }],
  };
}
