/**
 * Approvals from signature files (issue 37 point 6): each file of `approvals/<plan hash>/` checked
 * by `ssh-keygen -Y verify` against the policy's allowed-signers file (cli/adapters/ssh-signatures.ts)
 * becomes evidence here. The plan's author is whoever signed it as its author (namespace
 * `campaignctl-plan-author`): a plan nobody signed as author has no known author, and no approval of
 * it counts, so its maker cannot approve it by leaving authorship blank. A person is their principals
 * and their key: one key listed under two principals, or two keys of one principal, is one person.
 * Pure.
 */
import type { ApprovalEvidence, ApprovalsFound, Person } from "./count.js";
import type { SignatureRole } from "./payload.js";

/**
 * What checking one signature file found. Invariants: `verified` means `ssh-keygen -Y verify`
 * accepted it for the plan's message, its namespace (`role`) and each of `principals` (non-empty,
 * from the allowed-signers file); `rejected` says why not, `role` when its namespace told it.
 */
export type SignatureCheck =
  | {
      readonly kind: "verified";
      readonly file: string;
      readonly role: SignatureRole;
      readonly principals: readonly string[];
      readonly fingerprint: string;
    }
  | {
      readonly kind: "rejected";
      readonly file: string;
      readonly role?: SignatureRole;
      readonly who: string;
      readonly why: string;
    };

export function signerPerson(principals: readonly string[], fingerprint: string): Person {
  return {
    name: principals.join(", "),
    ids: [...principals.map((p) => `principal:${p}`), `key:${fingerprint}`],
  };
}

/** The evidence of the approvers' files, and the author from the author's. */
export function signedApprovals(checks: readonly SignatureCheck[]): ApprovalsFound {
  const authors: Person[] = [];
  const evidence: ApprovalEvidence[] = [];
  for (const check of checks) {
    if (check.kind === "rejected") {
      const why =
        check.role === "author" ? `an author's signature that does not count: ${check.why}` : check.why;
      evidence.push({ kind: "invalid", who: check.who, where: check.file, why });
      continue;
    }
    const person = signerPerson(check.principals, check.fingerprint);
    if (check.role === "author") authors.push(person);
    else evidence.push({ kind: "valid", by: person, where: check.file });
  }
  const problems =
    authors.length === 0
      ? [
          "nobody has signed the saved plan as its author, so its author's own approvals could not be told apart",
        ]
      : [];
  return { evidence, authors, problems };
}
