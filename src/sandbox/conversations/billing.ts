/**
 * What a reply costs: per SMS segment at the sending number's outbound rate, billed to the
 * organization that owns the project (contract, POST /conversations/{id}/messages, rule 4). The
 * rate comes from the sandbox's one price table (`prices.ts`), the same one project sends use.
 */
import { e4ToCents, type PriceTable, segmentRateE4 } from "../prices.js";
import { segmentsOf } from "../sms.js";
import type { World } from "../state/world.js";

/** The cost of sending `text` from the number `phoneNumberId` (10DLC's rate when it is unknown). */
export interface ReplyCost {
  readonly segments: number;
  readonly encoding: "GSM-7" | "UCS-2";
  /** Per-segment rate in ten-thousandths of a dollar. */
  readonly rateE4: number;
  /** The exact price in ten-thousandths of a dollar (what the project's actual cost counts). */
  readonly costE4: number;
  /** What the organization's balance is charged: `costE4` in whole cents, rounded up. */
  readonly cents: number;
}

export function replyCost(w: World, prices: PriceTable, phoneNumberId: string, text: string): ReplyCost {
  const { segments, encoding } = segmentsOf(text);
  const rateE4 = segmentRateE4(prices, w.phoneNumbers[phoneNumberId]?.channel);
  const costE4 = segments * rateE4;
  return { segments, encoding, rateE4, costE4, cents: e4ToCents(costE4) };
}
