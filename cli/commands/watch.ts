/**
 * `campaignctl watch [paths...]`: follows the campaign files' projects while they send. It polls
 * their statistics in bulk within the rate budget (`src/watch/watch-poll.ts`, `watch-budget.ts`),
 * shows their progress (a live view on a terminal, a line per change otherwise, JSON lines with
 * `--json`), and pauses a project whose guard tripped (`src/watch/guard-pause.ts`, through the one
 * write executor), keeping the pause pending and retrying it on every poll until it lands.
 * Registered in `../register/watch.ts`.
 *
 * Stops after one poll with `--once`, when no watched project is sending with `--until-done`, else
 * on Ctrl-C (SIGINT or SIGTERM: the poll or pause in flight finishes; a second Ctrl-C aborts at once).
 * Exit codes (design.md Turn 4): 0 every watched project ended (or the run stopped) with no guard
 * tripped; 2 a guard tripped and its pause landed; 1 an error (files that do not load, no
 * connection, a project of the files that cannot be read) or a guard's pause still pending when the
 * run ends. An error wins over 2. Output goes through the one view of watch (`src/report/watch-view.ts`).
 */

import { setTimeout as delay } from "node:timers/promises";
import type { Sleep } from "../../src/api/index.js";
import { keyRecheck } from "../../src/api/routing/key-recheck.js";
import { emailOwners, projectOwners } from "../../src/api/routing/owners.js";
import { type RoutingResult, routeOwners } from "../../src/api/routing/route-owners.js";
import { busiestKeyRequests } from "../../src/api/routing/sum-stats.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { brakedGuard } from "../../src/experiments/brake.js";
import { createWatchView } from "../../src/report/watch-view.js";
import { formatDuration } from "../../src/text/duration.js";
import { WATCH_FORMAT_VERSION, type WatchUntil } from "../../src/watch/watch-events.js";
import { type AlsoPolled, runWatch } from "../../src/watch/watch-loop.js";
import { DEFAULT_INTERVAL_MS, MIN_INTERVAL_MS } from "../../src/watch/watch-pace.js";
import type { WatchTarget } from "../../src/watch/watch-state.js";
import { loadCampaign } from "../adapters/load-campaign.js";
import { loadPolicy } from "../adapters/policy-file.js";
import { emailWatch } from "../email/watch-email.js";
import { budgetWatchOf } from "../gather/budget-watch.js";
import { openSession, type Session, type SessionFlags, type SessionOptions } from "../gather/session.js";
import { onStopSignal } from "../lifecycle/stop-signals.js";
import { failWith, type JsonFailure } from "../output/fail.js";
import { type Io, useColor } from "../output/io.js";
import { failure, type Outcome, success } from "../output/outcome.js";
import { stopwatch } from "../progress/progress-clock.js";
import { hourlyRecorder, recordProblems, storeFlagsOf } from "./results-record.js";

/** The flags of `watch`, as commander parses them. */
export interface WatchFlags extends SessionFlags {
  readonly once?: boolean;
  readonly untilDone?: boolean;
  readonly json?: boolean;
  /** `--interval`, in milliseconds (parsed from `15s`, `1m`, ...). */
  readonly interval?: number;
  /** False with `--no-color`. */
  readonly color?: boolean;
  /** `--record`, `--store`, `--results-dir`: record into the results store every hour (docs/results.md). */
  readonly record?: boolean;
  readonly store?: string;
  readonly resultsDir?: string;
}

/** Injections for tests and benchmarks; the CLI passes none. */
export interface WatchDeps {
  /** The client's clock and sleep, and the embedded sandbox's options. */
  readonly session?: SessionOptions;
  /** The waits between polls and between pause attempts (default: a real timer, cut short by Ctrl-C). */
  readonly sleep?: Sleep;
  /** Ctrl-C source: calls `handler` on each interrupt; returns the unsubscribe. Default: SIGINT and SIGTERM. */
  readonly onInterrupt?: (handler: () => void) => () => void;
  /** Attempts of one pause and the first wait between them (defaults 5 and 1 s, as apply). */
  readonly maxSends?: number;
  readonly backoffMs?: number;
}

/** Runs `watch`. Exported so tests and benchmarks can inject time and interrupts. */
export async function watchCommand(
  paths: readonly string[],
  flags: WatchFlags,
  io: Io,
  deps: WatchDeps = {},
): Promise<Outcome> {
  const json: JsonFailure = { json: flags.json === true, formatVersion: WATCH_FORMAT_VERSION };
  const usage = [
    ...usageProblems(flags),
    ...(flags.record === true ? recordProblems(storeFlagsOf(flags)) : []),
  ];
  if (usage.length > 0) return failWith(usage, new Map(), io, json);
  const intervalMs = flags.interval ?? DEFAULT_INTERVAL_MS;
  const until: WatchUntil = flags.once === true ? "once" : flags.untilDone === true ? "done" : "interrupted";

  const loaded = loadCampaign(paths.length === 0 ? ["."] : paths, io.cwd);
  const sources = new Map(loaded.campaign.files.map((f) => [f.path, f.text]));
  const errors = loaded.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) return failWith(errors, sources, io, json);
  const targets: WatchTarget[] = loaded.campaign.projects.map((p) => ({
    id: p.id,
    address: p.address,
    // An experiment's brake tightens its arms' guards (docs/experiments.md).
    guard: brakedGuard(p.address, p.guard ?? null, loaded.campaign.experiments ?? []),
  }));

  const opened = await openSession(flags, io, deps.session);
  if (!opened.ok) return failWith(opened.diagnostics, new Map(), io, json);
  const session = opened.session;
  const { routing, recheck } = await routeWatched(session, loaded.campaign, flags);
  if (!routing.ok) {
    await session.close();
    return failWith(routing.diagnostics, sources, io, json);
  }
  const { controller, sleep, unsubscribe } = interruptible(io, deps);
  const watch = stopwatch(io.clock);
  const view = createWatchView(io, {
    json: flags.json === true,
    tty: io.stdoutIsTTY,
    color: flags.color !== false && useColor(io, "stderr"),
    width: terminalWidth(io),
  });
  const alsoPoll = bothPolls(otherPolls(loaded.campaign, session, flags, io), recheck);
  try {
    const summary = await runWatch({
      port: session.client,
      targets,
      until,
      intervalMs,
      now: () => session.now(),
      elapsedMs: watch.elapsedMs,
      sleep,
      signal: controller.signal,
      requests: () => session.client.stats().requests,
      // The 40 a minute hold per key: the busiest key's requests.
      budgetRequests: busiestKeyRequests(session.router.inUse),
      onEvent: view.onEvent,
      notes: routing.diagnostics,
      ...(deps.maxSends === undefined ? {} : { maxSends: deps.maxSends }),
      ...(deps.backoffMs === undefined ? {} : { backoffMs: deps.backoffMs }),
      // Email campaigns' guards (docs/email.md): alerts, since the API cannot pause them.
      ...(alsoPoll === undefined ? {} : { alsoPoll }),
    });
    // design.md Turn 4: 1 on errors or a pause still pending; 2 a guard tripped and its pause landed.
    if (summary.errors > 0 || summary.reason === "error" || summary.pending > 0) return failure;
    return summary.paused > 0 ? { kind: "guard-paused" } : success;
  } finally {
    unsubscribe();
    await session.close();
  }
}

/**
 * Two per-poll checks as one (either may be absent): their notes together, their sending counts
 * summed (absent when neither watches an email campaign).
 */
function bothPolls(a: (() => Promise<AlsoPolled>) | undefined, b: (() => Promise<AlsoPolled>) | undefined) {
  if (a === undefined || b === undefined) return a ?? b;
  return async (): Promise<AlsoPolled> => {
    const first = await a();
    const second = await b();
    const diagnostics = [...first.diagnostics, ...second.diagnostics];
    if (first.sending === undefined && second.sending === undefined) return { diagnostics };
    return { diagnostics, sending: (first.sending ?? 0) + (second.sending ?? 0) };
  };
}

/** The terminal's width for the live view: `$COLUMNS`, else the terminal's; null when unknown. */
function terminalWidth(io: Io): number | null {
  const columns = io.env.COLUMNS;
  if (columns !== undefined && /^\d+$/.test(columns) && Number(columns) > 0) return Number(columns);
  if (!io.stdoutIsTTY) return null;
  const terminal = process.stdout.columns;
  return typeof terminal === "number" && terminal > 0 ? terminal : null;
}

/** Flags that cannot work together or are out of range; checked before anything is read. */
function usageProblems(flags: WatchFlags): Diagnostic[] {
  const problems: Diagnostic[] = [];
  if (flags.once === true && flags.untilDone === true)
    problems.push({
      severity: "error",
      code: "cli.usage",
      message: "--once and --until-done disagree: one poll, or polls until nothing is sending",
      hint: "give one of them",
    });
  if (flags.interval !== undefined && flags.interval < MIN_INTERVAL_MS)
    problems.push({
      severity: "error",
      code: "cli.usage",
      message: `--interval ${formatDuration(flags.interval)} is shorter than the ${formatDuration(MIN_INTERVAL_MS)} minimum`,
      hint: `give --interval ${formatDuration(MIN_INTERVAL_MS)} or more: the polls must leave the key's 100 requests a minute room for pauses and other tools`,
    });
  return problems;
}

/** Second Ctrl-C: drop our handler and re-raise SIGINT, whose default action ends the process at once. */
function hardAbort(unsubscribe: () => void): void {
  unsubscribe();
  process.kill(process.pid, "SIGINT");
}

/**
 * Ctrl-C (or SIGTERM): the first stops watch after the request in flight (the sleep between polls
 * ends at once), the second aborts at once.
 */
function interruptible(io: Io, deps: WatchDeps) {
  const controller = new AbortController();
  const sleep: Sleep =
    deps.sleep ?? ((ms) => delay(ms, undefined, { signal: controller.signal }).catch(() => undefined));
  let interrupts = 0;
  const unsubscribe = (deps.onInterrupt ?? onStopSignal)(() => {
    interrupts++;
    if (interrupts === 1) {
      io.stderr(
        "\nInterrupt received: watch stops after the request in flight. Press Ctrl-C again to abort at once.\n",
      );
      controller.abort();
    } else hardAbort(unsubscribe);
  });
  return { controller, sleep, unsubscribe };
}

/**
 * Keys per organization: each project's (and email campaign's) reads and pauses go with its own
 * organization's key; `--record` reads what every key sees. A key that could not be used at the
 * start (routing's warnings) is checked again, at most once a minute, after a poll's pauses
 * (`recheck`, one of the poll's checks: src/api/routing/key-recheck.ts).
 */
async function routeWatched(
  session: Session,
  campaign: ReturnType<typeof loadCampaign>["campaign"],
  flags: WatchFlags,
): Promise<{ routing: RoutingResult; recheck?: () => Promise<AlsoPolled> }> {
  const owners = [
    ...projectOwners(campaign.projects),
    ...emailOwners({ lists: [], campaigns: campaign.emailCampaigns ?? [] }),
  ];
  const route = () => routeOwners(session.router, owners, { everyKey: flags.record === true });
  const routing = await route();
  if (!routing.ok || routing.diagnostics.length === 0) return { routing };
  const again = keyRecheck({ router: session.router, route, now: () => session.now().getTime() });
  return { routing, recheck: async () => ({ diagnostics: await again() }) };
}

/**
 * The other checks of each poll: the email campaigns' guards (docs/email.md), `--record` (every
 * project the keys see, into the results store, once per hour of the API's clock) and the policy's
 * budgets (docs/policy.md#budgets: alerted once when a period's spending crosses one).
 */
function otherPolls(
  campaign: ReturnType<typeof loadCampaign>["campaign"],
  session: Session,
  flags: WatchFlags,
  io: Io,
) {
  const email = emailWatch(campaign.emailCampaigns ?? [], session.router);
  // --record: every project the keys see, into the results store, once per hour of the API's clock.
  const recorder = flags.record === true ? hourlyRecorder(session, storeFlagsOf(flags), io) : undefined;
  // The policy's budgets (docs/policy.md#budgets): alerted once when a period's spending crosses one.
  const policy = loadPolicy(
    {},
    campaign.files.map((f) => f.path),
    io.cwd,
  );
  const budgets = budgetWatchOf(session, policy);
  return bothPolls(bothPolls(email, recorder), budgets);
}
