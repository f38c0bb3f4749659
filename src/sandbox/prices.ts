/**
 * The sandbox's one price table, used by project sends and by conversation replies alike (our
 * choice; the contract says only that replies are "billed per segment at the number's outbound
 * rate"). An SMS costs its segments times the sending number's per-segment rate: toll-free numbers
 * have their own rate, every other channel the SMS rate; an MMS message costs one flat price. Prices
 * are in ten-thousandths of a dollar (e4) and tunable through `PATCH /_sandbox/simulation`.
 */
import type { PhoneChannel } from "../contract/limits.js";

/** The price knobs of the simulation settings. */
export interface PriceTable {
  /** Per SMS segment from a 10DLC, short-code or RCS number. */
  readonly sms_segment_price_e4: number;
  /** Per SMS segment from a toll-free number. */
  readonly toll_free_segment_price_e4: number;
  /** Per MMS message, whatever the number. */
  readonly mms_message_price_e4: number;
}

/** The per-segment rate of a sending number's channel (10DLC's when the number is unknown). */
export function segmentRateE4(prices: PriceTable, channel: PhoneChannel | undefined): number {
  switch (channel) {
    case "toll-free":
      return prices.toll_free_segment_price_e4;
    case "10dlc":
    case "short-code":
    case "rcs":
    case undefined:
      return prices.sms_segment_price_e4;
  }
}

/** What one message costs, in e4. */
export function messagePriceE4(
  prices: PriceTable,
  channel: PhoneChannel | undefined,
  segments: number,
  mms: boolean,
): number {
  return mms ? prices.mms_message_price_e4 : segments * segmentRateE4(prices, channel);
}

/** An e4 amount as whole cents charged to a balance (rounded up: a balance is never undercharged). */
export function e4ToCents(e4: number): number {
  return Math.ceil(e4 / 100);
}
