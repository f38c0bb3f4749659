/**
 * The email part of `status --format csv` (docs/email.md "After the send"): when the files describe
 * email campaigns, the header gains the email columns (after the texting ones, which keep their
 * places) and each email campaign is a row with `level` = `email_campaign`. Shared meanings share
 * a column: `address`, `name`, `status`, `sent`, `delivered`, `failed` and `delivery_rate`
 * (delivered / sent) are the same concept for a text or an email; the rest are email's own
 * (`email_campaign_id`, `queued`, `bounced`, `complained`, `unsubscribed`, `opened`, `clicked`,
 * their rates, `guard_tripped`). Texting rows leave the email columns empty, and an email row the
 * texting-only ones. Files without email campaigns print the texting CSV unchanged. Pure.
 */
import type { EmailCampaignFigures } from "../email/figures.js";

export const EMAIL_STATUS_CSV_COLUMNS = [
  "email_campaign_id",
  "queued",
  "bounced",
  "complained",
  "unsubscribed",
  "opened",
  "clicked",
  "bounce_rate",
  "complaint_rate",
  "unsubscribe_rate",
  "open_rate",
  "click_rate",
  "guard_tripped",
] as const;

type Field = string | number | null;

/** A rate already rounded half up to 4 decimals (src/email/figures.ts), written with 4 places. */
const rate = (r: number | null): string | null => (r === null ? null : r.toFixed(4));

/**
 * An email campaign's row, as values by column name: the shared columns of the texting header and
 * the email columns. `text` defuses user text for spreadsheets.
 */
export function emailCsvRow(
  c: EmailCampaignFigures,
  text: (value: string | null) => string | null,
): ReadonlyMap<string, Field> {
  const k = c.counts;
  return new Map<string, Field>([
    ["level", "email_campaign"],
    ["address", c.address],
    ["name", text(c.name)],
    ["status", c.status],
    ["sent", k.sent],
    ["delivered", k.delivered],
    ["failed", k.failed],
    ["delivery_rate", rate(c.rates.delivery)],
    ["email_campaign_id", c.id],
    ["queued", k.queued],
    ["bounced", k.bounced],
    ["complained", k.complained],
    ["unsubscribed", k.unsubscribed],
    ["opened", k.opened],
    ["clicked", k.clicked],
    ["bounce_rate", rate(c.rates.bounce)],
    ["complaint_rate", rate(c.rates.complaint)],
    ["unsubscribe_rate", rate(c.rates.unsubscribe)],
    ["open_rate", rate(c.rates.open)],
    ["click_rate", rate(c.rates.click)],
    ["guard_tripped", c.tripped.map((t) => t.rate).join(" ")],
  ]);
}
