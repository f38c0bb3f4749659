/**
 * The plan's items beside the projects' actions (issue 33): email list syncs, email campaign checks
 * and reply rule sets, each with its organization, a verdict and a reason; the counts of items by
 * verdict; and apply's email result. What email knows of a list alone (its CSV checked, its sync)
 * is email's (src/email/list-results.ts): the items carry it with a verdict. Data only: the judge
 * makes the items (email-items.ts, reply-items.ts), the views render them, `apply` syncs the
 * planned lists. Field names are the JSON names (schemas/email.schema.json, schemas/plan.schema.json).
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ListCheck, ListSyncResult } from "../email/list-results.js";
import type { EmailCampaignCheck } from "./email-campaign.js";

/**
 * What an item comes to. `planned`: apply acts on it (an email list's rows to upsert). `ready`:
 * nothing for apply to do and nothing in the way (a list with no row to send, a campaign checked
 * clean, reply rules `replies run` answers with). `blocked`: a person must act first (an error
 * finding: an unreadable CSV, drift, a blocker). `skipped`: email is not available to the key's
 * organization yet (403 EMAIL_EARLY_ACCESS): nothing to do in the files.
 */
export type ItemVerdict = "planned" | "ready" | "blocked" | "skipped";

/** Items of one kind by verdict. Invariant: the four add up to the items of that kind. */
export interface ItemCounts {
  readonly planned: number;
  readonly ready: number;
  readonly blocked: number;
  readonly skipped: number;
}

/** `sync`: rows will be upserted; `nothing`: no row to send; `skipped`: early access; `unreadable`. */
export type EmailListState = "sync" | "nothing" | "skipped" | "unreadable";

/**
 * One email list of the plan. Invariants: `verdict` is `planned` iff `state` is `sync`, `skipped`
 * iff `skipped`, `blocked` iff `unreadable`, else `ready` (rows refused by validation are error
 * findings of a list still synced: the plan is blocked by them, the valid rows still go);
 * `reason` is for display only and never drives behaviour.
 */
export interface EmailListItem extends ListCheck {
  readonly state: EmailListState;
  /**
   * The CSV's sha256 (hex) as read for this plan; null when it could not be read. A saved plan also
   * lists it among its `files` (kind `csv`): `apply PLANFILE` refuses the plan when the bytes differ.
   */
  readonly sha256: string | null;
  /** The organization of the list's file (`organization:`), as written; null when it names none. */
  readonly organization: string | null;
  readonly verdict: ItemVerdict;
  readonly reason: string;
}

/**
 * One email campaign of the plan, judged (email-campaign.ts). Invariant: `verdict` is `skipped` iff
 * `state` is `skipped`, else `blocked` iff it has an error finding, else `ready` (dashboard steps
 * are info: the API cannot take them, and they block nothing).
 */
export interface EmailCampaignItem extends EmailCampaignCheck {
  readonly organization: string | null;
  readonly verdict: ItemVerdict;
  readonly reason: string;
}

/**
 * The email part of a plan. Invariant: `available` is false when the key's organizations have no
 * email at all (every item is then skipped), true when GET /email/campaigns answered, null when it
 * could not be read or was not read (no email campaign in the run).
 */
export interface PlanEmail {
  readonly available: boolean | null;
  readonly lists: readonly EmailListItem[];
  readonly campaigns: readonly EmailCampaignItem[];
  /** Problems of the email reads (not tied to one list or campaign). */
  readonly diagnostics: readonly Diagnostic[];
}

/** One reply rule as the plan shows it. */
export interface ReplyRuleItem {
  readonly name: string;
  /** How it matches: keywords (with their languages) or a pattern. */
  readonly match: "keywords" | "pattern";
  readonly languages: readonly string[];
  readonly max_per_conversation: number;
}

/**
 * The reply rules of one covered project, which `replies run` answers its inbounds with. Invariant:
 * `verdict` is `ready` (rules that do not validate stop the plan before it is judged); apply sends
 * nothing for them. `numbers` are the project's E.164 numbers, which map a webhook event to it.
 */
export interface ReplyRuleSetItem {
  readonly address: string;
  readonly project_id: string;
  readonly file: string;
  readonly organization: string | null;
  readonly rules: readonly ReplyRuleItem[];
  readonly max_per_conversation_per_day: number;
  readonly numbers: readonly string[];
  readonly verdict: ItemVerdict;
  readonly reason: string;
}

/** Every finding of the email part, reads first, then lists, then campaigns. */
export function planEmailDiagnostics(email: PlanEmail): Diagnostic[] {
  return [
    ...email.diagnostics,
    ...email.lists.flatMap((l) => l.diagnostics),
    ...email.campaigns.flatMap((c) => c.diagnostics),
  ];
}

/** The items' counts by verdict. */
export function countItems(items: readonly { readonly verdict: ItemVerdict }[]): ItemCounts {
  const counts = { planned: 0, ready: 0, blocked: 0, skipped: 0 };
  for (const item of items) counts[item.verdict] += 1;
  return counts;
}

/**
 * The email part of an apply result: the email plan it rests on, each list's sync, and the per-row
 * result files written, by list address (paths relative to the working directory). `lists` is
 * empty when nothing was approved to send.
 */
export interface EmailApplyResult {
  readonly plan: PlanEmail;
  readonly lists: readonly ListSyncResult[];
  readonly results_files: Readonly<Record<string, string>>;
}

/** Whether apply's email part went through: no list failed, no row refused or rejected, no error. */
export function emailApplySucceeded(result: EmailApplyResult): boolean {
  return (
    !planEmailDiagnostics(result.plan).some((d) => d.severity === "error") &&
    result.lists.every((l) => l.state !== "failed" && l.refused === 0 && l.rejected === 0 && l.unknown === 0)
  );
}
