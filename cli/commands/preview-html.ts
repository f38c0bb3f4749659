/**
 * `campaignctl preview --html DIR`: writes the visual gallery (`DIR/index.html`), one self-contained
 * page. With `--sandbox` or `--base-url` it first runs the plan pipeline (read-only: it never sends
 * anything); with `--plan FILE` it reads a saved plan instead (offline: no key, no request). Either
 * way the gallery then shows the plan's lists, counts, costs, statuses and policy; without a plan it
 * says the projects were not planned. With `--forecast` (and a connection) the plan carries its
 * forecast, and the gallery its timeline; a saved plan made with `plan --forecast` shows its own.
 * IO only: the model and the HTML are pure (src/report/gallery/).
 */
import { join } from "node:path";
import type { CampaignFile, ProjectSpec } from "../../src/campaign/model.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { Plan } from "../../src/plan/types.js";
import { buildGalleryModel, NOT_PLANNED } from "../../src/report/gallery/model.js";
import { renderGalleryHtml } from "../../src/report/gallery/page.js";
import { saveFile } from "../adapters/files.js";
import { readSavedPlan } from "../adapters/saved-plan.js";
import { runPlanPipeline } from "../gather/plan-pipeline.js";
import type { SessionFlags, SessionOptions } from "../gather/session.js";
import type { Io } from "../output/io.js";
import { openSessionWithProgress } from "../progress/session-progress.js";

/** The file the gallery is written to inside `--html DIR`. */
export const GALLERY_FILE = "index.html";

export interface GalleryArgs {
  readonly paths: readonly string[];
  /** The loaded campaign files (their sha256 is compared with a saved plan's). */
  readonly files: readonly CampaignFile[];
  readonly projects: readonly ProjectSpec[];
  readonly commandLineValues?: Readonly<Record<string, string>>;
  /** `--html DIR`, relative to `io.cwd`. */
  readonly dir: string;
  /** The connection flags; the plan is made only with `sandbox` or `baseUrl`. */
  readonly connection: SessionFlags;
  /** The files' diagnostics (load, lint), shown with their projects. */
  readonly diagnostics: readonly Diagnostic[];
  /** `--target`: plan only these projects (and what they are ordered after); none: every project. */
  readonly targets: readonly string[];
  /** `--exclude`: leave these projects out of the plan. */
  readonly excludes: readonly string[];
  /** `--plan FILE`: read this saved plan instead of planning (the registration refuses it with a connection). */
  readonly planFile?: string;
  /**
   * `--forecast` (with a connection): the plan made carries its forecast, computed as
   * `plan --forecast` does, and the gallery shows its timeline. A saved plan shows its own.
   */
  readonly forecast?: boolean;
}

interface Planned {
  readonly plan: Plan | null;
  readonly reason: string;
  /** Reported on stderr. */
  readonly diagnostics: readonly Diagnostic[];
  /** Shown on the page too (a saved plan of other file contents). */
  readonly onPage?: readonly Diagnostic[];
}

/** Whether the flags ask for a plan. */
export function wantsPlan(connection: SessionFlags): boolean {
  return connection.sandbox === true || connection.baseUrl !== undefined;
}

/**
 * Plans (when asked), renders and writes the gallery. Returns the problems to report: those of the
 * plan (the gallery is still written, saying the projects were not planned) and a file that could
 * not be written.
 */
export async function writeGallery(
  io: Io,
  args: GalleryArgs,
  options: SessionOptions = {},
): Promise<Diagnostic[]> {
  const planned: Planned =
    args.planFile !== undefined
      ? await savedPlanFor(io, args, args.planFile)
      : wantsPlan(args.connection)
        ? await planFor(io, args, options)
        : { plan: null, reason: NOT_PLANNED, diagnostics: [] };
  const model = buildGalleryModel({
    projects: args.projects,
    ...(args.commandLineValues !== undefined ? { commandLineValues: args.commandLineValues } : {}),
    plan: planned.plan,
    notPlannedReason: planned.reason,
    ...(args.planFile !== undefined ? { planSource: args.planFile } : {}),
    diagnostics: [...args.diagnostics, ...(planned.onPage ?? [])],
  });
  const written = await saveFile(io, join(args.dir, GALLERY_FILE), renderGalleryHtml(model), "gallery");
  return [...planned.diagnostics, ...written];
}

/**
 * Reads a saved plan (`plan --out FILE`), offline. A file that cannot be read or is not a valid plan
 * document leaves the projects not planned (its diagnostics are errors); a campaign file holding a
 * project the plan covers whose bytes are not those the plan was made from is a warning, on stderr
 * and on the page.
 */
async function savedPlanFor(io: Io, args: GalleryArgs, planFile: string): Promise<Planned> {
  const failed = `not planned: the saved plan ${planFile} could not be read (see the diagnostics)`;
  const read = await readSavedPlan(io.cwd, planFile, {
    named: "--plan",
    unreadableCode: "cli.file-unreadable",
  });
  if (!read.ok) return { plan: null, reason: failed, diagnostics: read.diagnostics };
  const differ = filesDiffer(read.plan, planFile, args);
  return { plan: read.plan, reason: NOT_PLANNED, diagnostics: differ, onPage: differ };
}

/** Campaign files with a project the plan covers, whose sha256 is none of the plan's files'. */
function filesDiffer(plan: Plan, planFile: string, args: GalleryArgs): Diagnostic[] {
  const covered = new Set(plan.projects.map((p) => p.address));
  const holding = new Set(args.projects.filter((p) => covered.has(p.address)).map((p) => p.file));
  const planned = new Set(plan.files.map((f) => f.sha256));
  return args.files
    .filter((f) => holding.has(f.path) && !planned.has(f.sha256))
    .map((f) => ({
      severity: "warning",
      code: "report.plan-files-differ",
      message: `${f.path} is not the file the saved plan ${planFile} was made from (its sha256 differs): the gallery shows its messages beside the plan's figures of another version`,
      hint: `make the plan and the gallery from the same files: \`campaignctl plan --out ${planFile}\`, then \`preview --html DIR --plan ${planFile}\``,
    }));
}

async function planFor(io: Io, args: GalleryArgs, options: SessionOptions): Promise<Planned> {
  const failed = "not planned: the plan could not be made (see the diagnostics)";
  const opened = await openSessionWithProgress(args.connection, io, "preview", options);
  if (!opened.ok) return { plan: null, reason: failed, diagnostics: opened.diagnostics };
  try {
    const result = await runPlanPipeline(
      {
        paths: args.paths,
        targets: args.targets,
        excludes: args.excludes,
        refresh: false,
        // The pipeline forecasts as for `plan --forecast`; the plan then carries it as `forecast`.
        forecast: args.forecast === true,
        // The gallery shows the texting projects: no email read.
        email: false,
      },
      opened.session,
      io,
    );
    opened.progress.finish();
    if (!result.ok) return { plan: null, reason: failed, diagnostics: result.diagnostics };
    return { plan: result.plan, reason: NOT_PLANNED, diagnostics: [] };
  } finally {
    await opened.session.close();
  }
}
