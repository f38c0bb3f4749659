/**
 * `campaignctl preview [paths...]`: renders each project's message as contacts would get it (test
 * contacts, `--contact` values, a contact with no values), with characters, encoding and segments.
 * Offline (no API key, no network) unless `--html` is given with a connection (`preview-html.ts`).
 */
import { lintCampaign } from "../../src/campaign/lint/index.js";
import type { ProjectSpec } from "../../src/campaign/model.js";
import { compareDiagnostics, type Diagnostic, hasErrors } from "../../src/diagnostics/diagnostic.js";
import { type ProjectPreview, previewProject } from "../../src/message/preview.js";
import { describeFilePlaces } from "../../src/report/places-words.js";
import { type PreviewRun, previewView } from "../../src/report/preview-view.js";
import { didYouMean } from "../../src/text/did-you-mean.js";
import { loadCampaign } from "../adapters/load-campaign.js";
import { loadPolicy } from "../adapters/policy-file.js";
import type { NowFlags } from "../flags/now-option.js";
import type { Format, OutputFlags } from "../flags/output-format.js";
import type { SelectionFlags } from "../flags/selection-flags.js";
import type { SessionFlags } from "../gather/session.js";
import { type Io, useColor } from "../output/io.js";
import { failure, type Outcome, success } from "../output/outcome.js";
import { checkReportDir } from "../output/report-paths.js";
import { GALLERY_FILE, writeGallery } from "./preview-html.js";

/**
 * The flags of `preview`, as commander parses them. The connection flags (`SessionFlags`) are used
 * only with `html` (the registration refuses them without it); `now` only for the offline lint.
 */
export interface PreviewFlags extends OutputFlags, SessionFlags, NowFlags, SelectionFlags {
  readonly contact: readonly [string, string][];
  /** `--html DIR`: write the visual gallery there; `--sandbox`/`--base-url` add the plan's status. */
  readonly html?: string;
  /** `--plan FILE`: with `--html`, take the plan from this saved plan (offline) instead of planning. */
  readonly plan?: string;
  /** `--forecast`: with `--html` and a connection, the gallery shows the plan's forecast timeline. */
  readonly forecast?: boolean;
}

/** Runs `preview`: renders the projects (and with `--html`, the gallery) and reports problems. */
export async function previewCommand(
  paths: readonly string[],
  flags: PreviewFlags,
  io: Io,
): Promise<Outcome> {
  // DIR is checked first: a path that cannot be written fails before any file is planned.
  const badDir =
    flags.html === undefined
      ? []
      : await checkReportDir(io, { flag: "--html", dir: flags.html, file: GALLERY_FILE });
  const loaded = loadCampaign(paths, io.cwd);
  const files = loaded.campaign.files;
  if (hasErrors(loaded.diagnostics) || badDir.length > 0) {
    const diagnostics = [...loaded.diagnostics, ...badDir].sort(compareDiagnostics);
    emit(io, flags, { files, projectCount: loaded.addresses.length, previews: [], diagnostics });
    return failure;
  }
  const unknown = unknownAddresses(flags, loaded.addresses);
  if (unknown.length > 0) {
    emit(io, flags, { files, projectCount: loaded.addresses.length, previews: [], diagnostics: unknown });
    return failure;
  }
  const projects = loaded.campaign.projects.filter(
    (p) =>
      (flags.target.length === 0 || flags.target.includes(p.address)) && !flags.exclude.includes(p.address),
  );
  const commandLineValues = flags.contact.length > 0 ? Object.fromEntries(flags.contact) : undefined;
  const previews = projects.map((p) =>
    previewProject(p, commandLineValues !== undefined ? { commandLineValues } : {}),
  );
  // Offline, the system clock is the only clock there is, unless --now pins it; a past schedule is a
  // warning naming the clock. (With --html and a connection, the plan judges by the API's clock.)
  // The policy's opt-out wording (templates in other languages) and places (quiet hours in every zone of a list); its rules are validate's and plan's.
  const policy = loadPolicy(
    {},
    files.map((f) => f.path),
    io.cwd,
  );
  const wording = policy.ok ? policy.policy?.rules.opt_out_wording : undefined;
  const places = policy.ok ? (policy.policy?.places ?? []) : [];
  const selected = new Set(projects.map((p) => p.address));
  const templates = (loaded.campaign.templates ?? []).filter((t) =>
    t.instances.some((i) => selected.has(i.address)),
  );
  const placed = withPlaces(previews, projects, places);
  const lint = lintCampaign(
    { files, projects, templates },
    {
      ...(flags.now === undefined ? { now: new Date(io.clock()) } : { now: flags.now, clock: "--now" }),
      ...(wording === undefined ? {} : { optOutWording: wording }),
      ...(places.length === 0 ? {} : { places }),
    },
  );
  const galleryProblems =
    flags.html === undefined
      ? []
      : await writeGallery(io, {
          paths,
          files,
          projects,
          ...(commandLineValues !== undefined ? { commandLineValues } : {}),
          dir: flags.html,
          diagnostics: [...loaded.diagnostics, ...lint],
          connection: flags,
          targets: flags.target,
          excludes: flags.exclude,
          ...(flags.plan !== undefined ? { planFile: flags.plan } : {}),
          ...(flags.forecast === true ? { forecast: true } : {}),
        });
  const diagnostics = [...loaded.diagnostics, ...lint, ...galleryProblems].sort(compareDiagnostics);
  // With --html the gallery replaces the text previews (problems still go to stderr): the view's call.
  emit(io, flags, { files, projectCount: projects.length, previews: placed, diagnostics }, flags.html);
  return hasErrors(diagnostics) ? failure : success;
}

/** Where each project's lists are, as the policy declares them: a note of its preview. */
function withPlaces(
  previews: readonly ProjectPreview[],
  projects: readonly ProjectSpec[],
  places: Parameters<typeof describeFilePlaces>[0],
): ProjectPreview[] {
  return previews.map((preview, i) => {
    const spec = projects[i];
    const where =
      spec === undefined ? null : describeFilePlaces(places, spec.organization, spec.contactLists ?? []);
    return where === null ? preview : { ...preview, notes: [...preview.notes, `recipients in: ${where}`] };
  });
}

/** A usage error for each `--target` or `--exclude` that names no project of the files. */
function unknownAddresses(flags: SelectionFlags, addresses: readonly string[]): Diagnostic[] {
  const named = [
    ...flags.target.map((a) => ["--target", a] as const),
    ...flags.exclude.map((a) => ["--exclude", a] as const),
  ];
  return named
    .filter(([, address]) => !addresses.includes(address))
    .map(([flag, address]) => {
      const suggestion = didYouMean(address, addresses);
      return {
        severity: "error",
        code: "cli.usage",
        message: `${flag} ${address} names no project in the given files`,
        hint:
          suggestion !== undefined
            ? `did you mean ${suggestion}?`
            : `projects: ${addresses.join(", ") || "(none)"}`,
      };
    });
}

/**
 * Prints a run through the view of the format asked for (chosen here, once); `html`: the gallery's
 * directory when one was written.
 */
function emit(
  io: Io,
  flags: { readonly format: Format; readonly color: boolean; readonly verbose?: boolean },
  run: Omit<PreviewRun, "gallery">,
  html?: string,
): void {
  const view = previewView(flags.format, {
    stdoutColor: flags.color && useColor(io, "stdout"),
    stderrColor: flags.color && useColor(io, "stderr"),
    verbose: flags.verbose === true,
  });
  const printed = view({ ...run, gallery: html !== undefined });
  if (printed.stdout !== "") io.stdout(printed.stdout);
  if (printed.stderr !== "") io.stderr(printed.stderr);
}
