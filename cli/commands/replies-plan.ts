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
import { revocationWords } from "../../src/message/reply-words.js";
import { planReplies, REPLIES_PLAN_FORMAT_VERSION } from "../../src/replies/plan.js";
import { passFloor } from "../../src/replies/poll-window.js";
import { replyProjects } from "../../src/replies/projects.js";
import { ANSWERED_FILE_NAME, type AnsweredLine, type PollCursor } from "../../src/replies/state-file.js";
import { renderRepliesPlan } from "../../src/report/replies-plan-view.js";
import { loadCampaign } from "../adapters/load-campaign.js";
import { readAnsweredRecord, readPollCursor } from "../adapters/replies-state.js";
import { failWith, type JsonFailure } from "../fail.js";
import type { Io } from "../io.js";
import type { KeyScopeFlags } from "../key-scope-flag.js";
import { failure, type Outcome, success } from "../outcome.js";
import { loadPolicy } from "../policy-file.js";
import { printDiagnostics } from "../print-diagnostics.js";
import { openSession, type SessionFlags, type SessionOptions } from "../session.js";

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
  const loaded = loadCampaign(paths.length === 0 ? ["."] : paths, io.cwd);
  const sources = new Map(loaded.campaign.files.map((f) => [f.path, f.text]));
  const errors = loaded.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) return failWith(errors, sources, io, json);
  // The policies above the files may add revocation words (their `replies` rule).
  const policy = loadPolicy(
    {},
    loaded.campaign.files.map((f) => f.path),
    io.cwd,
  );
  if (!policy.ok) return failWith(policy.diagnostics, sources, io, json);
  const revocation = revocationWords(policy.policy?.rules.replies?.opt_out_words);
  const projects = replyProjects(loaded.campaign.projects);
  if (projects.length === 0)
    return failWith(
      [
        {
          severity: "error",
          code: "replies.no-rules",
          message: `No project in ${paths.length === 0 ? "." : paths.join(", ")} has reply rules`,
          hint: "add `replies:` with rules to a project (or to `defaults`); docs/replies.md",
        },
      ],
      sources,
      io,
      json,
    );
  // The worker's record, only read (no lock, nothing written): the worker may be running.
  const answered = new Map<string, AnsweredLine>();
  const notes: Diagnostic[] = [];
  let cursor: PollCursor | null = null;
  if (flags.state !== undefined) {
    let lines: AnsweredLine[] | null;
    try {
      lines = readAnsweredRecord(resolve(io.cwd, flags.state));
      cursor = readPollCursor(resolve(io.cwd, flags.state));
    } catch (error) {
      return failWith(
        [
          {
            severity: "error",
            code: "replies.state-unusable",
            message: `Cannot read the state directory ${flags.state}: ${error instanceof Error ? error.message : String(error)}`,
          },
        ],
        new Map(),
        io,
        json,
      );
    }
    if (lines === null)
      notes.push({
        severity: "warning",
        code: "replies.record-missing",
        message: `--state ${flags.state}: there is no ${ANSWERED_FILE_NAME}: the plan judges every inbound by its thread alone`,
        hint: "give the --state directory of `replies run` (it writes answered.jsonl there once it has settled an inbound)",
      });
    for (const line of lines ?? []) if (line.t !== "unpaid") answered.set(line.inbound_message_id, line);
  }
  const opened = await openSession(flags, io, deps.session);
  if (!opened.ok) return failWith(opened.diagnostics, new Map(), io, json);
  const session = opened.session;
  try {
    // Keys per organization: each reply project's reads go with its own organization's key; the
    // answers the cross-organization rule would refuse are said (and fail the plan).
    const routing = await routeReplies(session.router, loaded.campaign.projects, flags);
    if (!routing.ok) return failWith(routing.diagnostics, sources, io, json);
    notes.push(...routing.diagnostics);
    // The window is the API's clock's: learn it first (one light read) unless a response told it.
    if (session.sandbox === null && session.clockReading() === null) {
      const probe = await session.client.listOrganizations();
      if (!probe.ok) return failWith([apiErrorDiagnostic(probe.error)], new Map(), io, json);
    }
    const now = session.now().getTime();
    const window = flags.since ?? DEFAULT_PLAN_WINDOW_MS;
    const result = await planReplies({
      port: session.router,
      projects,
      revocation,
      now,
      // With the worker's state: from its next pass's floor too, so that the plan judges every
      // inbound that pass would (a late delivery, a clock step; poll-window.ts).
      since: Math.min(now - window, cursor === null ? now - window : passFloor(cursor, now, window)),
      answered,
      segmentPriceUsd: flags.segmentPrice ?? null,
    });
    if (!result.ok) return failWith([apiErrorDiagnostic(result.error)], new Map(), io, json);
    // Every request of the run counts, whatever made it (key checks, the clock's probe, retries).
    const plan = { ...result.plan, requests: session.client.stats().requests };
    io.stdout(renderRepliesPlan(plan, flags.json === true));
    printDiagnostics(io, "stderr", notes, sources, { verbose: false, color: flags.color !== false });
    return hasErrors(notes) ? failure : success;
  } finally {
    await session.close();
  }
}
