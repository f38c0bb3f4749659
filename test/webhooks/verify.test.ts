/**
 * The delivery check of src/webhooks/verify.ts, case by case, on deliveries signed by the sandbox's
 * own signer (src/sandbox/webhooks/signature.ts): what it accepts, what it refuses and with which
 * code and status, in which order the checks run (the signature before the body is parsed), and
 * the body key each kind of event gets.
 */
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { WEBHOOKS_CODES } from "../../src/diagnostics/codes/webhooks.js";
import { signBody } from "../../src/sandbox/webhooks/signature.js";
import { bodyKeyOf, kindOfBody } from "../../src/webhooks/body-key.js";
import { checkSignature } from "../../src/webhooks/signature.js";
import { checkTimestamp } from "../../src/webhooks/timestamp.js";
import { REFUSALS } from "../../src/webhooks/types.js";
import { verifyDelivery } from "../../src/webhooks/verify.js";

const NOW = Date.parse("2026-12-01T15:00:00Z");
const SECRETS = [
  { name: "WH_NEW", value: "whsec_new_0123456789abcdef" },
  { name: "WH_OLD", value: "whsec_old_0123456789abcdef" },
];
const SENT = {
  message_id: "m-1",
  project_id: "p-1",
  conversation_id: null,
  from: "+15035550101",
  to: "+15035550110",
  status: "sent",
  error_code: null,
  segments: 1,
  sent_at: "2026-12-01T15:00:00.000Z",
  delivered_at: null,
  failed_at: null,
};

function delivery(
  body: string | Buffer = JSON.stringify(SENT),
  headers: Record<string, string | undefined> = {},
  secret = SECRETS[0]?.value ?? "",
) {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, "utf8");
  return {
    headers: {
      "content-type": "application/json",
      "x-webhook-signature": signBody(secret, bytes),
      "x-event-type": "message.sent",
      "x-event-id": "evt_1",
      "x-timestamp": String(NOW / 1000),
      ...headers,
    },
    body: bytes,
  };
}

const verify = (d: ReturnType<typeof delivery>, nowMs = NOW) =>
  verifyDelivery(d, { secrets: SECRETS, nowMs });

describe("verifyDelivery", () => {
  test("accepts a delivery signed by the sandbox's signer, and says which secret signed it", () => {
    const verdict = verify(delivery());
    expect(verdict).toMatchObject({
      ok: true,
      event: {
        eventId: "evt_1",
        kind: "message.sent",
        timestampMs: NOW,
        secretName: "WH_NEW",
        bodyKey: "message.sent:m-1",
      },
    });
  });

  test("accepts the previous secret during a rotation", () => {
    const verdict = verify(delivery(undefined, {}, SECRETS[1]?.value));
    expect(verdict.ok && verdict.event.secretName).toBe("WH_OLD");
  });

  test("accepts upper-case hex and surrounding spaces in the signature (the same bytes)", () => {
    const d = delivery();
    const sig = d.headers["x-webhook-signature"] ?? "";
    const verdict = verify({
      ...d,
      headers: { ...d.headers, "x-webhook-signature": ` sha256=${sig.slice(7).toUpperCase()} ` },
    });
    expect(verdict.ok).toBe(true);
  });

  test("accepts a timestamp exactly 5 minutes off either way", () => {
    expect(verify(delivery(), NOW + 300_000).ok).toBe(true);
    expect(verify(delivery(), NOW - 300_000).ok).toBe(true);
  });

  const signed = delivery();
  test.each([
    [
      "a changed byte",
      { ...signed, body: Buffer.from(signed.body.toString().replace("m-1", "m-2")) },
      "bad-signature",
      401,
    ],
    [
      "a final newline",
      { ...signed, body: Buffer.concat([signed.body, Buffer.from("\n")]) },
      "bad-signature",
      401,
    ],
    [
      "the JSON reformatted",
      { ...signed, body: Buffer.from(JSON.stringify(SENT, null, 2)) },
      "bad-signature",
      401,
    ],
    ["another secret", delivery(undefined, {}, "whsec_someone_else"), "bad-signature", 401],
    ["no signature", delivery(undefined, { "x-webhook-signature": undefined }), "missing-signature", 401],
    ["a blank signature", delivery(undefined, { "x-webhook-signature": "  " }), "missing-signature", 401],
    [
      "a bare hex signature",
      delivery(undefined, { "x-webhook-signature": "ab".repeat(32) }),
      "malformed-signature",
      401,
    ],
    [
      "a sha1 signature",
      delivery(undefined, { "x-webhook-signature": `sha1=${"ab".repeat(20)}` }),
      "malformed-signature",
      401,
    ],
    [
      "a short digest",
      delivery(undefined, { "x-webhook-signature": `sha256=${"ab".repeat(31)}` }),
      "malformed-signature",
      401,
    ],
    ["no timestamp", delivery(undefined, { "x-timestamp": undefined }), "missing-timestamp", 401],
    [
      "a timestamp in milliseconds' ISO form",
      delivery(undefined, { "x-timestamp": "2026-12-01T15:00:00Z" }),
      "malformed-timestamp",
      401,
    ],
    [
      "a fractional timestamp",
      delivery(undefined, { "x-timestamp": "1796137200.5" }),
      "malformed-timestamp",
      401,
    ],
    [
      "a timestamp 5 minutes and 1 second old",
      delivery(undefined, { "x-timestamp": String(NOW / 1000 - 301) }),
      "stale-timestamp",
      401,
    ],
    [
      "a timestamp 5 minutes and 1 second ahead",
      delivery(undefined, { "x-timestamp": String(NOW / 1000 + 301) }),
      "stale-timestamp",
      401,
    ],
    ["no event id", delivery(undefined, { "x-event-id": undefined }), "missing-event-id", 400],
    ["no event type", delivery(undefined, { "x-event-type": "" }), "missing-event-type", 400],
    ["a signed body that is not JSON", delivery("not json"), "bad-body", 400],
    ["a signed body that is a JSON array", delivery("[1,2]"), "bad-body", 400],
    [
      "an X-Event-Type the body contradicts",
      delivery(undefined, { "x-event-type": "message.delivered" }),
      "type-mismatch",
      400,
    ],
  ] as const)("refuses %s: %s (%i)", (_name, d, reason, status) => {
    const verdict = verify(d);
    expect(verdict.ok).toBe(false);
    if (verdict.ok) return;
    expect(verdict.rejection).toMatchObject({
      reason,
      status,
      diagnostic: { code: `webhooks.${reason}`, severity: "error" },
    });
    expect(verdict.rejection.diagnostic.message).not.toMatch(/whsec_/);
  });

  test("checks the signature before it parses the body, and before the timestamp", () => {
    const unsignedGarbage = delivery("{not json", {
      "x-webhook-signature": signBody("wrong", "x"),
      "x-timestamp": "0",
    });
    const verdict = verify(unsignedGarbage);
    expect(!verdict.ok && verdict.rejection.reason).toBe("bad-signature");
  });

  test("the stale-timestamp message says how far off and against which clock", () => {
    const verdict = verify(delivery(undefined, { "x-timestamp": String(NOW / 1000 - 3600) }));
    expect(!verdict.ok && verdict.rejection.diagnostic.message).toBe(
      "X-Timestamp 2026-12-01T14:00:00.000Z is 1h before the listener's clock (2026-12-01T15:00:00.000Z); more than 5m either way is refused",
    );
  });
});

describe("checkSignature and checkTimestamp", () => {
  test("every secret is compared; the first that matches is reported", () => {
    const body = Buffer.from("{}");
    const both = [SECRETS[0], { name: "SAME", value: SECRETS[0]?.value ?? "" }].filter(
      (s) => s !== undefined,
    );
    expect(checkSignature(signBody(SECRETS[0]?.value ?? "", body), body, both)).toEqual({
      ok: true,
      secret: SECRETS[0],
    });
  });

  test("a timestamp is whole Unix seconds", () => {
    expect(checkTimestamp("1796137200", 1796137200_000)).toEqual({ ok: true, timestampMs: 1796137200_000 });
    expect(checkTimestamp("-5", 0)).toEqual({ ok: false, reason: "malformed-timestamp" });
    expect(checkTimestamp("1e9", 1e12)).toEqual({ ok: false, reason: "malformed-timestamp" });
  });
});

describe("the body key", () => {
  const raw = (v: unknown) => Buffer.from(JSON.stringify(v));
  test.each([
    ["message.sent", { ...SENT }, "message.sent:m-1"],
    ["message.delivered", { ...SENT, status: "delivered" }, "message.delivered:m-1"],
    ["message.failed", { ...SENT, status: "failed", error_code: "30006" }, "message.failed:m-1"],
    [
      "message.replied",
      {
        conversation_id: "c",
        message_id: "in-1",
        from: "+1",
        to: "+2",
        text: "STOP",
        is_opt_out: true,
        is_opt_in: false,
      },
      "message.replied:in-1",
    ],
  ])("%s: from the kind the body shows and its message_id", (kind, payload, key) => {
    expect(kindOfBody(payload)).toBe(kind);
    expect(bodyKeyOf(payload, raw(payload))).toBe(key);
  });

  test("a body that shows no kind (link.clicked, not shown by the contract) is keyed by the digest of its bytes", () => {
    const payload = { url: "https://example.org", clicked_at: "2026-12-01T15:00:00Z", message_id: "m-1" };
    const bytes = raw(payload);
    expect(kindOfBody(payload)).toBeNull();
    expect(bodyKeyOf(payload, bytes)).toBe(`sha256:${createHash("sha256").update(bytes).digest("hex")}`);
  });

  test("an unknown status or one inherited from Object.prototype shows no kind", () => {
    expect(kindOfBody({ status: "queued" })).toBeNull();
    expect(kindOfBody({ status: "constructor" })).toBeNull();
  });

  test("the key depends on the signed bytes only: a replay under any headers gets the same key", () => {
    const a = verify(delivery());
    const b = verify(
      delivery(undefined, { "x-event-id": "evt_other", "x-timestamp": String(NOW / 1000 + 10) }),
    );
    expect(a.ok && b.ok && a.event.bodyKey === b.event.bodyKey).toBe(true);
  });
});

describe("the refusal table", () => {
  test("each reason has its code in src/diagnostics/codes/webhooks.ts, matching the shared code pattern", () => {
    for (const [reason, { code }] of Object.entries(REFUSALS)) {
      expect(code).toBe(`webhooks.${reason}`);
      expect(Object.keys(WEBHOOKS_CODES)).toContain(code);
    }
    for (const code of Object.keys(WEBHOOKS_CODES))
      expect(code).toMatch(/^webhooks\.[a-z0-9]+(-[a-z0-9]+)*$/);
  });
});
