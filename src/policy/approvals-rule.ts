/**
 * The policy's `require_approvals` rule (issue 37 point 6, "two people to send"): a saved plan whose
 * schedules (or only those that bypass the daily cap) go out only with N approvals by people other
 * than its author. Judged by `apply PLANFILE` (src/approvals, cli/gather/approvals-check.ts), never by the
 * files alone. This file holds the rule's value, what "tighter" means for it, and its words. Pure.
 */
import { dirname, isAbsolute, join, normalize } from "node:path";

/**
 * Which schedules need approvals: every schedule (`schedules`), or only a schedule that sets
 * `daily_cap_bypass: true` (`daily_cap_bypass`). Tests and pauses never do.
 */
export type ApprovalsScope = "schedules" | "daily_cap_bypass";

/** Narrowest first: a scope that covers more schedules is tighter. */
const SCOPE_RANK: Readonly<Record<ApprovalsScope, number>> = { daily_cap_bypass: 0, schedules: 1 };

/**
 * The rule's value. Invariants (the schema's): `count` is an integer from 1 to 10; `for` absent
 * means `schedules`; `allowed_signers`, when set, is the allowed-signers file (the format of
 * `ssh-keygen -Y verify` and git's `gpg.ssh.allowedSignersFile`) as a path spelled like the policy
 * file that names it: written relative to that file, it is re-spelled by `parsePolicy` from the run's
 * directory (see {@link resolveAllowedSigners}), as the plan's `policy.files` are. Without it no
 * signed approval can count (GitHub reviews still can).
 */
export interface ApprovalsRule {
  readonly count: number;
  readonly for?: ApprovalsScope;
  readonly allowed_signers?: string;
}

/** The scope in force (`schedules` when the rule does not say). */
export function approvalsScope(rule: ApprovalsRule): ApprovalsScope {
  return rule.for ?? "schedules";
}

/**
 * Is `next` at least as strict as `current`? A larger (or equal) count, a scope that covers at least
 * as much, and the same allowed-signers file or none: naming another file (or one where the farther
 * rule names none) would let other keys approve, which is looser; naming none is tighter (no signed
 * approval counts). Either side absent: absent is no rule, the loosest.
 */
export function approvalsAtLeastAsStrict(
  next: ApprovalsRule | undefined,
  current: ApprovalsRule | undefined,
): boolean {
  if (current === undefined) return true;
  if (next === undefined) return false;
  return (
    next.count >= current.count &&
    SCOPE_RANK[approvalsScope(next)] >= SCOPE_RANK[approvalsScope(current)] &&
    (next.allowed_signers === undefined || next.allowed_signers === current.allowed_signers)
  );
}

/** The rule in words: `2 approvals (schedules; signers examples/allowed_signers)`. */
export function approvalsRuleText(rule: ApprovalsRule | undefined): string {
  if (rule === undefined) return "off";
  const what = approvalsScope(rule) === "schedules" ? "schedules" : "daily cap bypasses";
  const signers =
    rule.allowed_signers === undefined ? "no allowed signers" : `signers ${rule.allowed_signers}`;
  return `${rule.count} approval${rule.count === 1 ? "" : "s"} (${what}; ${signers})`;
}

/**
 * The rule as the run reads it: `allowed_signers`, written relative to the policy file `file`, re-spelled
 * from the run's directory the way `file` is spelled (`examples/campaignctl.policy.yaml` and
 * `allowed_signers` give `examples/allowed_signers`), so that two policy files naming one file agree
 * and a nearer file cannot name another one under the same words. An absolute path stays as it is.
 */
export function resolveAllowedSigners(rule: ApprovalsRule, file: string): ApprovalsRule {
  const written = rule.allowed_signers;
  if (written === undefined || isAbsolute(written)) return rule;
  return { ...rule, allowed_signers: normalize(join(dirname(file), written)) };
}
