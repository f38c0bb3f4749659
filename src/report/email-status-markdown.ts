/**
 * The email part of `status --markdown` (docs/email.md "After the send"): an `### Email campaigns`
 * table, one row per email campaign the files describe, with its counts and rates (delivery and
 * bounce over sent; complaint, unsubscribe, open and click over delivered) as percentages with one
 * decimal, and `GUARD TRIPPED` naming the rates over their limit. User text is escaped. Pure.
 */
import type { EmailCampaignFigures } from "../email/figures.js";
import { codeSpan, escapeMarkdown } from "./markdown-escape.js";
import { countCell, groupThousands, NO_RATE } from "./status-cells.js";

const HEADER =
  "| Email campaign | Status | Sent | Delivered | Bounced | Complaints | Unsubscribed | Opened | Clicked | Delivery | Bounce | Complaint | Unsubscribe | Open | Click | Guard |";
const ALIGN =
  "| --- | --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --- |";

/**
 * A rate given to 4 decimals (src/email/figures.ts) as a percentage with one decimal, rounded half
 * up in integers (0.0105 -> 1.1%, as the terminal view shows it), `-` without a rate.
 */
function percent(r: number | null): string {
  if (r === null) return NO_RATE;
  const tenths = Math.floor((Math.round(r * 10_000) + 5) / 10);
  return `${groupThousands(Math.floor(tenths / 10))}.${tenths % 10}%`;
}

/**
 * The section, or "" when the files describe no email campaign (`undefined`). Empty campaigns
 * (early access, not found): the heading and a sentence; the diagnostics say why.
 */
export function renderEmailStatusMarkdown(campaigns: readonly EmailCampaignFigures[] | undefined): string {
  if (campaigns === undefined) return "";
  const out = ["", "### Email campaigns", ""];
  if (campaigns.length === 0) {
    out.push("No email campaign's figures could be read (see the notes below).");
    return out.join("\n");
  }
  out.push(HEADER, ALIGN);
  for (const c of campaigns) {
    const k = c.counts;
    const cells = [
      `${codeSpan(c.address, true)} (${escapeMarkdown(c.name)})`,
      escapeMarkdown(c.status),
      countCell(k.sent),
      countCell(k.delivered),
      countCell(k.bounced),
      countCell(k.complained),
      countCell(k.unsubscribed),
      countCell(k.opened),
      countCell(k.clicked),
      percent(c.rates.delivery),
      percent(c.rates.bounce),
      percent(c.rates.complaint),
      percent(c.rates.unsubscribe),
      percent(c.rates.open),
      percent(c.rates.click),
      c.tripped.length === 0
        ? "ok"
        : `**GUARD TRIPPED**: ${c.tripped.map((t) => `${t.rate} ${percent(t.value)} > ${percent(t.limit)}`).join(", ")}`,
    ];
    out.push(`| ${cells.join(" | ")} |`);
  }
  out.push(
    "",
    "Email: delivery and bounce over sent; complaint, unsubscribe, open and click over delivered. The API cannot pause an email campaign: a tripped guard names the dashboard step below.",
  );
  return out.join("\n");
}
