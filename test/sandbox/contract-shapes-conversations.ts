/**
 * JSON Schemas of the conversation and email response shapes: the contract's email resources and
 * bulk upsert result, `message.replied`, and the vendor-SDK shapes of design.md (conversation,
 * thread message, reply result, cursor pages); the answers' `data` as the client checks them
 * (src/api/response-schemas.ts) with the contract's formats on top.
 */
import { expect } from "vitest";
import { RESPONSE_SCHEMAS } from "../../src/api/response-schemas.js";
import { type ShapeOptions, shapeValidator } from "../helpers/cached-validator.js";

const str = { type: "string" };
const int = { type: "integer" };
const bool = { type: "boolean" };
const dateTime = { type: "string", format: "date-time" };
const nullable = (s: object) => ({ oneOf: [s, { type: "null" }] });
const e164 = { type: "string", pattern: "^\\+[1-9]\\d{6,14}$" };
const obj = (properties: Record<string, object>, extra = true, optional: string[] = []) => ({
  type: "object",
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  properties,
  additionalProperties: extra,
});
const envelope = (data: object) => obj({ success: { const: true }, data }, false);
/**
 * An answer's `data` as the client checks it (src/api/response-schemas.ts: the one writing of the
 * contract's fields, types and statuses) and, on top, the formats the contract gives some of its
 * values (`formats`: a schema of those properties alone).
 */
const refined = (schema: object, formats: object) => ({ allOf: [schema, formats] });
const formatsOf = (properties: Record<string, object>) => ({ properties });
/** A cursor page whose items have `formats`, its cursor at most 4 KiB, nothing else beside. */
const cursorPage = (schema: object, formats: object) =>
  envelope(
    refined(schema, {
      additionalProperties: false,
      properties: {
        data: { items: formats },
        has_more: {},
        next_cursor: nullable({ type: "string", maxLength: 4096 }),
      },
    }),
  );

const conversation = formatsOf({
  /** Our sending number; "" for a conversation without one (the SDK types it as a string). */
  from: { anyOf: [e164, { const: "" }] },
  to: e164,
  contact: formatsOf({ phone_number: e164 }),
  first_message_at: dateTime,
  last_inbound_at: nullable(dateTime),
  last_outbound_at: nullable(dateTime),
  created_at: dateTime,
});

const threadMessage = formatsOf({
  sent_at: nullable(dateTime),
  delivered_at: nullable(dateTime),
  received_at: nullable(dateTime),
});

const emailCampaign = formatsOf({
  last_tested_at: nullable(dateTime),
  scheduled_at: nullable(dateTime),
  started_at: nullable(dateTime),
  completed_at: nullable(dateTime),
  created_at: dateTime,
  updated_at: dateTime,
});

export const CONVERSATION_SHAPES = {
  conversationPage: cursorPage(RESPONSE_SCHEMAS.conversations, conversation),
  threadPage: cursorPage(RESPONSE_SCHEMAS.threadMessages, threadMessage),
  replyResult: envelope(
    refined(RESPONSE_SCHEMAS.replyResult, formatsOf({ from: e164, to: e164, created_at: dateTime })),
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
  emailCampaignPage: cursorPage(RESPONSE_SCHEMAS.emailCampaigns, emailCampaign),
  sendingDomain: envelope(
    refined(
      RESPONSE_SCHEMAS.sendingDomain,
      formatsOf({ last_checked_at: nullable(dateTime), created_at: dateTime, updated_at: dateTime }),
    ),
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
