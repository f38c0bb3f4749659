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
import { APPLY_FORMAT_VERSION, type Judge } from "../../src/apply/index.js";
import { holdUnapproved } from "../../src/approvals/hold.js";
import type { ProjectSpec } from "../../src/campaign/model.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { summaryTotals } from "../../src/plan/summary.js";
import type { Plan } from "../../src/plan/types.js";
import { planView } from "../../src/report/plan-view.js";
import { classifyApplyPaths } from "../adapters/plan-file.js";
import { runPlanPipeline } from "../gather/plan-pipeline.js";
import { openSession, type Session } from "../gather/session.js";
import { failWith, type JsonFailure } from "../output/fail.js";
import { type Io, useColor } from "../output/io.js";
import { failure, type Outcome, success } from "../output/outcome.js";
import { checkReportPaths } from "../output/report-paths.js";
import { stderrNotice } from "../progress/rate-limit-notice.js";
import { type ApplyDeps, type ApplyFlags, execute, type Relay } from "./apply-run.js";
import { applySaved } from "./apply-saved.js";

export type { ApplyDeps, ApplyFlags } from "./apply-run.js";

const QUESTION =
  "Do you want to perform these actions?\n  campaignctl will perform the actions described above.\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ";

/** Runs `apply`. Exported so tests and benchmarks can inject time, interrupts and the question. */
export async function applyCommand(
  paths: readonly string[],
  flags: ApplyFlags,
  io: Io,
  deps: ApplyDeps = {},
): Promise<Outcome> {
  const input = classifyApplyPaths(paths, io.cwd);
  if (input.kind === "mixed" || input.kind === "neither")
    return failWith([input.diagnostic], new Map(), io, applyJson(flags));
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
  const relay: Relay = { listener: undefined, note: undefined };
  const toStderr = stderrNotice(io);
  const opened = await openSession(flags, io, {
    ...deps.session,
    onEvent: (event) => {
      deps.session?.onEvent?.(event);
      relay.listener?.(event);
    },
    // During the run, above its live view; before it (the plan's reads), a line on stderr.
    notify: (line) => (relay.note ?? toStderr)(line),
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
    loosenPolicy: flags.loosenPolicy,
    requirePolicy: flags.requirePolicy,
    allowCrossOrganizationKey: flags.allowCrossOrganizationKey,
    forecast: flags.forecast === true,
  };
  const planned = await runPlanPipeline(args, session, io);
  if (!planned.ok) return failWith(planned.diagnostics, planned.sources, io, applyJson(flags));
  const { sources } = planned;
  // Under require_approvals the schedules it covers are held: nobody approved a plan made now.
  const hold = unapprovedHold(planned.plan, planned.campaign.projects);
  const plan = hold(planned.plan);
  if (planned.emailLeftOut !== undefined) io.stderr(planned.emailLeftOut);
  // The plan shown before the question: every item (email lists and campaigns, reply rules) and,
  // with --forecast or under a policy's forecast_errors, the forecast; on stderr with --json.
  const stream = flags.json === true ? "stderr" : "stdout";
  const shown = planView("human", {
    color: flags.color && useColor(io, stream),
    sources,
    requestTable: flags.verbose === true,
  })({ plan, ...(planned.forecast === undefined ? {} : { forecast: planned.forecast }) });
  io[stream](shown);
  const waiting = flags.waitForApproval !== undefined;
  // What apply would send: planned actions and email lists to sync (the summary counts both).
  const totals = summaryTotals(plan.summary);
  const sendable = totals.toDo + (waiting ? plan.summary.deferred : 0);
  if (sendable <= 0) {
    const blocked = totals.blocked > 0 || plan.summary.drifted > 0 || plan.summary.errors > 0;
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
    loop: { live: planned.live, judge: heldJudge(planned.judge, hold) },
    // No question was asked when there was nothing to send: the run then only reports.
    reportOnly: sendable <= 0,
    emailLists: planned.campaign.emailLists ?? [],
  });
}

/** `judge` with `hold` on each plan it judges and on each project it judges alone. */
function heldJudge(judge: Judge, hold: (judged: Plan) => Plan): Judge {
  return (projects, now) => {
    const judged = judge(projects, now);
    return {
      plan: hold(judged.plan),
      project: (address, at) => {
        const alone = judged.project(address, at);
        return alone === undefined ? undefined : hold({ ...judged.plan, projects: [alone] }).projects[0];
      },
    };
  };
}

/** The hold of `require_approvals` on a plan of these projects and each re-judgement (src/approvals/hold.ts). */
function unapprovedHold(plan: Plan, specs: readonly ProjectSpec[]): (judged: Plan) => Plan {
  const rule = plan.policy?.rules.require_approvals;
  const byAddress = new Map(specs.map((s) => [s.address, s]));
  const places = { schedule: (address: string) => byAddress.get(address)?.locate(["schedule"]) };
  return (judged) => holdUnapproved(judged, rule, places);
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
