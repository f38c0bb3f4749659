/**
 * An email campaign's live figures after the send: its counts and rates (delivery and bounce over
 * sent; complaint, unsubscribe, open and click over delivered), and its guard judged on them. The
 * API cannot pause an email campaign, so a tripped guard is an alert naming the dashboard step.
 * Rates are exact fractions rounded half up to 4 decimals (src/text/fraction.ts). Pure.
 */
import type { EmailCampaign } from "../contract/resources.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { fraction, rounded } from "../text/fraction.js";
import { type EmailCampaignSpec, emailCampaignRange } from "./model.js";

export type EmailRateName = "delivery" | "bounce" | "complaint" | "unsubscribe" | "open" | "click";

/** One email campaign's figures. Invariant: a rate is null when its denominator is 0. */
export interface EmailCampaignFigures {
  readonly address: string;
  readonly id: string;
  readonly name: string;
  readonly status: string;
  readonly counts: EmailCampaign["counts"];
  readonly rates: Readonly<Record<EmailRateName, number | null>>;
  /** The guard's rates over their limit (empty: none, or below the guard's minimum sample). */
  readonly tripped: readonly {
    readonly rate: EmailRateName;
    readonly value: number;
    readonly limit: number;
  }[];
}

export function emailFigures(spec: EmailCampaignSpec, c: EmailCampaign): EmailCampaignFigures {
  const k = c.counts;
  const r = (n: number, d: number): number | null => {
    const f = fraction(n, d);
    return f === null ? null : rounded(f, 4);
  };
  const rates = {
    delivery: r(k.delivered, k.sent),
    bounce: r(k.bounced, k.sent),
    complaint: r(k.complained, k.delivered),
    unsubscribe: r(k.unsubscribed, k.delivered),
    open: r(k.opened, k.delivered),
    click: r(k.clicked, k.delivered),
  };
  const tripped: { rate: EmailRateName; value: number; limit: number }[] = [];
  const g = spec.guard;
  if (g !== undefined && k.sent >= g.minSample) {
    const over = (rate: EmailRateName, exact: number | null, limit: number | undefined): void => {
      if (limit !== undefined && exact !== null && exact > limit)
        tripped.push({ rate, value: rates[rate] ?? exact, limit });
    };
    const exact = (n: number, d: number): number | null => (d > 0 ? n / d : null);
    over("bounce", exact(k.bounced, k.sent), g.maxBounceRate);
    over("complaint", exact(k.complained, k.delivered), g.maxComplaintRate);
    over("unsubscribe", exact(k.unsubscribed, k.delivered), g.maxUnsubscribeRate);
  }
  return { address: spec.address, id: c.id, name: c.name, status: c.status, counts: k, rates, tripped };
}

/**
 * Whether an email campaign is still sending: scheduled, compiling or sending (it will complete;
 * a draft, a paused or a completed one will not without a person). `watch --until-done` polls
 * while one is, and a tripped guard of one names the dashboard's Pause.
 */
export function emailStillSending(status: string): boolean {
  return status === "sending" || status === "scheduled" || status === "compiling";
}

/** The alert of a tripped guard: the API cannot pause, so it names the dashboard step. */
export function guardAlert(spec: EmailCampaignSpec, f: EmailCampaignFigures): Diagnostic | undefined {
  if (f.tripped.length === 0) return undefined;
  const what = f.tripped.map((t) => `${t.rate} rate ${t.value} over ${t.limit}`).join(", ");
  const stoppable = emailStillSending(f.status);
  return {
    severity: "error",
    code: "email.guard-tripped",
    message: `email campaign ${spec.address} (${f.id} "${f.name}", ${f.status}): ${what}`,
    range: emailCampaignRange(spec, "guard"),
    hint: stoppable
      ? `pause it in the dashboard now (Email > Campaigns > "${f.name}" > Pause): the API cannot pause email campaigns`
      : "it is no longer sending; review the list before the next send",
  };
}
