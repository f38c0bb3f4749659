/**
 * The approvals a saved plan needs before `apply PLANFILE` sends anything (issue 37 point 6): the
 * policy's `require_approvals` (as the plan made again now has it, never the saved document's copy),
 * the schedules it covers, and the approvals found: in GitHub Actions the pull request's reviews,
 * elsewhere the signature files beside the plan, verified by ssh-keygen against the policy's
 * allowed-signers file. Reads only (the GitHub API, the files); the counting is src/approvals.
 */
import { readdir, readFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import type { ApprovalsGate } from "../../src/apply/index.js";
import { allowedPrincipals } from "../../src/approvals/allowed-signers.js";
import { type ApprovalsFound, countApprovals, enoughApprovals } from "../../src/approvals/count.js";
import {
  type ApprovalsContext,
  type ApprovalsMoment,
  approvalsGranted,
  approvalsMissing,
} from "../../src/approvals/diagnostics.js";
import { reviewApprovals } from "../../src/approvals/github.js";
import { approvalsDirectory, SIGNATURE_SUFFIX, signedMessage } from "../../src/approvals/payload.js";
import { planSha256 } from "../../src/approvals/plan-hash.js";
import { actionsNeedingApproval, needsApproval } from "../../src/approvals/scope.js";
import { type SignatureCheck, signedApprovals } from "../../src/approvals/signed.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { Action, Plan } from "../../src/plan/types.js";
import type { ApprovalsRule } from "../../src/policy/approvals-rule.js";
import { errnoCode } from "../adapters/files.js";
import { inGithubActions } from "../adapters/github-event.js";
import { githubPlace, type Pause, readPullRequest } from "../adapters/github-reviews.js";
import { checkSignatureFile, type FilePlace } from "../adapters/ssh-signatures.js";
import type { Io } from "../output/io.js";

/** What the check needs. */
export interface ApprovalsInput {
  /** The saved plan as given, its text as read, and the document it holds. */
  readonly planFile: string;
  readonly text: string;
  readonly reviewed: Plan;
  /** The plan made again now: its policy and actions are what will run. */
  readonly fresh: Plan;
  /** `--pull-request`. */
  readonly pullRequest?: number;
  /** HTTP for the GitHub API (default: the global fetch). */
  readonly fetch?: typeof fetch;
  /** The wait between two attempts of a GitHub read (default: a real timer). */
  readonly pause?: Pause;
}

/** Enough approvals (with the line to print, when any were needed), or why nothing may be sent. */
export type ApprovalsOutcome =
  | { readonly ok: true; readonly note?: string }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Most signature files read from one plan's directory. */
const MAX_SIGNATURE_FILES = 200;

export async function checkApprovals(input: ApprovalsInput, io: Io): Promise<ApprovalsOutcome> {
  const rule = input.fresh.policy?.rules.require_approvals;
  const actions = actionsNeedingApproval(input.fresh, rule);
  if (rule === undefined || actions.length === 0) return { ok: true };
  return readApprovals(input, rule, actions, "before-sending", io);
}

/**
 * The gate of apply's loop (src/apply/approvals-gate.ts): the same approvals, read again from the
 * same source for the actions a round is about to send; none without the rule.
 */
export function approvalsGate(input: ApprovalsInput, io: Io): ApprovalsGate | undefined {
  const rule = input.fresh.policy?.rules.require_approvals;
  if (rule === undefined) return undefined;
  return {
    covers: (action) => needsApproval(action, rule),
    read: async (actions) => {
      const read = await readApprovals(input, rule, actions, "while-sending", io);
      const first = read.ok ? undefined : read.diagnostics[0];
      return first === undefined ? null : { code: first.code, message: first.message };
    },
  };
}

/** Reads the approvals of `actions` (non-empty, each covered by `rule`) and counts them. */
async function readApprovals(
  input: ApprovalsInput,
  rule: ApprovalsRule,
  actions: readonly Action[],
  moment: ApprovalsMoment,
  io: Io,
): Promise<ApprovalsOutcome> {
  const hash = planSha256(JSON.parse(input.text));
  const found = inGithubActions(io.env)
    ? await fromGithub(input, io, hash)
    : await fromSignatures(input, io, rule, hash);
  if (!found.ok) return { ok: false, diagnostics: [found.diagnostic] };
  const context: ApprovalsContext = {
    planFile: input.planFile,
    planSha256: hash,
    from: found.from,
    actions,
    wanted: found.wanted,
    hint: found.hint,
    moment,
  };
  const verdict = countApprovals(rule.count, found.found);
  if (!enoughApprovals(verdict)) return { ok: false, diagnostics: [approvalsMissing(verdict, context)] };
  return { ok: true, note: approvalsGranted(verdict, context) };
}

/** What one source found, where, who else could approve, and how to ask. */
type Gathered =
  | {
      readonly ok: true;
      readonly found: ApprovalsFound;
      readonly from: string;
      readonly wanted: readonly string[];
      readonly hint: string;
    }
  | { readonly ok: false; readonly diagnostic: Diagnostic };

async function fromGithub(input: ApprovalsInput, io: Io, hash: string): Promise<Gathered> {
  const place = githubPlace(io.env, input.pullRequest);
  if (!place.ok) return place;
  const read = await readPullRequest(place.value, input.fetch, input.pause);
  if (!read.ok) return read;
  const { pr, reviews, requested } = read.value;
  const found = reviewApprovals(pr, reviews, input.reviewed.commit);
  const approved = new Set(found.evidence.flatMap((e) => (e.kind === "valid" ? [e.by.name] : [])));
  return {
    ok: true,
    found,
    from: `reviews of pull request #${pr.number} of ${place.value.repository}`,
    wanted: requested.filter((r) => !approved.has(r)),
    hint: `ask people other than @${pr.author.login} to approve pull request #${pr.number} at its head commit ${pr.headSha.slice(0, 12)} (the commit the plan ${hash.slice(0, 12)} was made from), then run the job again`,
  };
}

async function fromSignatures(
  input: ApprovalsInput,
  io: Io,
  rule: ApprovalsRule,
  hash: string,
): Promise<Gathered> {
  const command = `campaignctl approve ${input.planFile} --key ~/.ssh/id_ed25519`;
  if (rule.allowed_signers === undefined)
    return unavailable(
      "the policy's require_approvals names no allowed_signers file, so no signed approval can count (outside GitHub Actions approvals are signed files)",
      "add `allowed_signers: <file>` to require_approvals in the policy (docs/policy.md#require_approvals)",
    );
  const allowed: FilePlace = { path: resolve(io.cwd, rule.allowed_signers), shown: rule.allowed_signers };
  let allowedText: string;
  try {
    allowedText = await readFile(allowed.path, "utf8");
  } catch (error) {
    return unavailable(
      `the allowed signers file ${allowed.shown} that the policy names cannot be read (${errnoCode(error)})`,
      "restore it (it lists the people whose approvals count), or fix allowed_signers in the policy",
    );
  }
  const dir = approvalsDirectory(resolve(io.cwd, input.planFile), hash);
  const shownDir = relative(io.cwd, dir) || ".";
  const names = await signatureFiles(dir);
  if (!names.ok)
    return unavailable(
      `the approvals directory ${shownDir}/ cannot be read (${names.code})`,
      "make it readable, then apply again",
    );
  const checks: SignatureCheck[] = [];
  for (const name of names.files) {
    const checked = await checkSignatureFile(
      { path: join(dir, name), shown: name },
      allowed,
      signedMessage(hash),
    );
    if (checked.kind === "missing") return unavailable(checked.message, "then apply again");
    checks.push(checked);
  }
  const found = signedApprovals(checks);
  const known = new Set(checks.flatMap((c) => (c.kind === "verified" ? c.principals : [])));
  return {
    ok: true,
    found,
    from: `signature files in ${shownDir}/`,
    wanted: allowedPrincipals(allowedText).filter((p) => !known.has(p)),
    hint: `each approver runs \`${command}\` where the plan is (the plan's author signs it once with \`--author\`) and the signature files go to ${shownDir}/`,
  };
}

function unavailable(message: string, hint: string): Gathered {
  return { ok: false, diagnostic: { severity: "error", code: "apply.approvals-unavailable", message, hint } };
}

/** The `*.sig` files of the directory (regular files, not links), sorted; none when it does not exist. */
async function signatureFiles(
  dir: string,
): Promise<
  { readonly ok: true; readonly files: readonly string[] } | { readonly ok: false; readonly code: string }
> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    const files = entries
      .filter((e) => e.isFile() && e.name.endsWith(SIGNATURE_SUFFIX))
      .map((e) => e.name)
      .sort()
      .slice(0, MAX_SIGNATURE_FILES);
    return { ok: true, files };
  } catch (error) {
    const code = errnoCode(error);
    return code === "ENOENT" ? { ok: true, files: [] } : { ok: false, code };
  }
}

/** The actions that need approvals in a plan under its own policy (for the messages of `approve`). */
export function approvalActions(plan: Plan): readonly Action[] {
  return actionsNeedingApproval(plan, plan.policy?.rules.require_approvals);
}
