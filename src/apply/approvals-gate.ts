/**
 * Approvals read again in the round that sends what needs them (`apply PLANFILE` under the
 * policy's `require_approvals`). The saved plan's approvals are counted before anything is sent
 * (the CLI's check); but a run that waits (`--wait-for-approval`) may send a schedule an hour later,
 * and an approval may be withdrawn meanwhile (a request for changes, a signer's line removed, a
 * signature file deleted). So each round, just before it sends actions the rule covers, the loop
 * asks the gate to read the approvals again (IO: the CLI's, passed in), and a round's schedule rests
 * on approvals read in that round. Not enough, or unreadable: those actions are not sent, each ends
 * failed with the gate's finding (`apply.approvals-missing`, `apply.approvals-unavailable`), and
 * what depends on them is skipped; the rest of the round goes on (`passApprovals`, loop-round.ts).
 */
import type { Action } from "../plan/types.js";
import type { Refusal } from "./perform.js";

/**
 * The approvals of the plan being applied, as the loop sees them. Invariant: `read` is given only
 * actions `covers` accepts, at least one.
 */
export interface ApprovalsGate {
  /** Does sending `action` need the approvals (the rule in force covers it)? */
  readonly covers: (action: Action) => boolean;
  /** Reads the approvals now, for `actions`: null when they are enough, else why they hold them. */
  readonly read: (actions: readonly Action[]) => Promise<Refusal | null>;
}
