/**
 * The email part of `watch` (IO): on every poll, the email campaigns the files describe are read
 * (one GET /email/campaigns a poll) and their guards judged (src/email/figures.ts). The API cannot
 * pause an email campaign, so a tripped guard is an alert (`email.guard-tripped`, an error naming
 * the dashboard step), emitted once per campaign and run; other notes once per run. The campaigns
 * still sending (`emailStillSending`) keep `watch --until-done` polling; when a poll cannot read
 * them, the last count read stands (a failed read does not end the watch of a campaign seen sending),
 * and before any read succeeded every campaign the files describe counts as sending: not known yet
 * is not "nothing sends" (a first read that failed ended `--until-done` at once, the guards never
 * judged).
 */
import { emailStillSending } from "../../src/email/figures.js";
import type { EmailCampaignSpec } from "../../src/email/model.js";
import type { AlsoPolled } from "../../src/watch/watch-loop.js";
import type { EmailReader } from "./plan-email.js";
import { statusEmail } from "./status-email.js";

/** The per-poll check, or undefined when the files describe no email campaign. */
export function emailWatch(
  specs: readonly EmailCampaignSpec[],
  client: EmailReader,
): (() => Promise<AlsoPolled>) | undefined {
  if (specs.length === 0) return undefined;
  const said = new Set<string>();
  // Null until a read succeeds: then every campaign of the files counts as sending.
  let sending: number | null = null;
  return async () => {
    const status = await statusEmail(specs, client);
    const diagnostics = [];
    for (const d of status?.diagnostics ?? []) {
      const key = `${d.code} ${d.range?.file ?? ""}:${d.range?.start.offset ?? -1}`;
      if (said.has(key)) continue;
      said.add(key);
      diagnostics.push(d);
    }
    if (status?.read !== "failed")
      sending = (status?.campaigns ?? []).filter((c) => emailStillSending(c.status)).length;
    return { diagnostics, sending: sending ?? specs.length };
  };
}
