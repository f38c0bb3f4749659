/**
 * The JSON Schemas (2020-12) of the sandbox's request bodies, by name: a route names its schema
 * (`bodySchema` in ../context.ts) and src/sandbox/http/body.ts checks a body with the validator the
 * build generated from it (scripts/gen-validators.mjs writes src/sandbox/generated/validate-bodies.ts
 * as ajv standalone code; compiling them at run time cost the first request with a body of each
 * sandbox process about 100 ms of CPU: issues 35 and 36). Data only: the generator loads this module
 * (and the limits it reads) at build time; test/sandbox/body-validators.test.ts checks that the
 * generated validators are this file's and judge as ajv compiling it at run time does.
 */
import {
  BULK_UPSERT_MAX,
  BULK_UPSERT_MIN,
  EVENT_KINDS,
  PAUSE_REASON_MAX,
  PAUSE_REASON_MIN,
  PROJECT_STATUSES,
  REPLY_TEXT_MAX,
  SCHEDULE_TIMEZONES,
  TEST_CONTACTS_MAX,
  TEST_CONTACTS_MIN,
} from "../../contract/limits.js";

/** US/Canada E.164: +1, then a 10-digit number whose area code does not start with 0 or 1. */
const NANP_E164 = "^\\+1[2-9][0-9]{9}$";
/** Any E.164 number. */
const e164 = { type: "string", pattern: "^\\+[1-9]\\d{6,14}$" };
/** The largest speed `time_scale` accepts: a virtual year per real second. */
const MAX_TIME_SCALE = 31_536_000;
const ids = { type: "array", items: { type: "string" } };
const nullableString = { type: ["string", "null"] };
const rate = { type: "number", minimum: 0, maximum: 1 };
const duration = { type: "integer", minimum: 0 };

/** Each request body's schema, by the name its route gives (`bodySchema`). */
export const BODY_SCHEMAS = {
  /** `POST /projects/{id}/schedule`. */
  schedule: {
    type: "object",
    additionalProperties: false,
    required: ["scheduled_at", "scheduled_timezone"],
    properties: {
      scheduled_at: { type: "string", format: "date-time" },
      scheduled_timezone: { enum: [...SCHEDULE_TIMEZONES] },
      daily_cap_bypass: { type: "boolean" },
    },
  },
  /** `POST /projects/{id}/pause`. */
  pause: {
    type: "object",
    additionalProperties: false,
    properties: { reason: { type: "string", minLength: PAUSE_REASON_MIN, maxLength: PAUSE_REASON_MAX } },
  },
  /** `POST /projects/{id}/test`. */
  test: {
    type: "object",
    additionalProperties: false,
    required: ["test_contacts"],
    properties: {
      test_contacts: {
        type: "array",
        minItems: TEST_CONTACTS_MIN,
        maxItems: TEST_CONTACTS_MAX,
        items: {
          type: "object",
          additionalProperties: false,
          required: ["phone"],
          properties: {
            phone: { type: "string", pattern: NANP_E164 },
            merge_values: { type: "object", additionalProperties: { type: "string" } },
          },
        },
      },
    },
  },
  /** `POST /email/lists/{id}/contacts` (checked in its handler, after the early-access and list checks). */
  emailContacts: {
    type: "object",
    required: ["contacts"],
    properties: {
      contacts: { type: "array", minItems: BULK_UPSERT_MIN, maxItems: BULK_UPSERT_MAX },
    },
  },
  /** `POST /conversations/{conversation_id}/messages`. */
  reply: {
    type: "object",
    additionalProperties: false,
    required: ["text"],
    properties: { text: { type: "string", minLength: 1, maxLength: REPLY_TEXT_MAX } },
  },
  /** `POST /_sandbox/faults`. */
  faults: {
    type: "object",
    additionalProperties: false,
    required: ["spec"],
    properties: { spec: { type: "string", minLength: 1 }, replace: { type: "boolean" } },
  },
  /** `POST /_sandbox/clock/advance`. */
  clockAdvance: {
    type: "object",
    additionalProperties: false,
    required: ["ms"],
    properties: { ms: { type: "integer", minimum: 0 } },
  },
  /** `POST /_sandbox/clock/set`. */
  clockSet: {
    type: "object",
    additionalProperties: false,
    minProperties: 1,
    properties: {
      at: { type: "string", format: "date-time" },
      time_scale: { type: "number", minimum: 0, maximum: MAX_TIME_SCALE },
    },
  },
  /** `PATCH /_sandbox/projects/{id}`. */
  projectEdit: {
    type: "object",
    additionalProperties: false,
    minProperties: 1,
    properties: {
      name: { type: "string", minLength: 1 },
      status: { enum: [...PROJECT_STATUSES] },
      message_text: { type: "string" },
      phone_number_ids: ids,
      contact_list_ids: ids,
      suppression_list_ids: ids,
      media_ids: ids,
      link_tracking_enabled: { type: "boolean" },
      link_tracking_destination_url: { type: "string" },
      link_tracking_domain_id: { type: "string" },
      link_tracking_param_field: { type: "string" },
      link_tracking_fallback_url: nullableString,
      opt_out_footer_enabled: { type: "boolean" },
      ai_survey_analysis_enabled: { type: "boolean" },
      total_recipients: { type: "integer", minimum: 0 },
      estimated_cost_cents: { type: "integer", minimum: 0 },
      scheduled_at: { oneOf: [{ type: "string", format: "date-time" }, { type: "null" }] },
      scheduled_timezone: { enum: [...SCHEDULE_TIMEZONES, null] },
      daily_cap_bypass: { type: "boolean" },
      pause_reason: nullableString,
      deleted: { type: "boolean" },
    },
  },
  /** `POST /_sandbox/inbound`. */
  inbound: {
    type: "object",
    additionalProperties: false,
    required: ["text"],
    properties: {
      conversation_id: { type: "string", minLength: 1 },
      project_id: { type: "string", minLength: 1 },
      contact_phone: e164,
      phone_number: e164,
      text: { type: "string", minLength: 1, maxLength: REPLY_TEXT_MAX },
      at: { type: "string", format: "date-time" },
      is_test: { type: "boolean" },
    },
  },
  /** `POST /_sandbox/webhook-endpoints`. */
  webhookEndpoint: {
    type: "object",
    additionalProperties: false,
    required: ["url"],
    properties: {
      url: { type: "string", minLength: 1, maxLength: 2048 },
      events: { type: "array", minItems: 1, uniqueItems: true, items: { enum: [...EVENT_KINDS] } },
      organization_id: { type: "string", minLength: 1 },
      name: { type: "string", minLength: 1, maxLength: 100 },
      secret: { type: "string", minLength: 16, maxLength: 256, pattern: "^[\\x21-\\x7e]+$" },
    },
  },
  /** `PATCH /_sandbox/simulation` (a partial update; `outcomes` and the `project_*` maps replace their maps). */
  simulation: {
    type: "object",
    additionalProperties: false,
    properties: {
      messages_per_batch: { type: "integer", minimum: 1, maximum: 100_000 },
      batch_interval_ms: { type: "integer", minimum: 1 },
      receipt_delay_ms: duration,
      failure_rate: rate,
      project_failure_rates: { type: "object", additionalProperties: rate },
      over_cap_failure_rate: rate,
      reply_rate: rate,
      project_reply_rates: { type: "object", additionalProperties: rate },
      opt_out_share: rate,
      project_opt_out_shares: { type: "object", additionalProperties: rate },
      reply_delay_min_ms: duration,
      reply_delay_max_ms: duration,
      click_rate: rate,
      repeat_click_share: rate,
      click_delay_max_ms: duration,
      sms_segment_price_e4: duration,
      toll_free_segment_price_e4: duration,
      mms_message_price_e4: duration,
      outcomes: {
        type: "object",
        additionalProperties: {
          type: "object",
          additionalProperties: false,
          properties: {
            fail: { type: "string", minLength: 1 },
            reply: { type: "string", minLength: 1, maxLength: 1600 },
            reply_after_ms: duration,
          },
        },
      },
    },
  },
  /** `POST /_sandbox/email/suppressions`. */
  emailSuppression: {
    type: "object",
    additionalProperties: false,
    required: ["organization_id", "email"],
    properties: {
      organization_id: { type: "string", minLength: 1 },
      email: { type: "string", minLength: 3, maxLength: 320 },
      reason: { type: "string", minLength: 1, maxLength: 255 },
    },
  },
} as const satisfies Record<string, object>;

/** The name of a request body's schema. */
export type BodySchemaName = keyof typeof BODY_SCHEMAS;
