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
 *    cached detail's `updated_at`, else the project is read by id; `--refresh`: all by id), and
 *    compared with the saved one (`compareSavedWithFresh`): the same projects, actions, statuses,
 *    requests, bodies and keys, else the whole plan is refused, each difference named, unless:
 * 6. The plan was applied already (a re-run after a successful apply): every reviewed action's
 *    effect is in the live projects, re-derived from the basis it was planned from it gives the
 *    same actions and keys, and nothing else differs (`alreadyApplied`). Then every action is
 *    reported `replayed` ("already applied: ..."), nothing is sent, and the run succeeds.
 *
 * 7. Under the policy's `require_approvals`, a plan with a schedule the rule covers needs that many
 *    approvals by people other than its author (pull request reviews of the commit it was made
 *    from, or signed files beside it; cli/approvals-check.ts), else `apply.approvals-missing` and
 *    nothing is sent. Only reads come before it.
 *
 * Only then does apply run, and it runs the re-derived plan: what goes out is what the files and the
 * live state give now, which is what was reviewed.
 */

import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { apiErrorDiagnostic } from "../../src/api/index.js";
import { withEmail } from "../../src/apply/email-result.js";
import {
  alreadyApplied,
  alreadyAppliedResult,
  checkPlanSources,
  compareBaseUrl,
  compareEmailLists,
  compareFiles,
  compareSavedWithFresh,
  compareScope,
  type FileNow,
  requestsBetween,
} from "../../src/apply/index.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { parsePlanDocument } from "../../src/report/plan-schema.js";
import { checkApprovals } from "../approvals-check.js";
import { applyEmail } from "../email/apply-email.js";
import { errnoCode } from "../files.js";
import type { Io } from "../io.js";
import type { Outcome } from "../outcome.js";
import { runPlanPipeline } from "../plan-pipeline.js";
import type { Session } from "../session.js";
import { VERSION } from "../version.js";
import { type ApplyDeps, type ApplyFlags, execute, type Relay, refuse, report } from "./apply-run.js";

export async function applySaved(
  planFile: string,
  flags: ApplyFlags,
  io: Io,
  deps: ApplyDeps,
  session: Session,
  relay: Relay,
): Promise<Outcome> {
  const before = session.client.stats();
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, planFile), "utf8");
  } catch (error) {
    const unreadable: Diagnostic = {
      severity: "error",
      code: "apply.plan-unreadable",
      message: `cannot read ${planFile} (${errnoCode(error)})`,
      hint: "pass the file `campaignctl plan --out FILE` wrote",
    };
    return refuse(null, [unreadable], flags, io, session, before);
  }
  const parsed = parsePlanDocument(text, { file: planFile });
  if (!parsed.ok) return refuse(null, parsed.diagnostics, flags, io, session, before);
  const reviewed = parsed.plan;
  const fail = (diagnostics: readonly Diagnostic[]) =>
    refuse(reviewed, diagnostics, flags, io, session, before);

  // Before any request: the document's own sources, the API, and every input's bytes (campaign
  // files, policy files, CSVs alike: one check, the whole plan refused on any difference).
  const offline = [...checkPlanSources(reviewed, planFile), ...compareBaseUrl(reviewed, session.apiId)];
  if (offline.length > 0) return fail(offline);
  const files = new Map<string, FileNow>();
  for (const f of reviewed.files) files.set(f.path, await hashFile(resolve(io.cwd, f.path)));
  const changedFiles = compareFiles(reviewed, files, planFile);
  if (changedFiles.length > 0) return fail(changedFiles);

  // The first request: can this key see the plan's organization? (With keys per organization and
  // no default key, each key is checked against its own organization by the pipeline instead.)
  const defaultClient = session.router.keys.defaultKey?.client;
  if (defaultClient !== undefined) {
    const orgs = await defaultClient.listOrganizations();
    if (!orgs.ok) return fail([apiErrorDiagnostic(orgs.error)]);
    const scope = compareScope(
      reviewed,
      orgs.value.map((o) => o.id),
      session.keySource,
    );
    if (scope.length > 0) return fail(scope);
  }

  // The authority: the plan made again from the same files and fresh live state.
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
  const fresh = await runPlanPipeline(args, session, io);
  if (!fresh.ok) return fail(fresh.diagnostics.filter((d) => d.severity === "error"));
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
    io.stderr(
      `The saved plan ${planFile} (made ${reviewed.created_at}) is already applied: every action it holds is in effect in the live projects, so nothing is sent.\n`,
    );
    const at = session.now().toISOString();
    // The projects are in effect; the lists sync again as `apply` syncs them (their batches replay).
    const email = fresh.plan.email;
    const synced =
      email === undefined
        ? undefined
        : await applyEmail(fresh.campaign.emailLists ?? [], email, {
            client: session.client,
            cwd: io.cwd,
            sleep: deps.sleep ?? ((ms) => delay(ms)),
            signal: new AbortController().signal,
            startedAt: new Date(io.clock()),
            pid: process.pid,
            requireConsent: fresh.plan.policy?.rules.require_email_consent === true,
          });
    // Every request of the run counts, the email sync's too.
    const result = alreadyAppliedResult(reviewed, applied.actions, {
      toolVersion: VERSION,
      baseUrl: session.baseUrl,
      at,
      requests: requestsBetween(before, session.client.stats()),
    });
    return report(synced === undefined ? result : withEmail(result, synced), flags, io, fresh.sources);
  }
  if (emailDifferences.length > 0) return fail(emailDifferences);
  // Two people to send: the approvals the policy in force requires of this saved plan, or nothing.
  const approvals = await checkApprovals(
    { planFile, text, reviewed, fresh: fresh.plan, pullRequest: flags.pullRequest },
    io,
  );
  if (!approvals.ok) return fail(approvals.diagnostics);
  if (approvals.note !== undefined) io.stderr(approvals.note);

  io.stderr(
    `Applying the saved plan ${planFile} (made ${reviewed.created_at}): made again from its files and fresh live state, it is the same plan.\n`,
  );
  return execute(fresh.plan, flags, io, deps, session, relay, {
    baseline: before,
    sources: fresh.sources,
    reviewed,
    loop: { live: fresh.live, judge: fresh.judge },
    emailLists: fresh.campaign.emailLists ?? [],
  });
}

/** The sha256 of a file's bytes, read as a stream (a CSV of any size), or why it cannot be read. */
async function hashFile(path: string): Promise<FileNow> {
  const hash = createHash("sha256");
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
    return { kind: "found", sha256: hash.digest("hex") };
  } catch (error) {
    const code = errnoCode(error);
    return code === "ENOENT" ? { kind: "missing" } : { kind: "unreadable", message: code };
  }
}
