/**
 * `campaignctl replies plan [paths...]`: a dry run of `replies run` over the inbounds of a window
 * (default the last day of the API's clock): which inbound would be answered by which rule, which
 * were answered already, the opt-outs, the unmatched ones (for a person), the limits reached and
 * the cost (src/replies/plan.ts); with `--state`, from the worker's next pass's floor too. Sends nothing. Exit codes: 0 the plan was made; 1 the files, the
 * flags or the connection are unusable.
 */
import { resolve } from "node:path";
import { apiErrorDiagnostic } from "../../src/api/index.js";
import { routeReplies } from "../../src/api/routing/route-replies.js";
import { type Diagnostic, hasErrors } from "../../src/diagnostics/diagnostic.js";
import { planReplies, REPLIES_PLAN_FORMAT_VERSION } from "../../src/replies/plan.js";
import { passFloor } from "../../src/replies/poll-window.js";
import { recordMissing, stateUnreadable } from "../../src/replies/run-checks.js";
import { ANSWERED_FILE_NAME, type AnsweredLine, type PollCursor } from "../../src/replies/state-file.js";
import { renderRepliesPlan } from "../../src/report/replies-plan-view.js";
import { readAnsweredRecord, readPollCursor } from "../adapters/replies-state.js";
import type { KeyScopeFlags } from "../flags/key-scope-flag.js";
import { openSession, type Session, type SessionFlags, type SessionOptions } from "../gather/session.js";
import { failWith, type JsonFailure } from "../output/fail.js";
import type { Io } from "../output/io.js";
import { failure, type Outcome, success } from "../output/outcome.js";
import { printDiagnostics } from "../output/print-diagnostics.js";
import { type ReplyInputs, readReplyInputs } from "../replies/inputs.js";

export interface RepliesPlanFlags extends SessionFlags, KeyScopeFlags {
  readonly json?: boolean;
  /** `--since DURATION` in ms (default a day). */
  readonly since?: number;
  /** `--segment-price USD`: the price of one SMS segment, for the cost. */
  readonly segmentPrice?: number;
  /** `--state DIR`: a worker's state, whose record settles inbounds too. */
  readonly state?: string;
  /** False with `--no-color`. */
  readonly color?: boolean;
}

export const DEFAULT_PLAN_WINDOW_MS = 86_400_000;

export async function repliesPlanCommand(
  paths: readonly string[],
  flags: RepliesPlanFlags,
  io: Io,
  deps: { readonly session?: SessionOptions } = {},
): Promise<Outcome> {
  const json: JsonFailure = { json: flags.json === true, formatVersion: REPLIES_PLAN_FORMAT_VERSION };
  const inputs = readReplyInputs(paths, io);
  if (!inputs.ok) return failWith(inputs.diagnostics, inputs.sources, io, json);
  const record = flags.state === undefined ? NO_RECORD : readWorkerRecord(flags.state, io);
  if (!record.ok) return failWith(record.diagnostics, new Map(), io, json);
  const opened = await openSession(flags, io, deps.session);
  if (!opened.ok) return failWith(opened.diagnostics, new Map(), io, json);
  const session = opened.session;
  try {
    return await planWith(session, inputs, record, flags, io, json);
  } finally {
    await session.close();
  }
}

/** The worker's record, only read (no lock, nothing written: the worker may be running). */
interface WorkerRecord {
  readonly ok: true;
  readonly answered: ReadonlyMap<string, AnsweredLine>;
  readonly cursor: PollCursor | null;
  readonly notes: readonly Diagnostic[];
}

const NO_RECORD: WorkerRecord = { ok: true, answered: new Map(), cursor: null, notes: [] };

function readWorkerRecord(
  state: string,
  io: Io,
): WorkerRecord | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] } {
  let lines: AnsweredLine[] | null;
  let cursor: PollCursor;
  try {
    lines = readAnsweredRecord(resolve(io.cwd, state));
    cursor = readPollCursor(resolve(io.cwd, state));
  } catch (error) {
    return { ok: false, diagnostics: [stateUnreadable(state, error)] };
  }
  const answered = new Map<string, AnsweredLine>();
  for (const line of lines ?? []) if (line.t !== "unpaid") answered.set(line.inbound_message_id, line);
  return {
    ok: true,
    answered,
    cursor,
    notes: lines === null ? [recordMissing(state, ANSWERED_FILE_NAME)] : [],
  };
}

/** Routes the reply projects by their owners' keys, learns the API's clock, plans the window and prints the plan. */
async function planWith(
  session: Session,
  inputs: ReplyInputs,
  record: WorkerRecord,
  flags: RepliesPlanFlags,
  io: Io,
  json: JsonFailure,
): Promise<Outcome> {
  const { sources } = inputs;
  // Keys per organization: each reply project's reads go with its own organization's key; the
  // answers the cross-organization rule would refuse are said (and fail the plan).
  const routing = await routeReplies(session.router, inputs.campaign.projects, flags);
  if (!routing.ok) return failWith(routing.diagnostics, sources, io, json);
  const notes = [...record.notes, ...routing.diagnostics];
  // The window is the API's clock's: learn it first (one light read) unless a response told it.
  if (session.sandbox === null && session.clockReading() === null) {
    const probe = await session.client.listOrganizations();
    if (!probe.ok) return failWith([...notes, apiErrorDiagnostic(probe.error)], sources, io, json);
  }
  const now = session.now().getTime();
  const window = flags.since ?? DEFAULT_PLAN_WINDOW_MS;
  const { cursor } = record;
  const result = await planReplies({
    port: session.router,
    projects: inputs.projects,
    revocation: inputs.revocation,
    now,
    // With the worker's state: from its next pass's floor too, so that the plan judges every
    // inbound that pass would (a late delivery, a clock step; poll-window.ts).
    since: Math.min(now - window, cursor === null ? now - window : passFloor(cursor, now, window)),
    answered: record.answered,
    segmentPriceUsd: flags.segmentPrice ?? null,
  });
  // The notes (routing's warnings: a key that could not be used) go with a failed read too.
  if (!result.ok) return failWith([...notes, apiErrorDiagnostic(result.error)], sources, io, json);
  // Every request of the run counts, whatever made it (key checks, the clock's probe, retries).
  const plan = { ...result.plan, requests: session.client.stats().requests };
  io.stdout(renderRepliesPlan(plan, flags.json === true));
  printDiagnostics(io, "stderr", notes, sources, { verbose: false, color: flags.color !== false });
  return hasErrors(notes) ? failure : success;
}
