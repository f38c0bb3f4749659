/**
 * Deterministic draws of one message's fate: whether it fails (and with which carrier error code),
 * whether the contact replies, when and with what. Each message draws from its own generator seeded
 * by (sandbox seed, project id, recipient phone), so the outcome of a message never depends on the
 * order or timing of anything else. Scripted outcomes (`SimulationSettings.outcomes`) win; a
 * project's own failure rate (`project_failure_rates`) replaces `failure_rate` for its messages, and
 * so do its reply rate and opt-out share (`project_reply_rates`, `project_opt_out_shares`).
 */

import { own } from "../dict.js";
import { hash32, seededRandom } from "../ids.js";
import type { SimulationSettings } from "./settings.js";

/** Carrier error codes drawn for ordinary failures (unreachable, unknown, landline, filtered). */
export const FAILURE_CODES = ["30003", "30005", "30006", "30007"] as const;
/** Error code of a message failed for being over the brand's daily cap (bypass on). */
export const OVER_CAP_ERROR = "30023";
/** Error code when the project has no sending number. */
export const NO_NUMBER_ERROR = "21606";

const REPLIES = [
  "Thanks!",
  "Already voted!",
  "Where is my polling place?",
  "Who is this?",
  "Will do",
  "ok",
] as const;
const OPT_OUTS = ["STOP", "Stop"] as const;

/** What will happen to one sent message. */
export interface MessageDraw {
  readonly error_code: string | null;
  readonly reply: { readonly after_ms: number; readonly text: string } | null;
  /** Clicks on the message's link after delivery (only for a delivered message with a link). */
  readonly click: { readonly after_ms: number; readonly repeat_after_ms: number | null } | null;
}

export function drawOutcome(
  seed: number,
  projectId: string,
  phone: string,
  overCap: boolean,
  settings: SimulationSettings,
  hasLink = false,
): MessageDraw {
  const random = seededRandom(hash32(`${seed}|${projectId}|${phone}`));
  // Eleven draws in this order, one call each (Array.from with a callback cost as much as the
  // rest of the function: 0.8 of 1.7 µs a message).
  const capDraw = random();
  const failDraw = random();
  const codeDraw = random();
  const replyDraw = random();
  const optOutDraw = random();
  const textDraw = random();
  const delayDraw = random();
  // Drawn after the first seven, so the fates drawn before clicks were simulated stay the same.
  const clickDraw = random();
  const clickDelayDraw = random();
  const repeatDraw = random();
  const repeatDelayDraw = random();
  const scripted = own(settings.outcomes, phone);
  if (scripted !== undefined) {
    const reply =
      scripted.reply !== undefined && scripted.fail === undefined
        ? { after_ms: scripted.reply_after_ms ?? settings.reply_delay_min_ms, text: scripted.reply }
        : null;
    return { error_code: scripted.fail ?? null, reply, click: null };
  }
  let error: string | null = null;
  if (overCap && capDraw < settings.over_cap_failure_rate) error = OVER_CAP_ERROR;
  else if (failDraw < (own(settings.project_failure_rates, projectId) ?? settings.failure_rate))
    error = pick(FAILURE_CODES, codeDraw);
  const click =
    error === null && hasLink && clickDraw < settings.click_rate
      ? {
          after_ms: Math.floor(clickDelayDraw * (settings.click_delay_max_ms + 1)),
          repeat_after_ms:
            repeatDraw < settings.repeat_click_share
              ? Math.floor(repeatDelayDraw * (settings.click_delay_max_ms + 1))
              : null,
        }
      : null;
  const replyRate = own(settings.project_reply_rates, projectId) ?? settings.reply_rate;
  if (error !== null || replyDraw >= replyRate) return { error_code: error, reply: null, click };
  const optOutShare = own(settings.project_opt_out_shares, projectId) ?? settings.opt_out_share;
  const text = optOutDraw < optOutShare ? pick(OPT_OUTS, textDraw) : pick(REPLIES, textDraw);
  const span = Math.max(0, settings.reply_delay_max_ms - settings.reply_delay_min_ms);
  return {
    error_code: null,
    reply: { after_ms: settings.reply_delay_min_ms + Math.floor(delayDraw * (span + 1)), text },
    click,
  };
}

/** Whether a message's text holds a link a contact can click. */
export function hasLink(text: string): boolean {
  return /https?:\/\/\S/i.test(text);
}

function pick<T>(items: readonly [T, ...T[]], draw: number): T {
  return items[Math.floor(draw * items.length)] ?? items[0];
}
