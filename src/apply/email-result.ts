/**
 * The email part of an apply result (issue 33: one result, one summary): the email plan the run
 * rested on and each list's sync, counted in the summary, and judged with the rest of the run. Pure.
 */
import { type EmailApplyResult, emailApplySucceeded } from "../plan/items.js";
import type { ApplyResult, EmailListCounts } from "./types.js";

/** The result with its email part: `email` set and `summary.email_lists` counted. */
export function withEmail(result: ApplyResult, email: EmailApplyResult): ApplyResult {
  return { ...result, email, summary: { ...result.summary, email_lists: countLists(email) } };
}

/** The plan's email lists by how the run ended them (a list the run did not sync is `not_sent`). */
export function countLists(email: EmailApplyResult): EmailListCounts {
  const synced = email.lists.filter((l) => l.state === "synced").length;
  const skipped = email.lists.filter((l) => l.state === "skipped").length;
  const failed = email.lists.filter((l) => l.state === "failed").length;
  return { synced, skipped, failed, not_sent: email.plan.lists.length - synced - skipped - failed };
}

/**
 * Whether the run's email part went through (docs/email.md "Exit codes"): no list failed, no row
 * refused or rejected, no error in the email plan; lists skipped for early access alone succeed.
 * A run without email succeeds here.
 */
export function emailSucceeded(result: ApplyResult): boolean {
  return result.email === undefined || emailApplySucceeded(result.email);
}
