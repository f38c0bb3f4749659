/**
 * The judge's input, gathered (IO only), shared by `plan`, `apply`, `apply plan.json` and the
 * gallery: load and validate the campaign files, find the policy, lint them, check
 * `--target`/`--exclude` (any error so far stops before the first request), refresh the live state
 * through the session (with the disk cache), and, when forecasting, read the brand's live sends;
 * then hand everything to the one pure judge (src/plan/judge.ts). The plan's diagnostics gather the
 * files' warnings, the reads' warnings (cache, stats fallback, live sends) and the selection's, so a
 * saved plan tells the whole story.
 */

import { emailOwners, projectOwners } from "../../src/api/routing/owners.js";
import type { RoutingResult } from "../../src/api/routing/route-owners.js";
import { routeAndCheckWrites } from "../../src/api/routing/write-check.js";
import type { Judge } from "../../src/apply/index.js";
import type { Campaign, ProjectSpec } from "../../src/campaign/model.js";
import type { Project } from "../../src/contract/resources.js";
import { type Diagnostic, hasErrors } from "../../src/diagnostics/diagnostic.js";
import type { EmailSpecs } from "../../src/email/model.js";
import { capacityOfProjects } from "../../src/forecast/from-spec.js";
import type { Forecast } from "../../src/forecast/types.js";
import type { CacheStore } from "../../src/plan/cache.js";
import { type CoveredCheck, checkCovered } from "../../src/plan/check-covered.js";
import { clockSkewDiagnostic } from "../../src/plan/clock-skew.js";
import { coveredEmail, type EmailReads } from "../../src/plan/email-items.js";
import { emailLeftOutNote } from "../../src/plan/email-select.js";
import { forecasts, type JudgeInput, judge, rejudge } from "../../src/plan/judge.js";
import type { LiveRead, LiveState } from "../../src/plan/live.js";
import { NO_LIVE_SENDS } from "../../src/plan/live-sends.js";
import { type RefreshResult, refreshLive } from "../../src/plan/refresh.js";
import { requestDelta, sessionRequests } from "../../src/plan/refresh-requests.js";
import type { Plan } from "../../src/plan/types.js";
import { capacityLoosened } from "../../src/policy/capacity.js";
import { createFileCache } from "../adapters/file-cache.js";
import { loadCampaign } from "../adapters/load-campaign.js";
import { type LoadedPolicy, loadPolicy, type PolicyFlags } from "../adapters/policy-file.js";
import { readEmail } from "../email/plan-email.js";
import type { KeyScopeFlags } from "../flags/key-scope-flag.js";
import type { Io } from "../output/io.js";
import { VERSION } from "../version.js";
import { readBudgetSpend } from "./budget-spend.js";
import { readLiveSends } from "./forecast-sent.js";
import type { Session } from "./session.js";

export interface PlanPipelineArgs extends PolicyFlags, KeyScopeFlags {
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
  /**
   * `--forecast`: forecast the plan (docs/forecast.md). A policy with `forecast_errors` forecasts
   * whatever this says, so that no flag leaves its errors unjudged.
   */
  readonly forecast?: boolean;
  /**
   * Read the email lists' CSVs and the email campaigns the run covers, for the plan's email items
   * (default true); the gallery, which shows no email, passes false.
   */
  readonly email?: boolean;
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
      /** The project reads the plan was judged from (some may come from the cache), by id. */
      readonly live: ReadonlyMap<string, LiveRead<Project>>;
      /** Everything the refresh read (the offline snapshot is made from it), and the API's time of it. */
      readonly liveState: LiveState;
      readonly readAt: Date;
      /**
       * The same judge with the same input, against other project reads and another clock (apply's
       * loop and its re-check right before each send): `rejudge` of src/plan/judge.ts.
       */
      readonly judge: Judge;
      /**
       * The forecast the plan's findings come from (with `forecast` or a policy's `forecast_errors`);
       * the plan then carries it as `forecast` (its JSON form) and its findings as diagnostics.
       */
      readonly forecast?: Forecast;
      /**
       * What `--target`/`--exclude` leave out of the files' email, to say once on stderr; absent
       * when nothing is left out.
       */
      readonly emailLeftOut?: string;
    }
  | {
      readonly ok: false;
      readonly diagnostics: readonly Diagnostic[];
      readonly sources: ReadonlyMap<string, string>;
    };

/**
 * Runs the pipeline. The plan's clock is the API's: by default `session.now()`, read after the first
 * response (its `Date` header), so past schedules, stats windows and `at: now` are judged by the time
 * the API lives in; a plan whose API clock is off this machine's by over a minute carries
 * `plan.clock-skew`. Tests may pass a fixed `now`. The files' lint runs without a clock: a past
 * schedule is the planner's to judge (`plan.schedule-in-past`), and only where one would be sent.
 */
export async function runPlanPipeline(
  args: PlanPipelineArgs,
  session: Session,
  io: Io,
  now: Date | (() => Date) = () => session.now(),
): Promise<PlanPipelineResult> {
  const files = loadFiles(args, io);
  if (!files.ok) return files;
  const { campaign, policy, checked, fileDiagnostics, sources } = files;

  const forecasting = forecasts({ forecast: args.forecast === true, policy: policy.policy });
  // A forecast reads every project of the files: projects of a brand share its cap, so a project
  // left out by --target or --exclude still counts against it.
  const read = forecasting ? campaign : checked.covered;
  // Keys per organization: each project's and email list's requests go with its own organization's key.
  const routing = await routePlan(
    session,
    read.projects,
    coveredEmail(campaign, args.targets, args.excludes),
    args,
  );
  if (!routing.ok) return { ok: false, diagnostics: [...fileDiagnostics, ...routing.diagnostics], sources };
  const cache = args.cache ?? createFileCache(io.cwd, session.apiId);
  const refreshedRaw = await refreshLive({
    campaign: read,
    reader: session.client,
    cache,
    now,
    refresh: args.refresh,
    keySource: session.keySource,
  });
  // Routing's warnings (a key that could not be used) go with the reads' outcome, failed or not.
  const diagnostics = [...routing.diagnostics, ...refreshedRaw.diagnostics];
  const refreshed =
    refreshedRaw.ok && routing.keyOrganizations.size > 0
      ? {
          ...refreshedRaw,
          live: { ...refreshedRaw.live, keyOrganizations: routing.keyOrganizations },
          diagnostics,
        }
      : { ...refreshedRaw, diagnostics };
  const reading = session.clockReading();
  const skew = reading === null ? undefined : clockSkewDiagnostic(reading.api, reading.local);
  const clockDiagnostics = skew === undefined ? [] : [skew];
  if (!refreshed.ok)
    return {
      ok: false,
      diagnostics: [...fileDiagnostics, ...clockDiagnostics, ...refreshed.diagnostics],
      sources,
    };

  return judgeGathered(args, session, io, files, { refreshed, cache, forecasting, clockDiagnostics });
}

/** The campaign files loaded and checked, with the policy in force, before any request. */
type LoadedFiles =
  | {
      readonly ok: true;
      readonly campaign: Campaign;
      readonly policy: Extract<LoadedPolicy, { ok: true }>;
      readonly checked: CoveredCheck;
      /** The files' findings (lint of the covered projects, capacity); no error among them. */
      readonly fileDiagnostics: readonly Diagnostic[];
      readonly sources: Map<string, string>;
    }
  | {
      readonly ok: false;
      readonly diagnostics: readonly Diagnostic[];
      readonly sources: Map<string, string>;
    };

/**
 * One loader for every item (projects, templates, email lists and campaigns, reply rules), the
 * policy found from the files read (a saved plan's named files lead to the same one), the covered
 * projects' lint and `--target`/`--exclude`: any error stops the run before the first request.
 */
function loadFiles(args: PlanPipelineArgs, io: Io): LoadedFiles {
  const loaded = loadCampaign(args.paths, io.cwd);
  const campaign = loaded.campaign;
  const sources = new Map(campaign.files.map((f) => [f.path, f.text]));
  const policy = loadPolicy(
    args,
    campaign.files.map((f) => f.path),
    io.cwd,
  );
  if (!policy.ok) return { ok: false, diagnostics: policy.diagnostics, sources };
  for (const [file, text] of policy.texts) sources.set(file, text);
  // Lints only the covered projects: another project's lint error does not stop a targeted plan.
  const wording = policy.policy?.rules.opt_out_wording;
  const places = policy.policy?.places ?? [];
  const checked = checkCovered(loaded, args.targets, args.excludes, {
    now: null,
    ...(wording === undefined ? {} : { optOutWording: wording }),
    ...(places.length === 0 ? {} : { places }),
  });
  // Capacity belongs to the policy: a file that loosens it is wrong before any request is made.
  const fileDiagnostics = [
    ...checked.diagnostics,
    ...capacityLoosened(
      policy.policy,
      campaign.projects.map((p) => p.capacity),
    ),
  ];
  if (hasErrors(fileDiagnostics)) return { ok: false, diagnostics: fileDiagnostics, sources };
  if (hasErrors(checked.selection.diagnostics))
    return { ok: false, diagnostics: [...fileDiagnostics, ...checked.selection.diagnostics], sources };
  return { ok: true, campaign, policy, checked, fileDiagnostics, sources };
}

/**
 * The email reads of the lists and campaigns the run covers (each CSV read to its end and hashed,
 * GET /email/campaigns, the sending domains), the requests they took (which a naive refresh would
 * make as well: `naive`), and what `--target`/`--exclude` leave out of the files' email. Nothing with
 * `args.email === false`.
 */
async function gatherEmail(
  args: PlanPipelineArgs,
  campaign: Campaign,
  policy: Extract<LoadedPolicy, { ok: true }>,
  session: Session,
  io: Io,
): Promise<{ readonly reads?: EmailReads; readonly naive: number; readonly leftOut?: string }> {
  if (args.email === false) return { naive: 0 };
  const before = session.client.stats();
  const covered = coveredEmail(campaign, args.targets, args.excludes);
  const requireConsent = policy.policy?.rules.require_email_consent === true;
  const reads = await readEmail(covered, requireConsent, session.router, io.cwd);
  const delta = requestDelta(before, session.client.stats(), 0);
  const all = { lists: campaign.emailLists ?? [], campaigns: campaign.emailCampaigns ?? [] };
  const leftOut = emailLeftOutNote(all, args.targets, args.excludes);
  return {
    ...(reads === undefined ? {} : { reads }),
    naive: delta.total,
    ...(leftOut === undefined ? {} : { leftOut }),
  };
}

/** What the live reads gathered for the judge (after the refresh succeeded). */
interface Gathered {
  readonly refreshed: Extract<RefreshResult, { ok: true }>;
  readonly cache: CacheStore;
  readonly forecasting: boolean;
  readonly clockDiagnostics: readonly Diagnostic[];
}

/**
 * The last reads (the brand's live sends when forecasting, the email reads), then the judge's input:
 * everything it rests on, gathered here; the judgement itself is pure.
 */
async function judgeGathered(
  args: PlanPipelineArgs,
  session: Session,
  io: Io,
  files: Extract<LoadedFiles, { ok: true }>,
  gathered: Gathered,
): Promise<PlanPipelineResult> {
  const { campaign, policy, fileDiagnostics, sources } = files;
  const { refreshed, cache, forecasting, clockDiagnostics } = gathered;
  const sending = forecasting
    ? await readLiveSends(session, refreshed.live.projects, refreshed.now, {
        store: cache,
        organizationId: refreshed.organizationId,
        refresh: args.refresh,
      })
    : { sends: NO_LIVE_SENDS, diagnostics: [] };
  const email = await gatherEmail(args, campaign, policy, session, io);
  const budgetSpend = await readBudgetSpend(session, policy.policy, refreshed.now);
  // The files' info notes (segment growth) are `validate`'s to show; the plan has its own estimate.
  const fileProblems = fileDiagnostics.filter((d) => d.severity !== "info");
  const input: JudgeInput = {
    campaign,
    policy: policy.policy,
    live: refreshed.live,
    now: refreshed.now,
    targets: args.targets,
    excludes: args.excludes,
    forecast: args.forecast === true,
    capacity: capacityOfProjects(campaign.projects, policy.policy?.capacity),
    liveSends: sending.sends,
    baseUrl: session.apiId,
    toolVersion: VERSION,
    organizationId: refreshed.organizationId,
    allowCrossOrganizationKey: args.allowCrossOrganizationKey === true,
    // Every request of the run counts, whatever made it (key checks, reads, live sends, email).
    requests: sessionRequests(session.client.stats(), refreshed.requests.naive + email.naive),
    ...(email.reads === undefined ? {} : { email: email.reads }),
    ...(budgetSpend === undefined ? {} : { budgetSpend }),
    policyFiles: [...policy.digests].map(([path, sha256]) => ({ path, sha256, kind: "policy" })),
    diagnostics: [
      ...fileProblems,
      ...sending.diagnostics,
      ...policy.diagnostics,
      ...clockDiagnostics,
      ...refreshed.diagnostics,
    ],
  };
  const { plan, forecast } = judge(input);
  return {
    ...(email.leftOut === undefined ? {} : { emailLeftOut: email.leftOut }),
    ok: true,
    campaign,
    plan,
    organizationId: refreshed.organizationId,
    sources,
    live: refreshed.live.projects,
    liveState: refreshed.live,
    readAt: refreshed.now,
    judge: rejudge(input),
    ...(forecast === undefined ? {} : { forecast }),
  };
}

/**
 * Routes the run's projects and email lists to their organizations' keys (src/api/routing); the
 * email lists' upserts the cross-organization rule refuses are said now, before any request (the
 * write port refuses them again at apply).
 */
function routePlan(
  session: Session,
  projects: readonly ProjectSpec[],
  email: EmailSpecs,
  flags: KeyScopeFlags,
): Promise<RoutingResult> {
  const lists = emailOwners({ lists: email.lists, campaigns: [] });
  return routeAndCheckWrites(
    session.router,
    [...projectOwners(projects), ...emailOwners(email)],
    { write: "email-upsert", owners: lists },
    { allowCrossOrganizationKey: flags.allowCrossOrganizationKey === true },
  );
}
