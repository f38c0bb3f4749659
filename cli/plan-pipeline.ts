/**
 * Files to plan, shared by `plan` and `apply`: load and validate the campaign files, lint them,
 * check `--target`/`--exclude` (any error so far stops before the first request), refresh the live
 * state of the covered projects through the session (with the disk cache), and assemble the plan.
 * The plan's diagnostics gather the files' warnings, the refresh's warnings (cache, stats fallback)
 * and the selection's, so a saved plan tells the whole story.
 */

import { lintCampaign } from "../src/campaign/lint/index.js";
import { loadCampaign } from "../src/campaign/load.js";
import type { Campaign } from "../src/campaign/model.js";
import { compareDiagnostics, type Diagnostic, hasErrors } from "../src/diagnostics/diagnostic.js";
import { assemblePlan } from "../src/plan/assemble.js";
import type { CacheStore } from "../src/plan/cache.js";
import { refreshLive } from "../src/plan/refresh.js";
import { selectProjects } from "../src/plan/select.js";
import { summarize } from "../src/plan/summary.js";
import type { Plan } from "../src/plan/types.js";
import { createFileCache } from "./file-cache.js";
import type { Io } from "./io.js";
import type { Session } from "./session.js";
import { VERSION } from "./version.js";

export interface PlanPipelineArgs {
  /** Campaign files or directories, relative to `io.cwd`. */
  readonly paths: readonly string[];
  /** `--target` addresses, as given. */
  readonly targets: readonly string[];
  /** `--exclude` addresses, as given. */
  readonly excludes: readonly string[];
  /** `--refresh`: do not read the cache (it is still written). */
  readonly refresh: boolean;
  /** Default: the disk cache under `io.cwd` for the session's API. */
  readonly cache?: CacheStore;
}

/**
 * `sources` maps each loaded file (path as shown in diagnostics) to its text, for source excerpts.
 * On success `organizationId` is the organization the plan's idempotency keys are scoped to.
 * Invariant: on failure `diagnostics` holds at least one error (files, selection or API).
 */
export type PlanPipelineResult =
  | {
      readonly ok: true;
      readonly campaign: Campaign;
      readonly plan: Plan;
      readonly organizationId: string;
      readonly sources: ReadonlyMap<string, string>;
    }
  | {
      readonly ok: false;
      readonly diagnostics: readonly Diagnostic[];
      readonly sources: ReadonlyMap<string, string>;
    };

/** Runs the pipeline; `now` is the plan's clock (use `session.now()`). */
export async function runPlanPipeline(
  args: PlanPipelineArgs,
  session: Session,
  io: Io,
  now: Date,
): Promise<PlanPipelineResult> {
  const loaded = loadCampaign(args.paths, io.cwd);
  const campaign = loaded.campaign;
  const sources = new Map(campaign.files.map((f) => [f.path, f.text]));
  const fileDiagnostics = [...loaded.diagnostics, ...lintCampaign(campaign, { now })].sort(
    compareDiagnostics,
  );
  if (hasErrors(fileDiagnostics)) return { ok: false, diagnostics: fileDiagnostics, sources };
  const selection = selectProjects(campaign.projects, args.targets, args.excludes);
  if (hasErrors(selection.diagnostics))
    return { ok: false, diagnostics: [...fileDiagnostics, ...selection.diagnostics], sources };

  const covered = {
    ...campaign,
    projects: campaign.projects.filter((p) => selection.selected.has(p.address)),
  };
  const refreshed = await refreshLive({
    campaign: covered,
    reader: session.client,
    cache: args.cache ?? createFileCache(io.cwd, cacheScope(session)),
    now,
    refresh: args.refresh,
    keySource: session.keySource,
  });
  if (!refreshed.ok)
    return { ok: false, diagnostics: [...fileDiagnostics, ...refreshed.diagnostics], sources };

  const assembled = assemblePlan({
    campaign,
    live: refreshed.live,
    now,
    baseUrl: session.baseUrl,
    toolVersion: VERSION,
    organizationId: refreshed.organizationId,
    targets: args.targets,
    excludes: args.excludes,
    requests: refreshed.requests,
  });
  // The files' info notes (segment growth) are `validate`'s to show; the plan has its own estimate.
  const fileProblems = fileDiagnostics.filter((d) => d.severity !== "info");
  const diagnostics = [...fileProblems, ...refreshed.diagnostics, ...assembled.diagnostics];
  const plan: Plan = { ...assembled, diagnostics, summary: summarize(assembled.projects, diagnostics) };
  return { ok: true, campaign, plan, organizationId: refreshed.organizationId, sources };
}

/** The cache's scope: the base URL, or a stable name for the embedded sandbox (its port varies). */
function cacheScope(session: Session): string {
  return session.sandbox === null
    ? session.baseUrl
    : `embedded-sandbox:${session.sandbox.fixtureFile ?? "fixture"}`;
}
