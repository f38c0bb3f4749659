/** Reply text normalization for GSM-7 and segment counting. */
import { describe, expect, it } from "vitest";
import { normalizeForGsm } from "../../src/sandbox/conversations/gsm.js";
import { segmentsOf } from "../../src/sandbox/sms.js";

describe("normalizeForGsm", () => {
  it("replaces look-alikes, strips accents GSM-7 lacks and keeps what it has", () => {
    expect(normalizeForGsm("‘a’ “b” – — … \u00a0x\u200by\tz • «q»")).toBe('\'a\' "b" - - ...  xy z * "q"');
    expect(normalizeForGsm("Café Ñandú São Zoë")).toBe("Café Ñandu Sao Zoe");
    expect(normalizeForGsm("Vote 🗳 today")).toBe("Vote 🗳 today");
  });
});

describe("segmentsOf", () => {
  it("counts GSM-7 septets (extension characters twice) and UCS-2 units", () => {
    expect(segmentsOf("a".repeat(160))).toEqual({ encoding: "GSM-7", segments: 1 });
    expect(segmentsOf("a".repeat(161))).toEqual({ encoding: "GSM-7", segments: 2 });
    expect(segmentsOf("€".repeat(80))).toEqual({ encoding: "GSM-7", segments: 1 });
    expect(segmentsOf("€".repeat(81))).toEqual({ encoding: "GSM-7", segments: 2 });
    expect(segmentsOf("a".repeat(306))).toEqual({ encoding: "GSM-7", segments: 2 });
    expect(segmentsOf("a".repeat(307))).toEqual({ encoding: "GSM-7", segments: 3 });
    expect(segmentsOf(`${"a".repeat(68)}🗳`)).toEqual({ encoding: "UCS-2", segments: 1 });
    expect(segmentsOf(`${"a".repeat(69)}🗳`)).toEqual({ encoding: "UCS-2", segments: 2 });
  });
});
