/**
 * The policy's rules over one project. Pure: the plan's clock and the live estimate are passed in.
 * A violation is an error `policy.<rule with hyphens>` at the campaign file's position, with the rule's place in
 * the policy file in `related`. Rules judge what a project would send, so only its sending side
 * (test block, schedule, message) is looked at: a pause is never a violation.
 */
import { guardCanPause, type ProjectSpec, type SpecPath, sampleReachable } from "../campaign/model.js";
import { checkReplyRules } from "../campaign/reply-checks.js";
import { matchRule } from "../campaign/reply-match.js";
import type { PolicyCode } from "../diagnostics/codes/policy.js";
import type { Diagnostic, DiagnosticFix } from "../diagnostics/diagnostic.js";
import { revocationWords } from "../message/reply-words.js";
import { hasVisibleCharacters } from "../message/visible.js";
import { helpFindings } from "./help-rule.js";
import { DAILY_CAP_BYPASS_LABEL, type Policy, type PolicyRuleName } from "./model.js";
import { optOutFinding } from "./opt-out-rule.js";
import { type Sending, sendingOf } from "./sending.js";
import { missingSuppressionLists } from "./suppression-rule.js";
import { judgeRequirePlaces, judgeWindowRules, offlineFacts, type SendFacts } from "./window-rules.js";

/** What a rule may know beyond the files. */
export interface PolicyContext {
  /** The plan's clock (for `at: now`); null offline, which skips what depends on it. */
  readonly now: Date | null;
  /** The live estimate of the project's send, in cents; null when not read (offline). */
  readonly estimatedCostCents: number | null;
  /** The live estimate of the send's recipients; absent or null when not read (offline). */
  readonly recipients?: number | null;
  /** What the send's organization and lists go by, and its course; default: as the file writes them, its start. */
  readonly facts?: SendFacts;
  /**
   * `send_window` and `jurisdictions` are judged later, over the whole send the forecast sees
   * (src/plan/window-hold.ts): skip them here. Default false.
   */
  readonly windowsLater?: boolean;
}

/**
 * A rule these files judge. `forecast_errors` is judged with the forecast (src/forecast/policy-hold.ts):
 * its errors keep their `forecast.*` codes; `require_approvals` by `apply PLANFILE` (src/approvals);
 * `budgets` by the plan over all its sends together (src/plan/budget-hold.ts).
 */
export type FileRuleName = Exclude<
  PolicyRuleName,
  "forecast_errors" | "opt_out_wording" | "require_approvals" | "budgets"
>;

/** The diagnostic code of a rule: its name with hyphens (`daily_cap_bypass` -> `policy.daily-cap-bypass`). */
export function policyCode(rule: FileRuleName): PolicyCode {
  switch (rule) {
    case "daily_cap_bypass":
      return "policy.daily-cap-bypass";
    case "min_test_contacts":
      return "policy.min-test-contacts";
    case "max_estimated_cost_usd":
      return "policy.max-estimated-cost-usd";
    case "send_window":
      return "policy.send-window";
    case "jurisdictions":
      return "policy.jurisdictions";
    case "require_places":
      return "policy.require-places";
    case "require_opt_out_language":
      return "policy.require-opt-out-language";
    case "forbid_at_now":
      return "policy.forbid-at-now";
    case "require_guards":
      return "policy.require-guards";
    case "replies":
      return "policy.replies";
    case "require_email_consent":
      return "policy.require-email-consent";
    case "require_suppression_lists":
      return "policy.require-suppression-lists";
    case "require_help":
      return "policy.require-help";
  }
}

/**
 * The project keys each rule's finding reads (src/campaign/key-trust.ts): on a project with schema
 * errors, validate keeps a violation only when none of these keys is untrusted.
 */
export const POLICY_FINDING_READS: Partial<Readonly<Record<PolicyCode, readonly string[]>>> = readsByCode({
  daily_cap_bypass: ["state", "schedule", "labels"],
  min_test_contacts: ["state", "test"],
  max_estimated_cost_usd: ["state", "schedule"],
  send_window: ["state", "schedule", "organization", "contact_lists"],
  jurisdictions: ["state", "schedule", "organization", "contact_lists"],
  require_places: ["state", "organization", "contact_lists"],
  require_opt_out_language: ["state", "message", "opt_out_footer", "merge_defaults"],
  forbid_at_now: ["state", "schedule"],
  require_guards: ["state", "guard"],
  replies: ["replies"],
  require_email_consent: ["email_lists"],
  require_suppression_lists: ["state", "organization", "suppression_lists"],
  require_help: ["state", "organization", "brand", "replies"],
});

function readsByCode(
  byRule: Readonly<Record<FileRuleName, readonly string[]>>,
): Partial<Record<PolicyCode, readonly string[]>> {
  return Object.fromEntries(
    (Object.keys(byRule) as FileRuleName[]).map((rule) => [policyCode(rule), byRule[rule]]),
  );
}

/** A violation of `rule` by `project`, at `path` of its file, with the rule's place in `related`. */
type ViolationOf = (
  rule: FileRuleName,
  path: SpecPath,
  message: string,
  hint: string,
  fixes?: readonly DiagnosticFix[],
) => void;

/** The violation builder of `project` under `policy`, pushing onto `out`. */
function violations(policy: Policy, project: ProjectSpec, out: Diagnostic[]): ViolationOf {
  return (rule, path, message, hint, fixes = []) => {
    const ruleRange = policy.ranges[rule];
    out.push({
      severity: "error",
      code: policyCode(rule),
      message: `${project.address}: ${message}`,
      range: project.locate(path),
      hint,
      ...(ruleRange === undefined
        ? {}
        : { related: [{ message: `the policy's rule ${rule}`, range: ruleRange }] }),
      ...(fixes.length === 0 ? {} : { fixes }),
    });
  };
}

/**
 * The policy's `send_window` and `jurisdictions` over a send whose course is known (`facts.span`:
 * the forecast's start and finish or cap pause), as the plan judges them after forecasting
 * (src/plan/window-hold.ts; `windowsLater` in policyViolations).
 */
export function windowViolations(
  policy: Policy,
  project: ProjectSpec,
  facts: SendFacts,
  now: Date,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  judgeWindowRules(policy, project, facts, now, violations(policy, project, out));
  return out;
}

export function policyViolations(policy: Policy, project: ProjectSpec, context: PolicyContext): Diagnostic[] {
  const rules = policy.rules;
  const out: Diagnostic[] = [];
  const violation = violations(policy, project, out);
  // What the project's send is known by; the live state read in this run says whether it still sends.
  const facts = context.facts ?? offlineFacts(project);
  const { sends, toLists, schedule } = sendingOf(project, facts.completed === true);

  judgeTestAndSchedule(rules, project, { sends, schedule }, violation);
  const maxUsd = rules.max_estimated_cost_usd;
  const cents = context.estimatedCostCents;
  if (maxUsd !== undefined && schedule !== undefined && cents !== null && cents > maxUsd * 100)
    violation(
      "max_estimated_cost_usd",
      ["schedule"],
      `the send is estimated at $${(cents / 100).toFixed(2)}, over the policy's $${maxUsd} per project`,
      "narrow the contact lists or shorten the message, or raise the limit in the policy",
    );

  // Where and when the send reaches its recipients: the one send window, and declared places.
  if (context.windowsLater !== true) judgeWindowRules(policy, project, facts, context.now, violation);
  judgeRequirePlaces(policy, project, facts, violation);
  if (sends) judgeSuppression(policy, project, facts, violation);
  const help = policy.rules.require_help;
  if (help !== undefined)
    for (const f of helpFindings(help, project, facts.organization, sends))
      violation("require_help", f.path, f.message, f.hint);

  const optOut = sends ? optOutFinding(rules, project) : undefined;
  if (optOut !== undefined)
    violation("require_opt_out_language", ["message"], optOut.message, optOut.hint, optOut.fixes);
  judgeAtNowAndGuards(rules, project, { toLists, schedule }, context.recipients ?? null, violation);
  judgeReplies(rules, project, violation);
  return out;
}

/** `daily_cap_bypass` and `min_test_contacts`, over what the project still tests and sends. */
function judgeTestAndSchedule(
  rules: Policy["rules"],
  project: ProjectSpec,
  { sends, schedule }: Pick<Sending, "sends" | "schedule">,
  violation: ViolationOf,
): void {
  if (schedule?.dailyCapBypass === true) {
    const rule = rules.daily_cap_bypass;
    if (rule === "forbid")
      violation(
        "daily_cap_bypass",
        ["schedule", "daily_cap_bypass"],
        "the schedule sets daily_cap_bypass, which the policy forbids",
        "remove daily_cap_bypass (the send pauses at the brand's daily cap), or change the policy",
      );
    else if (
      rule === "require_label" &&
      !hasVisibleCharacters(project.labels?.[DAILY_CAP_BYPASS_LABEL] ?? "")
    )
      violation(
        "daily_cap_bypass",
        ["schedule", "daily_cap_bypass"],
        `the schedule sets daily_cap_bypass without the label ${DAILY_CAP_BYPASS_LABEL} (a value with visible characters)`,
        `add labels: {${DAILY_CAP_BYPASS_LABEL}: <who approved it>} to the project`,
      );
  }

  const minTests = rules.min_test_contacts;
  if (minTests !== undefined && project.test === undefined && sends)
    // Offline too: the file under review must name who reviews the send, whatever live state says.
    violation(
      "min_test_contacts",
      ["state"],
      `the project is ${project.state} with no test: block; the policy requires a test to at least ${minTests} contact${minTests === 1 ? "" : "s"}`,
      `add a test: block with ${minTests === 1 ? "a reviewer's phone" : `${minTests} reviewers' phones`} (test: {contacts: [{phone: "+1..."}]}), to the project or to defaults`,
    );
  if (minTests !== undefined && project.test !== undefined && sends) {
    // Distinct phones: a phone listed twice is one reviewer (and an error of its own at validate).
    const count = new Set(project.test.contacts.map((c) => c.phone)).size;
    if (count < minTests)
      violation(
        "min_test_contacts",
        ["test", "contacts"],
        `the test goes to ${count} contact${count === 1 ? "" : "s"}; the policy requires at least ${minTests}`,
        "add test contacts (people who will review the message on their phones)",
      );
  }
}

/** `forbid_at_now` and `require_guards`, over a send to the project's lists. */
function judgeAtNowAndGuards(
  rules: Policy["rules"],
  project: ProjectSpec,
  { toLists, schedule }: Pick<Sending, "toLists" | "schedule">,
  recipients: number | null,
  violation: ViolationOf,
): void {
  if (rules.forbid_at_now === true && schedule?.at === "now")
    violation(
      "forbid_at_now",
      ["schedule", "at"],
      "the schedule says at: now, which the policy forbids",
      "write the reviewed send time with its offset, e.g. 2026-12-07T10:00:00-06:00",
    );

  const guard = project.guard;
  if (rules.require_guards !== true || !toLists) return;
  // A guard that can never pause the send (no rate, or every rate 1) is no guard to this rule.
  if (guard === undefined || !guardCanPause(guard))
    violation(
      "require_guards",
      ["state"],
      guard === undefined
        ? "the project is scheduled without a guard, and the policy requires one on every send"
        : guard.maxFailureRate === undefined && guard.maxOptOutRate === undefined
          ? "the project is scheduled with a guard that sets no rate, and the policy requires one on every send"
          : "the project is scheduled with a guard whose every rate is 1 (100 %), which never pauses the send, and the policy requires one that can",
      "add `guard: {max_failure_rate: 0.05, max_opt_out_rate: 0.02}` (or your own thresholds) to the project or to `defaults`, so that `campaignctl watch` pauses a failing send",
    );
  // Nor is one that judges nothing before more messages are sent than the send has recipients.
  else if (recipients !== null && recipients > 0 && !sampleReachable(guard, recipients))
    violation(
      "require_guards",
      ["guard", "min_sample"],
      `the project is scheduled with a guard that judges no rate before ${guard.minSample} messages are sent, but the send has ${recipients} recipients: it never pauses the send, and the policy requires a guard that can`,
      `give its guard a min_sample of at most ${recipients}, so that \`campaignctl watch\` can pause a failing send`,
    );
}

/** `replies`: the answers the policy requires, and its own revocation words (a completed project still answers). */
function judgeReplies(rules: Policy["rules"], project: ProjectSpec, violation: ViolationOf): void {
  const replies = rules.replies;
  if (replies !== undefined && project.replies !== undefined) {
    for (const required of replies.require ?? []) {
      const match = matchRule(project.replies, required.text);
      if (match === null)
        violation(
          "replies",
          ["replies", "rules"],
          `no reply rule answers ${JSON.stringify(required.text)}, which the policy requires an answer to`,
          `add a rule whose keywords or pattern match ${JSON.stringify(required.text)}${required.answer_contains === undefined ? "" : `, with an answer that says ${JSON.stringify(required.answer_contains)}`}`,
        );
      else if (
        required.answer_contains !== undefined &&
        !match.rule.answer.toLowerCase().includes(required.answer_contains.toLowerCase())
      )
        violation(
          "replies",
          ["replies", "rules", match.index, "answer"],
          `reply rule \`${match.rule.name}\` answers ${JSON.stringify(required.text)} without ${JSON.stringify(required.answer_contains)}, which the policy requires in that answer`,
          `say ${JSON.stringify(required.answer_contains)} in the answer (for example, name the sender)`,
        );
    }
    // The policy's own revocation words: a rule that could match one is an error here too.
    if (replies.opt_out_words !== undefined) {
      const builtIn = new Set(revocationWords().map((w) => w.word));
      const extra = revocationWords(replies.opt_out_words).filter((w) => !builtIn.has(w.word));
      for (const d of checkReplyRules(project, extra))
        if (d.code === "replies.rule-matches-opt-out")
          violation("replies", ["replies"], d.message.replace(/^project `[^`]*`: /, ""), d.hint ?? "");
    }
  }
}

/** `require_suppression_lists`: every list the rule names for the send's organization, carried (a project that sends). */
function judgeSuppression(
  policy: Policy,
  project: ProjectSpec,
  facts: SendFacts,
  violation: ViolationOf,
): void {
  const rule = policy.rules.require_suppression_lists;
  if (rule === undefined) return;
  const carried = facts.suppressionLists ?? (project.suppressionLists ?? []).map((l) => [l]);
  const missing = missingSuppressionLists(rule, facts.organization, carried);
  if (missing.length === 0) return;
  const names = missing.map((m) => JSON.stringify(m)).join(", ");
  const written = project.suppressionLists ?? [];
  violation(
    "require_suppression_lists",
    ["suppression_lists"],
    `the project ${project.state === "tested" ? "tests" : "sends"} without the suppression list${missing.length === 1 ? "" : "s"} ${names}, which the policy requires on every test and send${facts.organization.length === 0 ? "" : ` of organization ${JSON.stringify(facts.organization[0])}`}${written.length === 0 ? " (it carries none)" : ` (it carries ${written.map((l) => JSON.stringify(l)).join(", ")})`}`,
    `add ${names} to the project's suppression_lists (or to defaults), by the name or id the policy uses`,
  );
}
