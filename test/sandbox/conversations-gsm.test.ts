/** Reply text normalization for GSM-7 (segment counting: segment-vectors.test.ts). */
import { describe, expect, it } from "vitest";
import { normalizeForGsm } from "../../src/sandbox/conversations/gsm.js";

describe("normalizeForGsm", () => {
  it("replaces look-alikes, strips accents GSM-7 lacks and keeps what it has", () => {
    expect(normalizeForGsm("‘a’ “b” – — … \u00a0x\u200by\tz • «q»")).toBe('\'a\' "b" - - ...  xy z * "q"');
    expect(normalizeForGsm("Café Ñandú São Zoë")).toBe("Café Ñandu Sao Zoe");
    expect(normalizeForGsm("Vote 🗳 today")).toBe("Vote 🗳 today");
  });
});
