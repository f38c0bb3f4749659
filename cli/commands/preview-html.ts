/**
 * `campaignctl preview --html DIR`: writes the visual gallery (`DIR/index.html`), one self-contained
 * page. With `--sandbox` or `--base-url` it first runs the plan pipeline (read-only: it never sends
 * anything) so each project shows the plan's status and the estimated cost; without a connection the
 * gallery says the projects were not planned. IO only: the model and the HTML are pure
 * (src/report/gallery/).
 */
import { join } from "node:path";
import type { ProjectSpec } from "../../src/campaign/model.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { Plan } from "../../src/plan/types.js";
import { buildGalleryModel, NOT_PLANNED } from "../../src/report/gallery/model.js";
import { renderGalleryHtml } from "../../src/report/gallery/page.js";
import { saveFile } from "../files.js";
import type { Io } from "../io.js";
import { runPlanPipeline } from "../plan-pipeline.js";
import type { SessionFlags, SessionOptions } from "../session.js";
import { openSessionWithProgress } from "../session-progress.js";

/** The file the gallery is written to inside `--html DIR`. */
export const GALLERY_FILE = "index.html";

export interface GalleryArgs {
  readonly paths: readonly string[];
  readonly projects: readonly ProjectSpec[];
  readonly commandLineValues?: Readonly<Record<string, string>>;
  /** `--html DIR`, relative to `io.cwd`. */
  readonly dir: string;
  /** The connection flags; the plan is made only with `sandbox` or `baseUrl`. */
  readonly connection: SessionFlags;
  /** The files' diagnostics (load, lint), shown with their projects. */
  readonly diagnostics: readonly Diagnostic[];
  /** `--project`: plan only that project (and what it is ordered after). */
  readonly project?: string;
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
  const planned = wantsPlan(args.connection)
    ? await planFor(io, args, options)
    : { plan: null, reason: NOT_PLANNED, diagnostics: [] };
  const model = buildGalleryModel({
    projects: args.projects,
    ...(args.commandLineValues !== undefined ? { commandLineValues: args.commandLineValues } : {}),
    plan: planned.plan,
    notPlannedReason: planned.reason,
    diagnostics: args.diagnostics,
  });
  const written = await saveFile(io, join(args.dir, GALLERY_FILE), renderGalleryHtml(model), "gallery");
  return [...planned.diagnostics, ...written];
}

async function planFor(
  io: Io,
  args: GalleryArgs,
  options: SessionOptions,
): Promise<{ plan: Plan | null; reason: string; diagnostics: readonly Diagnostic[] }> {
  const failed = "not planned: the plan could not be made (see the diagnostics)";
  const opened = await openSessionWithProgress(args.connection, io, "preview", options);
  if (!opened.ok) return { plan: null, reason: failed, diagnostics: opened.diagnostics };
  try {
    const result = await runPlanPipeline(
      {
        paths: args.paths,
        targets: args.project === undefined ? [] : [args.project],
        excludes: [],
        refresh: false,
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
