/**
 * What an approver signs, and where the signature lives (issue 37 point 6). The signed message is
 * one line naming the plan hash; the SSH signature namespace (`ssh-keygen -Y sign -n`) says the
 * signer's role, so an author's signature can never pass for an approval, nor a git commit signature
 * (namespace `git`) for either. A signature is the armored output of `ssh-keygen -Y sign` as it is,
 * so it can be made by hand:
 *
 *   printf 'campaignctl-plan sha256:%s\n' HASH | ssh-keygen -Y sign -f KEY -n campaignctl-approval
 *
 * Files: `approvals/<plan hash>/<principal>.sig` beside the saved plan (an author's:
 * `<principal>.author.sig`); the name is for people, the role and the signer come from the signature.
 * Pure.
 */
import { dirname, join } from "node:path";

/** Who a signature is by, for the plan: its author, or an approver. */
export type SignatureRole = "approver" | "author";

/** The namespace of an approval. */
export const APPROVAL_NAMESPACE = "campaignctl-approval";
/** The namespace of the plan author's signature. */
export const AUTHOR_NAMESPACE = "campaignctl-plan-author";

export function namespaceOf(role: SignatureRole): string {
  switch (role) {
    case "approver":
      return APPROVAL_NAMESPACE;
    case "author":
      return AUTHOR_NAMESPACE;
  }
}

/** The role a namespace signs for; null for any other namespace (a git commit's, another tool's). */
export function roleOfNamespace(namespace: string): SignatureRole | null {
  if (namespace === APPROVAL_NAMESPACE) return "approver";
  if (namespace === AUTHOR_NAMESPACE) return "author";
  return null;
}

/** The message signed for the plan whose hash is `planSha256` (64 lower-case hex digits). */
export function signedMessage(planSha256: string): string {
  return `campaignctl-plan sha256:${planSha256}\n`;
}

/** The directory of a saved plan's signatures: `approvals/<hash>/` beside the plan file. */
export function approvalsDirectory(planFile: string, planSha256: string): string {
  return join(dirname(planFile), "approvals", planSha256);
}

/** The suffix of every signature file read from that directory. */
export const SIGNATURE_SUFFIX = ".sig";

/**
 * The file name of `principal`'s signature: characters outside letters, digits and `._@+-` become
 * `_`, a leading dot too (no hidden file, no path), and an author's ends `.author.sig`.
 */
export function signatureFileName(principal: string, role: SignatureRole): string {
  const safe = principal.replace(/[^A-Za-z0-9._@+-]/g, "_").replace(/^\./, "_") || "_";
  return `${safe}${role === "author" ? ".author" : ""}${SIGNATURE_SUFFIX}`;
}
