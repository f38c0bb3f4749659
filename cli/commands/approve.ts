/**
 * `campaignctl approve PLANFILE --key KEY [--author]`: signs a saved plan for the policy's
 * `require_approvals` (issue 37 point 6). The message signed names the plan's hash (the sha256 of
 * its canonical JSON, src/approvals/plan-hash.ts); the real `ssh-keygen -Y sign` signs it with the
 * key (a private key file, or a `.pub` file whose key is in the agent); the signature is then
 * verified as `apply` will verify it (`ssh-keygen -Y find-principals` and `-Y verify` against the
 * policy's allowed signers file), and only a signature that would count is written, to
 * `approvals/<hash>/<principal>.sig` beside the plan (`--author`: the plan author's signature,
 * `<principal>.author.sig`). No request is made; the plan's files are read to find its policy.
 * Registered in `../register/approve.ts`.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import {
  approvalsDirectory,
  namespaceOf,
  type SignatureRole,
  signatureFileName,
  signedMessage,
} from "../../src/approvals/payload.js";
import { planSha256, shortHash } from "../../src/approvals/plan-hash.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { Plan } from "../../src/plan/types.js";
import { saveFile } from "../adapters/files.js";
import { loadPolicy } from "../adapters/policy-file.js";
import { readSavedPlan } from "../adapters/saved-plan.js";
import { checkSignatureFile, type FilePlace, signMessage } from "../adapters/ssh-signatures.js";
import { approvalActions } from "../gather/approvals-check.js";
import { failWith, type JsonFailure } from "../output/fail.js";
import type { Io } from "../output/io.js";
import { type Outcome, success } from "../output/outcome.js";

/** The flags of `approve`, as commander parses them. */
export interface ApproveFlags {
  /** `--key`: the private key (or its `.pub`, with the key in ssh-agent). */
  readonly key: string;
  /** `--author`: sign as the plan's author. */
  readonly author?: boolean;
  /** `--policy FILE`: one more policy on top of those found, as for apply. */
  readonly policy?: string;
  readonly json?: boolean;
}

/** The version of the `--json` document (schemas/approval.schema.json). */
const APPROVAL_FORMAT_VERSION = 1;

export async function approveCommand(planFile: string, flags: ApproveFlags, io: Io): Promise<Outcome> {
  const json: JsonFailure = { json: flags.json === true, formatVersion: APPROVAL_FORMAT_VERSION };
  const fail = (diagnostics: readonly Diagnostic[]) => failWith(diagnostics, new Map(), io, json);
  const loaded = await loadSavedPlan(planFile, io);
  if (!loaded.ok) return fail(loaded.diagnostics);
  const { plan, hash } = loaded;
  const role: SignatureRole = flags.author === true ? "author" : "approver";
  const allowedSigners = allowedSignersOf(plan, planFile, flags, io);
  if (!allowedSigners.ok) return fail(allowedSigners.diagnostics);
  const allowed = { path: resolve(io.cwd, allowedSigners.file), shown: allowedSigners.file };
  io.stderr(describePlan(plan, planFile, hash, role));
  const signed = await signAndCheck(flags.key, role, hash, allowed, io);
  if (!signed.ok) return fail(signed.diagnostics);
  const dir = approvalsDirectory(resolve(io.cwd, planFile), hash);
  const file = relative(io.cwd, join(dir, signatureFileName(signed.principals[0] ?? "_", role)));
  const what = role === "author" ? "author's signature" : "approval";
  const written = await saveFile(io, file, signed.signature, what);
  if (written.length > 0) return fail(written);
  const document = {
    format_version: APPROVAL_FORMAT_VERSION,
    plan: planFile,
    plan_sha256: hash,
    role,
    namespace: namespaceOf(role),
    message: signedMessage(hash),
    principals: signed.principals,
    key_fingerprint: signed.fingerprint,
    allowed_signers: allowed.shown,
    signature_file: file,
    needs_approval: approvalActions(plan).map((a) => a.id),
  };
  io.stdout(
    flags.json === true
      ? `${JSON.stringify(document, null, 2)}\n`
      : `Signed ${planFile} (${shortHash(hash)}) as ${role === "author" ? "its author" : "an approver"}: ${signed.principals.join(", ")} (key ${signed.fingerprint}), verified against ${allowed.shown}.\n  ${file}\n`,
  );
  return success;
}

type Step<T> =
  | ({ readonly ok: true } & T)
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** The saved plan, read and checked as apply reads it (the one reader), and its hash. */
async function loadSavedPlan(planFile: string, io: Io): Promise<Step<{ plan: Plan; hash: string }>> {
  const read = await readSavedPlan(io.cwd, planFile);
  if (!read.ok) return read;
  return { ok: true, plan: read.plan, hash: planSha256(JSON.parse(read.text)) };
}

/** The allowed signers file of the policy of the plan's files, found as apply finds it. */
function allowedSignersOf(plan: Plan, planFile: string, flags: ApproveFlags, io: Io): Step<{ file: string }> {
  const campaignFiles = plan.files.filter((f) => f.kind === "campaign").map((f) => f.path);
  const policyFlags = flags.policy === undefined ? {} : { policy: flags.policy };
  const policy = loadPolicy(policyFlags, campaignFiles, io.cwd);
  if (!policy.ok) return policy;
  const file = policy.policy?.rules.require_approvals?.allowed_signers;
  if (file !== undefined) return { ok: true, file };
  const none: Diagnostic = {
    severity: "error",
    code: "approve.no-allowed-signers",
    message: `the policy in force for ${planFile}'s files names no allowed_signers file under require_approvals, so a signed approval of it could not count`,
    hint: "add `require_approvals: {count: N, allowed_signers: <file>}` to the policy (docs/policy.md#require_approvals), or approve the pull request in GitHub",
  };
  return { ok: false, diagnostics: [none] };
}

/** Signs the plan's message for `role` with `key`, and checks the signature as apply will. */
async function signAndCheck(
  key: string,
  role: SignatureRole,
  hash: string,
  allowed: FilePlace,
  io: Io,
): Promise<Step<{ signature: string; principals: readonly string[]; fingerprint: string }>> {
  const message = signedMessage(hash);
  const refuse = (
    code: "approve.sign-failed" | "approve.not-allowed-signer",
    text: string,
    hint: string,
  ) => ({
    ok: false as const,
    diagnostics: [{ severity: "error" as const, code, message: text, hint }],
  });
  const signed = await signMessage(resolve(io.cwd, key), namespaceOf(role), message);
  if (!signed.ok)
    return refuse(
      "approve.sign-failed",
      `${key}: ${signed.message}`,
      "pass --key with your SSH private key (or its .pub with the key in ssh-agent)",
    );
  const checked = await checkStaged(signed.signature, allowed, message);
  if (checked.kind === "missing") return refuse("approve.sign-failed", checked.message, "then approve again");
  if (checked.kind === "rejected")
    return refuse(
      "approve.not-allowed-signer",
      `the signature with ${key} would not count: ${checked.why}`,
      `ask whoever keeps ${allowed.shown} to add your public key (a line: your principal, then the .pub file's key), then approve again`,
    );
  return {
    ok: true,
    signature: signed.signature,
    principals: checked.principals,
    fingerprint: checked.fingerprint,
  };
}

/** Checks the signature as apply will, from a private temporary file, before it is written anywhere. */
async function checkStaged(
  signature: string,
  allowed: FilePlace,
  message: string,
): ReturnType<typeof checkSignatureFile> {
  const dir = await mkdtemp(join(tmpdir(), "campaignctl-approve-"));
  try {
    const path = join(dir, "staged.sig");
    await writeFile(path, signature, { mode: 0o600 });
    return await checkSignatureFile({ path, shown: "the new signature" }, allowed, message);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What is being signed, for the person signing it (stderr). */
function describePlan(plan: Plan, planFile: string, hash: string, role: SignatureRole): string {
  const needs = approvalActions(plan);
  const schedules = needs.map((a) => {
    const body = a.request.body as { scheduled_at?: unknown; scheduled_timezone?: unknown };
    return `    ${a.id}: ${String(body.scheduled_at)} ${String(body.scheduled_timezone)}`;
  });
  return [
    `${role === "author" ? "Signing as the author of" : "Approving"} ${planFile} (sha256 ${hash}), made ${plan.created_at} against ${plan.base_url}${plan.commit === undefined ? "" : ` from commit ${plan.commit.slice(0, 12)}`}:`,
    `  ${plan.summary.planned} planned, ${plan.summary.deferred} deferred, ${plan.summary.blocked} blocked action(s) over ${plan.summary.projects} project(s); review its Markdown or \`campaignctl plan\` output before you sign.`,
    ...(needs.length === 0
      ? ["  Nothing in it needs approvals under its policy's require_approvals."]
      : ["  Schedules that need approvals:", ...schedules]),
    "",
  ].join("\n");
}
