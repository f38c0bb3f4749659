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
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
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
import { parsePlanDocument } from "../../src/report/plan-schema.js";
import { checkSignatureFile, signMessage } from "../adapters/ssh-signatures.js";
import { approvalActions } from "../approvals-check.js";
import { failWith, type JsonFailure } from "../fail.js";
import { errnoCode, saveFile } from "../files.js";
import type { Io } from "../io.js";
import { failure, type Outcome, success } from "../outcome.js";
import { loadPolicy } from "../policy-file.js";

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
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, planFile), "utf8");
  } catch (error) {
    return fail([
      {
        severity: "error",
        code: "apply.plan-unreadable",
        message: `cannot read ${planFile} (${errnoCode(error)})`,
        hint: "pass the file `campaignctl plan --out FILE` wrote",
      },
    ]);
  }
  const parsed = parsePlanDocument(text, { file: planFile });
  if (!parsed.ok) return fail(parsed.diagnostics);
  const plan = parsed.plan;
  const hash = planSha256(JSON.parse(text));
  const role: SignatureRole = flags.author === true ? "author" : "approver";
  // The policy of the plan's files, found as apply finds it: it names the allowed signers.
  const campaignFiles = plan.files.filter((f) => f.kind === "campaign").map((f) => f.path);
  const policy = loadPolicy(
    { ...(flags.policy === undefined ? {} : { policy: flags.policy }) },
    campaignFiles,
    io.cwd,
  );
  if (!policy.ok) return fail(policy.diagnostics);
  const allowedSigners = policy.policy?.rules.require_approvals?.allowed_signers;
  if (allowedSigners === undefined)
    return fail([
      {
        severity: "error",
        code: "approve.no-allowed-signers",
        message: `the policy in force for ${planFile}'s files names no allowed_signers file under require_approvals, so a signed approval of it could not count`,
        hint: "add `require_approvals: {count: N, allowed_signers: <file>}` to the policy (docs/policy.md#require_approvals), or approve the pull request in GitHub",
      },
    ]);
  io.stderr(describePlan(plan, planFile, hash, role));

  const message = signedMessage(hash);
  const signed = await signMessage(resolve(io.cwd, flags.key), namespaceOf(role), message);
  if (!signed.ok)
    return fail([
      {
        severity: "error",
        code: "approve.sign-failed",
        message: `${flags.key}: ${signed.message}`,
        hint: "pass --key with your SSH private key (or its .pub with the key in ssh-agent)",
      },
    ]);
  const checked = await checkStaged(
    signed.signature,
    { path: resolve(io.cwd, allowedSigners), shown: allowedSigners },
    message,
  );
  if (checked.kind !== "verified")
    return fail([
      {
        severity: "error",
        code: checked.kind === "missing" ? "approve.sign-failed" : "approve.not-allowed-signer",
        message:
          checked.kind === "missing"
            ? checked.message
            : `the signature with ${flags.key} would not count: ${checked.why}`,
        hint: `ask whoever keeps ${allowedSigners} to add your public key (a line: your principal, then the .pub file's key), then approve again`,
      },
    ]);
  const dir = approvalsDirectory(resolve(io.cwd, planFile), hash);
  const file = relative(io.cwd, join(dir, signatureFileName(checked.principals[0] ?? "_", role)));
  const written = await saveFile(
    io,
    file,
    signed.signature,
    role === "author" ? "author's signature" : "approval",
  );
  if (written.length > 0) return fail(written);
  const document = {
    format_version: APPROVAL_FORMAT_VERSION,
    plan: planFile,
    plan_sha256: hash,
    role,
    namespace: namespaceOf(role),
    message,
    principals: checked.principals,
    key_fingerprint: checked.fingerprint,
    allowed_signers: allowedSigners,
    signature_file: file,
    needs_approval: approvalActions(plan).map((a) => a.id),
  };
  io.stdout(
    flags.json === true
      ? `${JSON.stringify(document, null, 2)}\n`
      : `Signed ${planFile} (${shortHash(hash)}) as ${role === "author" ? "its author" : "an approver"}: ${checked.principals.join(", ")} (key ${checked.fingerprint}), verified against ${allowedSigners}.\n  ${file}\n`,
  );
  return written.length === 0 ? success : failure;
}

/** Checks the signature as apply will, from a private temporary file, before it is written anywhere. */
async function checkStaged(
  signature: string,
  allowed: { readonly path: string; readonly shown: string },
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
