/**
 * What a reply costs: per SMS segment at the sending number's outbound rate, billed to the
 * organization that owns the project (contract, POST /conversations/{id}/messages, rule 4).
 */
import type { PhoneChannel } from "../../contract/limits.js";
import { segmentsOf } from "../sms.js";
import type { World } from "../state/world.js";

/** Outbound rate per segment in cents, by the sending number's channel (README: our choice). */
export function outboundRateCents(channel: PhoneChannel): number {
  switch (channel) {
    case "10dlc":
      return 1;
    case "toll-free":
      return 2;
    case "short-code":
      return 1;
    case "rcs":
      return 1;
  }
}

/** The cost of sending `text` from the number `phoneNumberId` (10DLC's rate when it is unknown). */
export interface ReplyCost {
  readonly segments: number;
  readonly encoding: "GSM-7" | "UCS-2";
  readonly rateCents: number;
  readonly cents: number;
}

export function replyCost(w: World, phoneNumberId: string, text: string): ReplyCost {
  const { segments, encoding } = segmentsOf(text);
  const channel = w.phoneNumbers[phoneNumberId]?.channel ?? "10dlc";
  const rateCents = outboundRateCents(channel);
  return { segments, encoding, rateCents, cents: segments * rateCents };
}
