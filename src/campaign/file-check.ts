/**
 * `validate`'s work split in two: what one file needs alone (load, schema, per-project rules, lint
 * of each project, and the checks a pipeline adds per project), which may run on a worker thread,
 * and what needs every file (duplicate addresses and ids, `after`, the lint rules across projects).
 * Pure: the clock is passed in, as plain data. Campaign files know no policy: `validate` adds the
 * policy's check of each project as a ProjectCheck (cli/validate/validate-check.ts).
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ListPlaces } from "../jurisdictions/index.js";
import type { OptOutWording } from "../message/opt-out-wording.js";
import { assembleFile, combineFiles, type FileAssembly } from "./assemble.js";
import { type CrossProject, type CrossProjectData, fromCrossData, toCrossData } from "./cross-project.js";
import { type EmailSpecs, NO_EMAIL } from "./email-model.js";
import { FINDING_READS, findingTrusted } from "./key-trust.js";
import { type LintContext, lintAcross, lintProjects } from "./lint/index.js";
import type { CampaignFile, ProjectSpec } from "./model.js";
import { relateToOrigin } from "./template-origin.js";
import { checkTemplateVariants } from "./template-variants.js";

/** What a file check needs besides the file; plain data, so it crosses to a worker thread. */
export interface FileCheckJob {
  /** Epoch ms of `LintContext.now`, or null for no clock. */
  readonly now: number | null;
  readonly clock?: string;
  /** Opt-out wording the policy accepts beyond the built-in (LintContext's). */
  readonly optOutWording?: OptOutWording;
  /** Where contact lists' recipients live (the policy's `places:`; LintContext's). */
  readonly places?: readonly ListPlaces[];
}

/**
 * A check a pipeline above `campaign` runs on each project of a file, after the file's own checks
 * (validate: the policy's). Pure; its findings follow the lint's, in project order.
 */
export type ProjectCheck = ((project: ProjectSpec) => readonly Diagnostic[]) & {
  /**
   * The keys each of its codes reads (as `FINDING_READS`): on a project with untrusted keys its
   * findings are kept only when listed here and reading none of them.
   */
  readonly reads?: Partial<Readonly<Record<string, readonly string[]>>>;
};

/** One file's own findings, as plain data. */
export interface FileCheck {
  readonly diagnostics: readonly Diagnostic[];
  readonly declarations: FileAssembly["declarations"];
  readonly projects: readonly CrossProjectData[];
  /** The file's email entries (plain data already); absent: none. */
  readonly email?: EmailSpecs;
  /** The file's experiments (plain data already); absent: none. */
  readonly experiments?: FileAssembly["experiments"];
}

function lintContext(job: FileCheckJob): LintContext {
  return {
    now: job.now === null ? null : new Date(job.now),
    ...(job.clock === undefined ? {} : { clock: job.clock }),
    ...(job.optOutWording === undefined ? {} : { optOutWording: job.optOutWording }),
    ...(job.places === undefined || job.places.length === 0 ? {} : { places: job.places }),
  };
}

/** Everything about `file` that needs no other file, keeping its projects whole (same thread). */
export function checkFileInPlace(
  file: CampaignFile,
  job: FileCheckJob,
  checkProject?: ProjectCheck,
): FileAssembly {
  const assembled = assembleFile(file);
  const context = lintContext(job);
  const lint = lintProjects(assembled.projects, context);
  const added =
    checkProject === undefined ? [] : assembled.projects.flatMap((p) => relateToOrigin(p, checkProject(p)));
  // Projects with schema errors: every finding about the keys they can trust (key-trust.ts).
  const reads = { ...FINDING_READS, ...checkProject?.reads };
  const partial = (assembled.partial ?? []).flatMap(({ project, untrusted }) =>
    [...lintProjects([project], context), ...relateToOrigin(project, checkProject?.(project) ?? [])].filter(
      (d) => findingTrusted(d.code, untrusted, reads),
    ),
  );
  return {
    diagnostics: [
      ...assembled.diagnostics,
      ...lint,
      ...added,
      ...partial,
      ...checkTemplateVariants(assembled.templates ?? [], context.optOutWording),
    ],
    declarations: assembled.declarations,
    projects: assembled.projects,
    ...(assembled.email === undefined ? {} : { email: assembled.email }),
    ...(assembled.experiments === undefined ? {} : { experiments: assembled.experiments }),
  };
}

/**
 * Everything about `file` that needs no other file, as plain data (for a worker thread to send
 * back): the file's YAML document is not kept, only what the checks across files point at.
 */
export function checkFileAlone(
  file: CampaignFile,
  job: FileCheckJob,
  checkProject?: ProjectCheck,
): FileCheck {
  const checked = checkFileInPlace(file, job, checkProject);
  return {
    diagnostics: checked.diagnostics,
    declarations: checked.declarations,
    projects: checked.projects.map(toCrossData),
    ...(checked.email === undefined ? {} : { email: checked.email }),
    ...(checked.experiments === undefined ? {} : { experiments: checked.experiments }),
  };
}

/**
 * The only file of a run, checked whole: its own findings, then those of the checks across files
 * (over its projects alone), and the addresses it declares. Exactly what `combineFileChecks` gives
 * for that file checked in place, as plain data, and small: a worker thread checking a run's only
 * file sends back this instead of the file's projects and declarations.
 */
export interface LoneFileCheck {
  readonly lone: true;
  readonly diagnostics: readonly Diagnostic[];
  readonly addresses: readonly string[];
  readonly email: EmailSpecs;
}

/** `file` checked as the only file of a run (see LoneFileCheck). */
export function checkLoneFile(
  file: CampaignFile,
  job: FileCheckJob,
  checkProject?: ProjectCheck,
): LoneFileCheck {
  return { lone: true, ...combineFileChecks([checkFileInPlace(file, job, checkProject)], job) };
}

/**
 * A file checked on this thread, or its plain-data form from a worker. A LoneFileCheck is only
 * ever the one check of a run.
 */
export type CheckedFile = FileAssembly<CrossProject> | FileCheck | LoneFileCheck;

function isPlain(checked: FileAssembly<CrossProject> | FileCheck): checked is FileCheck {
  const first = checked.projects[0];
  return first !== undefined && "ranges" in first;
}

/** Every file's own findings (in load order) joined by the checks across files; unsorted. */
export function combineFileChecks(
  checks: readonly CheckedFile[],
  job: FileCheckJob,
): {
  readonly diagnostics: Diagnostic[];
  readonly addresses: readonly string[];
  /** Every file's email entries (one per live list: the loader's check across files). */
  readonly email: EmailSpecs;
} {
  const only = checks.length === 1 ? checks[0] : undefined;
  if (only !== undefined && "lone" in only)
    return { diagnostics: [...only.diagnostics], addresses: only.addresses, email: only.email };
  const files: FileAssembly<CrossProject>[] = checks.map((c) => {
    if ("lone" in c) throw new Error("bug: a lone file's check among several files");
    return isPlain(c)
      ? {
          diagnostics: c.diagnostics,
          declarations: c.declarations,
          projects: c.projects.map(fromCrossData),
          email: c.email ?? NO_EMAIL,
          ...(c.experiments === undefined ? {} : { experiments: c.experiments }),
        }
      : c;
  });
  const combined = combineFiles(files);
  return {
    diagnostics: [...combined.diagnostics, ...lintAcross(combined.projects, lintContext(job))],
    addresses: combined.addresses,
    email: combined.email,
  };
}
