import { setTimeout as delay } from "node:timers/promises";
import type { ApiClientStats, ApiEventListener, Clock, Sleep } from "../../src/api/index.js";
import { withEmail } from "../../src/apply/email-result.js";
import {
  type ApplyEvent,
  type ApplyResult,
  type ApprovalsGate,
  applySucceeded,
  type Judge,
  type ReconcileInput,
  reconcile,
  refusedResult,
  requestsBetween,
} from "../../src/apply/index.js";
import { organizationResults, partlyApplied } from "../../src/apply/organizations.js";
import { compareDiagnostics, type Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { EmailListSpec } from "../../src/email/model.js";
import type { EmailApplyResult, PlanEmail } from "../../src/plan/items.js";
import type { Plan } from "../../src/plan/types.js";
import { applyView } from "../../src/report/apply-view.js";
import { renderDiagnosticsText } from "../../src/report/diagnostics-text.js";
import { saveFile } from "../adapters/files.js";
import { openJournal } from "../adapters/journal-file.js";
import type { PolicyFlags } from "../adapters/policy-file.js";
import { applyEmail } from "../email/apply-email.js";
import type { KeyScopeFlags } from "../flags/key-scope-flag.js";
import type { Session, SessionOptions } from "../gather/session.js";
import { type Io, useColor } from "../output/io.js";
import { failure, type Outcome, success } from "../output/outcome.js";
import { redactorFor } from "../output/output-redaction.js";
import { createProgress } from "../progress/progress.js";
import { requestsPerMinute } from "../progress/session-progress.js";
import { VERSION } from "../version.js";

/** The flags of `apply`, as commander parses them. */
export interface ApplyFlags extends PolicyFlags, KeyScopeFlags {
  readonly sandbox?: boolean;
  /** `--fixture`: the embedded sandbox's fixture file (only with `--sandbox`). */
  readonly fixture?: string;
  readonly baseUrl?: string;
  readonly apiKeyEnv?: string;
  readonly autoApprove?: boolean;
  readonly parallelism: number;
  readonly target: readonly string[];
  readonly exclude: readonly string[];
  readonly json?: boolean;
  readonly markdown?: string;
  readonly junit?: string;
  /** Milliseconds, parsed from `10m`, `90s`, ... */
  readonly waitForApproval?: number;
  readonly refresh?: boolean;
  readonly color: boolean;
  /** `--verbose`: also the table of API requests by endpoint. */
  readonly verbose?: boolean;
  /** `--forecast`: the forecast is shown with the plan, before the question (docs/forecast.md). */
  readonly forecast?: boolean;
  /** `--pull-request`: the pull request whose reviews approve a saved plan in GitHub Actions. */
  readonly pullRequest?: number;
}

/** Injections for tests and benchmarks; the CLI passes none. */
export interface ApplyDeps {
  readonly session?: SessionOptions;
  /** The loop's clock and sleep (default: the system clock and a real, abortable timer). */
  readonly clock?: Clock;
  readonly sleep?: Sleep;
  /** Ctrl-C source: calls `handler` on each interrupt; returns the unsubscribe. Default: SIGINT. */
  readonly onInterrupt?: (handler: () => void) => () => void;
  /** Asks the question on a terminal; default: `node:readline` on stdin/stderr. */
  readonly ask?: (question: string) => Promise<string>;
}

export interface ExecuteExtras {
  readonly sources: ReadonlyMap<string, string>;
  /**
   * `apply PLANFILE`: the saved plan (the reviewed expectation). The plan executed is the one made
   * again from its files, already checked identical (`compareWithReviewed`); the loop must still
   * check each action it sends later (a deferred one) with `sameAsReviewed` against this plan.
   */
  readonly reviewed?: Plan;
  /** A saved plan's approvals, read again before each round's sends that need them. */
  readonly approvals?: ApprovalsGate;
  /**
   * The reconciliation loop's inputs (the pipeline's `live` and `judge`): apply re-reads and
   * re-judges before every send (`reconcile`); nothing is sent from the plan as it stands.
   */
  readonly loop: { readonly live: ReconcileInput["live"]; readonly judge: Judge };
  /** Nothing was approved to send: report the plan as it stands, read and send nothing. */
  readonly reportOnly?: boolean;
  /** Statistics before the saved plan's checks; absent: count from the start of the loop. */
  readonly baseline?: ApiClientStats;
  /** The campaign's email lists: the plan's lists (`plan.email`) sync after the projects, from these. */
  readonly emailLists?: readonly EmailListSpec[];
}

export async function execute(
  plan: Plan,
  flags: ApplyFlags,
  io: Io,
  deps: ApplyDeps,
  session: Session,
  relay: Relay,
  extras: ExecuteExtras,
): Promise<Outcome> {
  // The API world's time (the embedded sandbox's virtual clock runs at real speed), so the
  // result's timestamps line up with the plan's.
  const clock = deps.clock ?? { now: () => session.now().getTime() };
  const controller = new AbortController();
  const sleep: Sleep =
    deps.sleep ?? ((ms) => delay(ms, undefined, { signal: controller.signal }).catch(() => undefined));
  const journal = openRunJournal(flags, io);
  // Progress lines show elapsed time on this machine's clock, never the API's (which `clock` is).
  // The estimate of the time left reads the rate budget of the keys in use (their limits added up).
  const progress = createProgress(io, io.clock, false, { perMinute: () => requestsPerMinute(session) });
  const onEvent = (event: ApplyEvent) => {
    if (journal.ok) journal.journal.write(event);
    progress.onEvent(event);
  };
  relay.listener = (event) => onEvent({ type: "api", at: new Date(clock.now()).toISOString(), event });
  relay.note = (line) => progress.note(line);
  const unsubscribe = stopOnInterrupt(deps, io, controller);
  let result: ApplyResult;
  try {
    const options = {
      parallelism: flags.parallelism,
      clock,
      sleep,
      waitForApproval: flags.waitForApproval ?? null,
      signal: controller.signal,
      onEvent,
      toolVersion: VERSION,
      baseline: extras.baseline,
    };
    result = await runLoop(plan, extras, session, io, options);
  } finally {
    unsubscribe();
    relay.listener = undefined;
    relay.note = undefined;
    progress.finish();
    if (journal.ok) journal.journal.close();
  }
  if (journal.ok) result = { ...result, journal: journal.journal.path };
  // One summary per organization when the plan spans several (issue 26).
  if (plan.organizations !== undefined)
    result = {
      ...result,
      organizations: organizationResults(plan.organizations, result.actions, result.unreadable),
    };
  return report(result, flags, io, extras.sources);
}

/** The run's journal; a journal that cannot be opened is a warning, and the run goes on without one. */
function openRunJournal(flags: ApplyFlags, io: Io): ReturnType<typeof openJournal> {
  // The run's one output redaction (every secret of the run, key-shaped text), as on stdout; a
  // terminal made by hand (in process) gets the same of its environment and key flag.
  const redact =
    io.redact ?? redactorFor(flags.apiKeyEnv === undefined ? [] : ["--api-key-env", flags.apiKeyEnv], io.env);
  const journal = openJournal(
    io.cwd,
    new Date(io.clock()), // the file name is wall-clock UTC, whatever clock the run uses
    process.pid,
    redact,
  );
  if (!journal.ok)
    io.stderr(
      `campaignctl: warning: apply.journal-unwritable: ${journal.message}; applying without a journal\n`,
    );
  return journal;
}

/** First Ctrl-C: nothing new starts (`controller` aborts); the second aborts at once. Returns the unsubscribe. */
export function stopOnInterrupt(deps: ApplyDeps, io: Io, controller: AbortController): () => void {
  let interrupts = 0;
  const unsubscribe = (deps.onInterrupt ?? onSigint)(() => {
    interrupts++;
    if (interrupts === 1) {
      io.stderr(
        "\nInterrupt received: requests in flight finish, nothing new starts. Press Ctrl-C again to abort at once.\n",
      );
      controller.abort();
    } else hardAbort(unsubscribe);
  });
  return unsubscribe;
}

/** The reconciliation loop, then the email lists; every request of the run counted. */
async function runLoop(
  plan: Plan,
  extras: ExecuteExtras,
  session: Session,
  io: Io,
  options: Parameters<typeof reconcile>[2] & { readonly sleep: Sleep; readonly signal: AbortSignal },
): Promise<ApplyResult> {
  let result = await reconcile(
    {
      plan,
      live: extras.loop.live,
      judge: extras.loop.judge,
      ...(extras.reviewed === undefined ? {} : { reviewed: extras.reviewed }),
      ...(extras.approvals === undefined ? {} : { approvals: extras.approvals }),
      ...(extras.reportOnly === true ? { reportOnly: true } : {}),
    },
    session.client,
    options,
  );
  // Email lists sync after the texting work, through the same client (one rate budget) and the
  // one write executor; nothing of it is sent when nothing was approved (reportOnly). They are
  // part of the one result: its summary counts them, its requests include theirs.
  if (plan.email !== undefined) {
    const email = await syncEmail(plan.email, extras, {
      client: session.client,
      cwd: io.cwd,
      sleep: options.sleep,
      signal: options.signal,
      startedAt: new Date(io.clock()),
      pid: process.pid,
      requireConsent: plan.policy?.rules.require_email_consent === true,
    });
    result = withEmail(result, email);
    // Ctrl-C while the lists synced: the run was interrupted (exit 130), whatever the loop saw.
    if (options.signal.aborted && !result.interrupted) result = { ...result, interrupted: true };
  }
  // Every request of the run counts, whatever made it: the plan's reads and key checks, the
  // loop's, the email sync's (the session opened with this command).
  return { ...result, requests: requestsBetween(null, session.client.stats()) };
}

/** The plan's email lists synced (or, when nothing was approved, reported as not sent). */
function syncEmail(
  email: PlanEmail,
  extras: ExecuteExtras,
  deps: Parameters<typeof applyEmail>[2],
): Promise<EmailApplyResult> {
  if (extras.reportOnly === true) return Promise.resolve({ plan: email, lists: [], results_files: {} });
  return applyEmail(extras.emailLists ?? [], email, deps);
}

/** Forwards the client's events (attempts, statuses, retries, waits) into the run's stream while it executes. */
export interface Relay {
  listener: ApiEventListener | undefined;
  /** Where the session's notices go while the run's progress shows (above apply's live view). */
  note: ((line: string) => void) | undefined;
}

export async function refuse(
  plan: Plan | null,
  refused: readonly Diagnostic[],
  flags: ApplyFlags,
  io: Io,
  session: Session,
  before: ApiClientStats,
): Promise<Outcome> {
  const at = session.now().toISOString();
  const requests = requestsBetween(before, session.client.stats());
  const result = refusedResult(plan, [...refused].sort(compareDiagnostics), {
    toolVersion: VERSION,
    baseUrl: session.baseUrl,
    at,
    requests,
  });
  return report(result, flags, io, new Map());
}

/** Prints the result (human or `--json`), writes `--markdown`/`--junit`, and gives the exit outcome. */
export async function report(
  result: ApplyResult,
  flags: ApplyFlags,
  io: Io,
  sources: ReadonlyMap<string, string>,
): Promise<Outcome> {
  // One view for stdout, chosen once; the report files have their own.
  const options = {
    color: flags.color && useColor(io, "stdout"),
    sources,
    requestTable: flags.verbose === true,
  };
  io.stdout(applyView(flags.json === true ? "json" : "human", options)(result));
  const problems: Diagnostic[] = [];
  if (flags.markdown !== undefined)
    problems.push(
      ...(await saveFile(io, flags.markdown, applyView("markdown", options)(result), "Markdown report")),
    );
  if (flags.junit !== undefined)
    problems.push(...(await saveFile(io, flags.junit, applyView("junit", options)(result), "JUnit report")));
  // The human report names the journal itself; with --json, stdout carries only the document.
  if (result.journal !== null && flags.json === true) io.stderr(`Journal: ${result.journal}\n`);
  if (problems.length > 0) {
    io.stderr(renderDiagnosticsText(problems, { sources: new Map(), color: useColor(io, "stderr") }));
    return failure;
  }
  if (result.interrupted) return { kind: "interrupted" };
  // The email lists are part of the result: items skipped for early access alone do not fail it.
  if (applySucceeded(result)) return success;
  // Several organizations, some done and others blocked or failed: the summary names which.
  return partlyApplied(result.organizations) ? { kind: "partial" } : failure;
}

function onSigint(handler: () => void): () => void {
  process.on("SIGINT", handler);
  return () => process.off("SIGINT", handler);
}

/** Second Ctrl-C: drop our handler and re-raise SIGINT, whose default action ends the process at once. */
function hardAbort(unsubscribe: () => void): void {
  unsubscribe();
  process.kill(process.pid, "SIGINT");
}
