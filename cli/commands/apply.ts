/**
 * `campaignctl apply [paths...|PLANFILE]`: carries out a plan, exactly once, whatever the network
 * and the API do. With paths: plan (the same pipeline as `plan`), show the plan, ask, then run the
 * reconciliation loop (`src/apply/reconcile.ts`): read, judge against the files, send what is
 * runnable, repeat, every send resting on a read made in this run. With a
 * saved plan (`plan --out FILE`, recognised by its content, see `../plan-file.ts`): no question (it
 * was reviewed), but the plan made again from its files and fresh live state must be identical,
 * else the whole plan is refused and nothing is sent (`apply-saved.ts`). Progress on stderr, the journal under `.campaignctl/journal/`, the
 * report on stdout (`--json`: the apply result document only), `--markdown`/`--junit` files.
 * Exit codes: 0 every action done or deferred; 1 anything failed, skipped, blocked, unknown or
 * refused, or a project the files ask something of unreadable; 130 interrupted (Ctrl-C: requests in
 * flight finish; a second Ctrl-C aborts at once).
 */
import { createInterface } from "node:readline";
import { type Command, InvalidArgumentError } from "commander";
import { APPLY_FORMAT_VERSION, DEFAULT_PARALLELISM, parseDuration } from "../../src/apply/index.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { renderPlanHuman } from "../../src/report/plan-human.js";
import { addConnectionOptions } from "../connection-flags.js";
import { failWith, type JsonFailure } from "../fail.js";
import { type Io, useColor } from "../io.js";
import { failure, type Outcome, success } from "../outcome.js";
import { classifyApplyPaths } from "../plan-file.js";
import { runPlanPipeline } from "../plan-pipeline.js";
import type { ReportOutcome } from "../program.js";
import { checkReportPaths } from "../report-paths.js";
import { openSession, type Session } from "../session.js";
import { type ApplyDeps, type ApplyFlags, execute, type Relay } from "./apply-run.js";
import { applySaved } from "./apply-saved.js";

export type { ApplyDeps, ApplyFlags } from "./apply-run.js";

const QUESTION =
  "Do you want to perform these actions?\n  campaignctl will perform the actions described above.\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ";

const collect = (value: string, previous: readonly string[]): string[] => [...previous, value];

export function registerApply(program: Command, io: Io, report: ReportOutcome): void {
  const command = program
    .command("apply")
    .description("Carry out a plan (test sends, schedules, pauses) exactly once, in dependency order")
    .argument("[paths...]", "campaign files or directories, or one saved plan (plan --out FILE.json)", ["."]);
  addConnectionOptions(command, "apply against")
    .option("--auto-approve", "do not ask for confirmation (needed without a terminal, e.g. in CI)")
    .option(
      "--parallelism <n>",
      "independent actions in flight at once (1 to 16)",
      parallelism,
      DEFAULT_PARALLELISM,
    )
    .option(
      "--target <address>",
      "apply only this project and what it is ordered after (repeatable)",
      collect,
      [],
    )
    .option("--exclude <address>", "leave this project out (repeatable)", collect, [])
    .option("--json", "print the apply result document (JSON) on stdout instead of the report")
    .option("--markdown <file>", "also write the result as Markdown (a pull-request comment)")
    .option("--junit <file>", "also write the result as JUnit XML (one test case per action)")
    .option(
      "--wait-for-approval <duration>",
      "after test sends, wait this long (e.g. 10m, 90s) for approvals and schedule",
      duration,
    )
    .option("--refresh", "ignore the cache of live reads when planning (it is still updated)")
    .option(
      "--policy <file>",
      "enforce this policy file (default: campaignctl.policy.yaml in a directory given, or beside a file given)",
    )
    .option("--no-color", "no ANSI colour (also: NO_COLOR)")
    .addHelpText(
      "after",
      [
        "",
        "apply is a loop: it reads the projects, judges them against the files as plan does, sends what",
        "is runnable (each send rests on a read made in this run), and goes round again until nothing",
        "more can be done now (a test approved at once is scheduled, after: chains go on).",
        "Every request carries its plan's Idempotency-Key; unknown outcomes are settled by re-reading",
        "the project, never by blind resending. Each run writes a journal to .campaignctl/journal/.",
        "Exit codes: 0 every action done or deferred; 1 anything failed, skipped, blocked, unknown or",
        "refused, or a project the files ask something of unreadable;",
        "130 interrupted (Ctrl-C lets requests in flight finish; press it twice to abort at once).",
        "",
        "Examples:",
        "  campaignctl apply --sandbox examples/",
        "  campaignctl plan campaigns/ --out plan.json && campaignctl apply plan.json",
        "  campaignctl apply campaigns/ --auto-approve --wait-for-approval 10m --junit apply.xml",
        "",
      ].join("\n"),
    )
    .action(async (paths: string[], flags: ApplyFlags) => report(await applyCommand(paths, flags, io)));
}

/** Runs `apply`. Exported so tests and benchmarks can inject time, interrupts and the question. */
export async function applyCommand(
  paths: readonly string[],
  flags: ApplyFlags,
  io: Io,
  deps: ApplyDeps = {},
): Promise<Outcome> {
  const input = classifyApplyPaths(paths, io.cwd);
  if (input.kind === "mixed") return failWith([input.diagnostic], new Map(), io, applyJson(flags));
  const planFile = input.kind === "plan" ? input.file : null;
  if (planFile !== null && (flags.target.length > 0 || flags.exclude.length > 0))
    return failWith(
      [usage("--target and --exclude apply to campaign files; a saved plan was already narrowed")],
      new Map(),
      io,
      applyJson(flags),
    );
  const badPaths = await checkReportPaths(io, [
    { flag: "--markdown", file: flags.markdown },
    { flag: "--junit", file: flags.junit },
  ]);
  if (badPaths.length > 0) return failWith(badPaths, new Map(), io, applyJson(flags));
  const relay: Relay = { listener: undefined };
  const opened = await openSession(flags, io, {
    ...deps.session,
    onEvent: (event) => {
      deps.session?.onEvent?.(event);
      relay.listener?.(event);
    },
  });
  if (!opened.ok) return failWith(opened.diagnostics, new Map(), io, applyJson(flags));
  const session = opened.session;
  try {
    return planFile === null
      ? await applyFiles(paths, flags, io, deps, session, relay)
      : await applySaved(planFile, flags, io, deps, session, relay);
  } finally {
    await session.close();
  }
}

async function applyFiles(
  paths: readonly string[],
  flags: ApplyFlags,
  io: Io,
  deps: ApplyDeps,
  session: Session,
  relay: Relay,
): Promise<Outcome> {
  const args = {
    paths,
    targets: flags.target,
    excludes: flags.exclude,
    refresh: flags.refresh === true,
    policy: flags.policy,
  };
  const planned = await runPlanPipeline(args, session, io);
  if (!planned.ok) return failWith(planned.diagnostics, planned.sources, io, applyJson(flags));
  const { plan, sources } = planned;
  const shown = renderPlanHuman(plan, {
    color: flags.color && useColor(io, flags.json ? "stderr" : "stdout"),
    sources,
  });
  if (flags.json === true) io.stderr(shown);
  else io.stdout(shown);
  const waiting = flags.waitForApproval !== undefined;
  const sendable = plan.summary.planned + (waiting ? plan.summary.deferred : 0);
  if (sendable <= 0) {
    const blocked = plan.summary.blocked > 0 || plan.summary.drifted > 0 || plan.summary.errors > 0;
    io.stderr(
      blocked
        ? "\nNothing to apply, but the plan has blocked actions or errors: fix them and plan again.\n"
        : "\nNo changes. Nothing to apply: the live projects match the files (deferred actions wait for approval).\n",
    );
    // Machines still get a result document, and a run with problems its reports (Markdown, JUnit):
    // the run below sends nothing and reports every action and every unreadable project.
    if (flags.json !== true && !blocked) return success;
  }
  if (sendable > 0 && flags.autoApprove !== true) {
    if (!io.stdinIsTTY)
      return failWith(
        [
          {
            severity: "error",
            code: "apply.needs-approval",
            message: "apply needs confirmation, but stdin is not a terminal",
            hint: "review the plan above and pass --auto-approve, or apply a saved plan (plan --out FILE, apply FILE)",
          },
        ],
        sources,
        io,
        applyJson(flags),
      );
    const answer = await (deps.ask ?? askOnTerminal)(`\n${QUESTION}`);
    if (answer.trim() !== "yes") {
      io.stderr("\nApply cancelled.\n");
      return failure;
    }
  }
  // The reconciliation loop: every send re-read and re-judged against the files in this run.
  return execute(plan, flags, io, deps, session, relay, {
    sources,
    loop: { live: planned.live, judge: planned.judge },
    // No question was asked when there was nothing to send: the run then only reports.
    reportOnly: sendable <= 0,
  });
}

/** With --json, a run that stops before applying still prints one document: the error document. */
function applyJson(flags: ApplyFlags): JsonFailure {
  return { json: flags.json === true, formatVersion: APPLY_FORMAT_VERSION };
}

function usage(message: string): Diagnostic {
  return { severity: "error", code: "cli.usage", message };
}

function askOnTerminal(question: string): Promise<string> {
  return new Promise((done) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    rl.on("SIGINT", () => {
      rl.close();
      done("");
    });
    rl.question(question, (answer) => {
      rl.close();
      done(answer);
    });
  });
}

function parallelism(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 16)
    throw new InvalidArgumentError("expected an integer from 1 to 16");
  return n;
}

function duration(value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined)
    throw new InvalidArgumentError("expected a duration such as 90s, 10m or 1h30m (at most 24h)");
  return ms;
}
