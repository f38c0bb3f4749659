/**
 * `apply PLANFILE`: a saved plan is the reviewed expectation, not a list of instructions (issue 9).
 * Nothing is taken from the JSON to send. In order, stopping at the first refusal:
 *
 * 1. The document parses and validates (schema, invariants); it names its campaign files, and every
 *    project comes from one of them. No request yet.
 * 2. The base URL: the plan's must be the one this run talks to (`Session.apiId`: with `--sandbox`,
 *    the embedded sandbox's identity, one per fixture). No request yet.
 * 3. Every input's sha256 (campaign files, policy files, the email lists' CSVs alike): the one
 *    staleness check of the inputs (`compareFiles`). No request yet.
 * 4. Key scope: `GET /organizations` (the first request) must list the plan's organization.
 * 5. The plan is made again from those files with fresh live reads (a stats read confirms each
 *    cached detail's `updated_at`, else the project is read by id; `--refresh`: all by id). Its
 *    inputs must be the saved plan's, by path and sha256 (`compareInputs`: a policy file found now
 *    that the plan was not made with, which could loosen a rule, refuses it). It is then
 *    compared with the saved one (`compareSavedWithFresh`): the same projects, actions, statuses,
 *    requests, bodies and keys, else the whole plan is refused, each difference named, unless:
 * 6. The plan was applied already (a re-run after a successful apply): every reviewed action's
 *    effect is in the live projects, re-derived from the basis it was planned from it gives the
 *    same actions and keys, and nothing else differs (`alreadyApplied`). Then every action is
 *    reported `replayed` ("already applied: ..."), nothing is sent, and the run succeeds.
 *
 * 7. Under the policy's `require_approvals`, a plan with a schedule the rule covers needs that many
 *    approvals by people other than its author (pull request reviews of the commit it was made
 *    from, or signed files beside it; cli/gather/approvals-check.ts), else `apply.approvals-missing` and
 *    nothing is sent. Only reads come before it. They are read again, from the same source, in each
 *    round of the loop just before it sends what they cover (`approvalsGate`): one withdrawn during
 *    `--wait-for-approval` holds those sends.
 *
 * Only then does apply run, and it runs the re-derived plan: what goes out is what the files and the
 * live state give now, which is what was reviewed.
 */

import { setTimeout as delay } from "node:timers/promises";
import type { ApiClientStats } from "../../src/api/index.js";
import { apiErrorDiagnostic } from "../../src/api/index.js";
import { withEmail } from "../../src/apply/email-result.js";
import {
  alreadyApplied,
  alreadyAppliedResult,
  checkPlanSources,
  compareBaseUrl,
  compareEmailLists,
  compareFiles,
  compareInputs,
  comparePolicy,
  compareSavedWithFresh,
  compareScope,
  requestsBetween,
} from "../../src/apply/index.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { EmailApplyResult } from "../../src/plan/items.js";
import type { Plan } from "../../src/plan/types.js";
import { inputsNow, readSavedPlan } from "../adapters/saved-plan.js";
import { applyEmail } from "../email/apply-email.js";
import { approvalsGate, checkApprovals } from "../gather/approvals-check.js";
import { type PlanPipelineResult, runPlanPipeline } from "../gather/plan-pipeline.js";
import type { Session } from "../gather/session.js";
import type { Io } from "../output/io.js";
import type { Outcome } from "../output/outcome.js";
import { VERSION } from "../version.js";
import {
  type ApplyDeps,
  type ApplyFlags,
  execute,
  type Relay,
  refuse,
  report,
  stopOnInterrupt,
} from "./apply-run.js";

export async function applySaved(
  planFile: string,
  flags: ApplyFlags,
  io: Io,
  deps: ApplyDeps,
  session: Session,
  relay: Relay,
): Promise<Outcome> {
  const before = session.client.stats();
  const read = await readSavedPlan(io.cwd, planFile);
  if (!read.ok) return refuse(null, read.diagnostics, flags, io, session, before);
  const { text, plan: reviewed } = read;
  const fail = (diagnostics: readonly Diagnostic[]) =>
    refuse(reviewed, diagnostics, flags, io, session, before);
  const unchecked = await checkBeforeRemaking(reviewed, planFile, session, io);
  if (unchecked.length > 0) return fail(unchecked);
  const fresh = await remake(reviewed, flags, session, io);
  if (!fresh.ok) return fail(fresh.diagnostics.filter((d) => d.severity === "error"));
  // Judged by the policy files it was made with, and no other (a stray one could loosen a rule).
  const inputs = [
    ...compareInputs(reviewed, fresh.plan, planFile),
    ...comparePolicy(reviewed, fresh.plan, planFile),
  ];
  if (inputs.length > 0) return fail(inputs);
  // Made again as `apply FILES` makes it (email included), narrowed as the plan was.
  if (fresh.emailLeftOut !== undefined) io.stderr(fresh.emailLeftOut);
  const emailDifferences = compareEmailLists(reviewed, fresh.plan, planFile);
  // A project whose live state moved is named once, as stale; the rest is compared action by action.
  const differences = compareSavedWithFresh(reviewed, fresh.plan, planFile);
  if (differences.length > 0) {
    // A re-run of a plan already applied: each difference is an effect the reviewed plan asked for.
    const applied = alreadyApplied({ reviewed, fresh: fresh.plan, live: fresh.live, judge: fresh.judge });
    if (applied.kind === "not-applied") return fail([...differences, ...emailDifferences]);
    if (emailDifferences.length > 0) return fail(emailDifferences);
    return replayApplied(
      { planFile, reviewed, fresh, actions: applied.actions, before },
      flags,
      io,
      deps,
      session,
    );
  }
  if (emailDifferences.length > 0) return fail(emailDifferences);
  // Two people to send: the approvals the policy in force requires of this saved plan, or nothing.
  const counted = {
    planFile,
    text,
    reviewed,
    fresh: fresh.plan,
    pullRequest: flags.pullRequest,
    // A GitHub read tried again waits on the session's time (the tests' virtual clock).
    ...(deps.session?.sleep === undefined ? {} : { pause: deps.session.sleep }),
  };
  const approvals = await checkApprovals(counted, io);
  if (!approvals.ok) return fail(approvals.diagnostics);
  if (approvals.note !== undefined) io.stderr(approvals.note);

  io.stderr(
    `Applying the saved plan ${planFile} (made ${reviewed.created_at}): made again from its files and fresh live state, it is the same plan.\n`,
  );
  return execute(fresh.plan, flags, io, deps, session, relay, {
    baseline: before,
    sources: fresh.sources,
    reviewed,
    // Read again, from the same source, just before each round sends what they cover.
    approvals: approvalsGate(counted, io),
    loop: { live: fresh.live, judge: fresh.judge },
    emailLists: fresh.campaign.emailLists ?? [],
  });
}

/**
 * What refuses a saved plan before it is made again. Before any request: the document's own
 * sources, the API, and every input's bytes (campaign files, policy files, CSVs alike: one check,
 * the whole plan refused on any difference). Then the first request: can this key see the plan's
 * organization? (With keys per organization and no default key, each key is checked against its
 * own organization by the pipeline instead.)
 */
async function checkBeforeRemaking(
  reviewed: Plan,
  planFile: string,
  session: Session,
  io: Io,
): Promise<readonly Diagnostic[]> {
  const offline = [...checkPlanSources(reviewed, planFile), ...compareBaseUrl(reviewed, session.apiId)];
  if (offline.length > 0) return offline;
  const changedFiles = compareFiles(reviewed, await inputsNow(io.cwd, reviewed), planFile);
  if (changedFiles.length > 0) return changedFiles;
  const defaultClient = session.router.keys.defaultKey?.client;
  if (defaultClient === undefined) return [];
  const orgs = await defaultClient.listOrganizations();
  if (!orgs.ok) return [apiErrorDiagnostic(orgs.error)];
  return compareScope(
    reviewed,
    orgs.value.map((o) => o.id),
    session.keySource,
  );
}

/** The authority: the plan made again from the same files and fresh live state. */
function remake(reviewed: Plan, flags: ApplyFlags, session: Session, io: Io): Promise<PlanPipelineResult> {
  const args = {
    paths: reviewed.files.filter((f) => f.kind === "campaign").map((f) => f.path),
    targets: reviewed.targets,
    excludes: reviewed.excludes,
    // The cache spares only details whose `updated_at` a fresh stats read confirms (as for `apply
    // DIR`); every send still rests on the loop's own fresh read. `--refresh` reads every project by id.
    refresh: flags.refresh === true,
    policy: flags.policy,
    loosenPolicy: flags.loosenPolicy,
    requirePolicy: flags.requirePolicy,
    allowCrossOrganizationKey: flags.allowCrossOrganizationKey,
    // Made again as it was made: with the forecast when the reviewed plan carries one.
    forecast: reviewed.forecast !== undefined,
  };
  return runPlanPipeline(args, session, io);
}

/**
 * A saved plan already applied: nothing is sent for its projects (every action is reported
 * `replayed`); its email lists sync again as `apply` syncs them (their batches replay).
 */
async function replayApplied(
  run: {
    readonly planFile: string;
    readonly reviewed: Plan;
    readonly fresh: Extract<PlanPipelineResult, { ok: true }>;
    readonly actions: Parameters<typeof alreadyAppliedResult>[1];
    readonly before: ApiClientStats;
  },
  flags: ApplyFlags,
  io: Io,
  deps: ApplyDeps,
  session: Session,
): Promise<Outcome> {
  const { reviewed, fresh } = run;
  io.stderr(
    `The saved plan ${run.planFile} (made ${reviewed.created_at}) is already applied: every action it holds is in effect in the live projects, so nothing is sent.\n`,
  );
  const at = session.now().toISOString();
  const email = fresh.plan.email;
  // Ctrl-C as in any apply: the batch in flight finishes, no new one starts, the report is written (130).
  const controller = new AbortController();
  const unsubscribe = stopOnInterrupt(deps, io, controller);
  let synced: EmailApplyResult | undefined;
  try {
    synced =
      email === undefined
        ? undefined
        : await applyEmail(fresh.campaign.emailLists ?? [], email, {
            client: session.client,
            cwd: io.cwd,
            sleep:
              deps.sleep ??
              ((ms) => delay(ms, undefined, { signal: controller.signal }).catch(() => undefined)),
            signal: controller.signal,
            startedAt: new Date(io.clock()),
            pid: process.pid,
            requireConsent: fresh.plan.policy?.rules.require_email_consent === true,
          });
  } finally {
    unsubscribe();
  }
  // Every request of the run counts, the email sync's too.
  const result = alreadyAppliedResult(reviewed, run.actions, {
    toolVersion: VERSION,
    baseUrl: session.baseUrl,
    at,
    requests: requestsBetween(run.before, session.client.stats()),
  });
  const whole = synced === undefined ? result : withEmail(result, synced);
  return report(
    controller.signal.aborted ? { ...whole, interrupted: true } : whole,
    flags,
    io,
    fresh.sources,
  );
}
