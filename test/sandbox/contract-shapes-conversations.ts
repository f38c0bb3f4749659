/**
 * JSON Schemas of the conversation and email response shapes: the contract's email resources and
 * bulk upsert result, `message.replied`, and the vendor-SDK shapes of design.md (conversation,
 * thread message, reply result, cursor pages).
 */
import { expect } from "vitest";
import { EMAIL_CAMPAIGN_STATUSES } from "../../src/contract/limits.js";
import { type ShapeOptions, shapeValidator } from "../helpers/cached-validator.js";

const str = { type: "string" };
const int = { type: "integer" };
const bool = { type: "boolean" };
const dateTime = { type: "string", format: "date-time" };
const nullable = (s: object) => ({ oneOf: [s, { type: "null" }] });
const e164 = { type: "string", pattern: "^\\+[1-9]\\d{6,14}$" };
const ids = { type: "array", items: str };
const obj = (properties: Record<string, object>, extra = true, optional: string[] = []) => ({
  type: "object",
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  properties,
  additionalProperties: extra,
});
const envelope = (data: object) => obj({ success: { const: true }, data }, false);
const cursorPage = (item: object) =>
  envelope(
    obj(
      {
        data: { type: "array", items: item },
        has_more: bool,
        next_cursor: nullable({ type: "string", maxLength: 4096 }),
      },
      false,
    ),
  );

const conversation = obj({
  conversation_id: str,
  project_id: str,
  /** Our sending number; "" for a conversation without one (the SDK types it as a string). */
  from: { anyOf: [e164, { const: "" }] },
  to: e164,
  status: { enum: ["active", "inactive", "opted_out"] },
  opted_out: bool,
  is_test: bool,
  contact: obj({ phone_number: e164 }),
  inbound_messages: int,
  outbound_messages: int,
  first_message_at: dateTime,
  last_inbound_at: nullable(dateTime),
  last_outbound_at: nullable(dateTime),
  created_at: dateTime,
});

const threadMessage = obj(
  {
    message_id: str,
    direction: { enum: ["inbound", "outbound"] },
    text: str,
    media_urls: ids,
    status: { enum: ["unsent", "queued", "sending", "sent", "delivered", "failed", "received", "on_hold"] },
    sent_at: nullable(dateTime),
    delivered_at: nullable(dateTime),
    received_at: nullable(dateTime),
    error_code: nullable(str),
  },
  true,
  ["received_at"],
);

const emailCampaign = obj({
  id: str,
  sender_identity_id: str,
  tracking_domain_id: str,
  name: str,
  status: { enum: [...EMAIL_CAMPAIGN_STATUSES] },
  list_ids: ids,
  suppression_list_ids: ids,
  tracking_domain: obj({ id: str, domain: str, status: str }),
  require_approval: bool,
  recipient_policy: str,
  approval_status: str,
  last_tested_at: nullable(dateTime),
  scheduled_at: nullable(dateTime),
  started_at: nullable(dateTime),
  completed_at: nullable(dateTime),
  created_at: dateTime,
  updated_at: dateTime,
  refcode: str,
  source_code: str,
  timezone: str,
  pause_reason: str,
  audience_count: int,
  counts: obj(
    Object.fromEntries(
      [
        "queued",
        "sent",
        "delivered",
        "bounced",
        "complained",
        "unsubscribed",
        "opened",
        "clicked",
        "failed",
      ].map((k) => [k, int]),
    ),
  ),
  blocked: { type: "array", items: obj({ code: str, message: str }) },
});

export const CONVERSATION_SHAPES = {
  conversationPage: cursorPage(conversation),
  threadPage: cursorPage(threadMessage),
  replyResult: envelope(
    obj({
      message_id: str,
      conversation_id: str,
      project_id: str,
      from: e164,
      to: e164,
      text: str,
      created_at: dateTime,
    }),
  ),
  /** Exactly the contract's members of `message.replied`. */
  repliedPayload: obj(
    {
      conversation_id: str,
      message_id: str,
      from: e164,
      to: e164,
      text: str,
      is_opt_out: bool,
      is_opt_in: bool,
    },
    false,
  ),
  bulkUpsert: envelope(
    obj({
      written: int,
      accepted: int,
      rejected: int,
      duplicates: int,
      results: {
        type: "array",
        items: obj({
          index: int,
          email: str,
          status: { enum: ["accepted", "rejected", "duplicate"] },
          reason: nullable(str),
        }),
      },
    }),
  ),
  emailCampaignPage: cursorPage(emailCampaign),
  sendingDomain: envelope(
    obj({
      id: str,
      domain: str,
      status: str,
      dns_records: { type: "array", items: obj({ type: str, name: str, value: str, purpose: str }) },
      verification: obj({ dkim: str, mail_from: str, dmarc: str }),
      error_message: str,
      last_checked_at: nullable(dateTime),
      created_at: dateTime,
      updated_at: dateTime,
    }),
  ),
} as const;

/** ajv 2020-12, every error, not strict, every ajv-formats format. */
const OPTIONS: ShapeOptions = { ajv: { allErrors: true, strict: false }, formats: true };

/** Asserts that `body` has the shape `name`, showing ajv's errors on failure. */
export function expectConversationShape(name: keyof typeof CONVERSATION_SHAPES, body: unknown): void {
  const schema: object | undefined = CONVERSATION_SHAPES[name];
  if (schema === undefined) throw new Error(`no shape ${name}`);
  // Compiled at its first use (in any worker, any pass), then loaded from the tests' validator cache.
  const validate = shapeValidator(`contract-conversations-${name}`, schema, OPTIONS);
  const valid = validate(body);
  expect(valid ? [] : validate.errors, `${name}: ${JSON.stringify(body)?.slice(0, 400)}`).toEqual([]);
}
