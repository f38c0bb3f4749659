/** Diagnostic codes of the `approve` area (`campaignctl approve`). Each entry: a stable code and what it means. */
export const APPROVE_CODES = {
  "approve.no-allowed-signers":
    "the policy in force names no allowed_signers file under require_approvals, so a signed approval could not count; nothing is written",
  "approve.sign-failed":
    "ssh-keygen -Y sign could not sign with the key given (no such key, a wrong passphrase, no agent, or no ssh-keygen); nothing is written",
  "approve.not-allowed-signer":
    "the signature made does not verify against the policy's allowed signers file (the key is not listed there, or not for this namespace); nothing is written",
} as const;

export type ApproveCode = keyof typeof APPROVE_CODES;
