/**
 * Opt-out and opt-in keywords of inbound texts. A text is a keyword when, trimmed and with trailing
 * `.` or `!` removed, it equals one case-insensitively: opt-out STOP, STOPALL, UNSUBSCRIBE, CANCEL,
 * END, QUIT; opt-in START, UNSTOP. Anything else ("stop texting me") is an ordinary reply.
 */

export const OPT_OUT_KEYWORDS = ["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"] as const;
export const OPT_IN_KEYWORDS = ["START", "UNSTOP"] as const;

const optOut = new Set<string>(OPT_OUT_KEYWORDS);
const optIn = new Set<string>(OPT_IN_KEYWORDS);

/** The two flags of a `message.replied` payload for an inbound text. */
export function classifyInbound(text: string): { is_opt_out: boolean; is_opt_in: boolean } {
  const word = text
    .trim()
    .replace(/[.!]+$/, "")
    .toUpperCase();
  return { is_opt_out: optOut.has(word), is_opt_in: optIn.has(word) };
}
