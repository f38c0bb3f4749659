/**
 * JSON Schemas of the contract's response shapes (api-contract.md, Resources and Errors, plus the
 * vendor-SDK facts of design.md), written once from the contract and used to check every answer.
 */
import { expect } from "vitest";
import { type ShapeOptions, shapeValidator } from "../helpers/cached-validator.js";

const str = { type: "string" };
const int = { type: "integer" };
const bool = { type: "boolean" };
const dateTime = { type: "string", format: "date-time" };
const dateTimeMs = {
  type: "string",
  pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}(Z|[+-]\\d{2}:\\d{2})$",
};
const nullable = (s: object) => ({ oneOf: [s, { type: "null" }] });
const ids = { type: "array", items: str };
const obj = (properties: Record<string, object>, extra = true) => ({
  type: "object",
  required: Object.keys(properties),
  properties,
  additionalProperties: extra,
});
const envelope = (data: object) => obj({ success: { const: true }, data }, false);

const project = obj({
  project_id: str,
  organization_id: str,
  channel: str,
  brand_id: str,
  campaign_id: str,
  toll_free_verification_id: nullable(str),
  phone_number_ids: ids,
  name: str,
  status: { enum: ["draft", "awaiting_test", "ready", "scheduled", "active", "paused", "completed"] },
  type: { enum: ["broadcast", "survey"] },
  protocol: str,
  message_text: str,
  contact_list_ids: ids,
  suppression_list_ids: ids,
  media_ids: ids,
  media_urls: ids,
  link_tracking_enabled: bool,
  link_tracking_destination_url: str,
  link_tracking_domain_id: str,
  link_tracking_param_field: str,
  link_tracking_fallback_url: nullable(str),
  opt_out_footer_enabled: bool,
  ai_survey_analysis_enabled: bool,
  total_recipients: int,
  estimated_cost_cents: int,
  scheduled_at: nullable(str),
  scheduled_timezone: nullable(str),
  created_via_api: bool,
  created_at: dateTime,
  updated_at: dateTime,
});

const phoneNumber = obj({
  id: str,
  number: { type: "string", pattern: "^\\+[1-9]\\d{6,14}$" },
  channel: { enum: ["10dlc", "toll-free", "short-code", "rcs"] },
  owner_type: { enum: ["campaign", "toll_free_registration", "unassigned"] },
  campaign_id: nullable(str),
  campaign_name: nullable(str),
  brand_id: nullable(str),
  brand_name: nullable(str),
  toll_free_verification_id: nullable(str),
  toll_free_registration_name: nullable(str),
  tf_verification_status: nullable(str),
  org_id: str,
  org_name: str,
  status: str,
  created_at: dateTime,
  shared: bool,
  nickname: nullable(str),
});

const statsRow = obj({
  ...Object.fromEntries(
    ["id", "name", "status", "protocol", "type", "channel", "organization_id", "brand_id", "campaign_id"].map(
      (k) => [k, str],
    ),
  ),
  ...Object.fromEntries(
    [
      "total_recipients",
      "messages_sent",
      "messages_delivered",
      "messages_failed",
      "messages_opted_out",
      "replies_received",
      "survey_responses_count",
      "survey_completion_count",
      "total_url_clicks",
      "unique_url_clicks",
      "url_share_count",
    ].map((k) => [k, int]),
  ),
  actual_cost: { type: "string", pattern: "^\\d+\\.\\d{4}$" },
  created_at: dateTimeMs,
  completed_at: nullable(dateTimeMs),
  updated_at: dateTimeMs,
  organization_name: str,
  brand_name: str,
  campaign_name: str,
});

const ints = (names: string[]) => obj(Object.fromEntries(names.map((n) => [n, int])));

export const SHAPES = {
  project: envelope(project),
  organizations: envelope({
    type: "array",
    items: obj({
      id: str,
      display_name: str,
      parent_org_name: nullable(str),
      status: str,
      created_at: dateTime,
    }),
  }),
  phoneNumbers: envelope({ type: "array", items: phoneNumber }),
  tollFreeVerification: envelope(
    obj({
      ...Object.fromEntries(
        [
          "id",
          "name",
          "status",
          "verification_request_id",
          "org_id",
          "org_name",
          "business_name",
          "use_case",
        ].map((k) => [k, str]),
      ),
      phone_number_count: int,
      phone_number_ids: ids,
      rejection_reason: nullable(str),
      submitted_at: dateTime,
      verified_at: nullable(dateTime),
      created_at: dateTime,
      updated_at: dateTime,
    }),
  ),
  media: envelope(
    obj({
      ...Object.fromEntries(
        [
          "media_id",
          "organization_id",
          "brand_id",
          "name",
          "status",
          "content_type",
          "storage_key",
          "url",
        ].map((k) => [k, str]),
      ),
      file_size_bytes: int,
      uploaded_via_api: bool,
      created_at: dateTime,
      optimized_at: nullable(dateTime),
    }),
  ),
  campaigns: envelope({
    type: "array",
    items: obj({
      id: str,
      name: str,
      brand_id: str,
      brand_name: str,
      org_id: str,
      org_name: str,
      campaign_status: str,
      created_at: dateTime,
    }),
  }),
  contactLists: envelope({
    type: "array",
    items: obj({
      id: str,
      name: str,
      brand_id: str,
      brand_name: str,
      org_id: str,
      org_name: str,
      created_at: dateTime,
    }),
  }),
  stats: envelope(
    obj({
      projects: { type: "array", items: statsRow },
      summary: obj({
        totalProjects: int,
        organizationCount: int,
        brandCount: int,
        campaignCount: int,
        statusBreakdown: ints(["draft", "active", "completed", "paused"]),
        messageStats: obj({
          ...ints([
            "totalRecipients",
            "totalSent",
            "totalDelivered",
            "totalFailed",
            "totalOptedOut",
            "totalReplies",
            "totalUrlClicks",
            "totalUniqueUrlClicks",
            "totalUrlShares",
          ]).properties,
          totalActualCost: { type: "number" },
        }),
        dateRange: obj({ earliestProject: nullable(dateTime), latestProject: nullable(dateTime) }),
      }),
      pagination: obj({ limit: int, offset: int, totalCount: int, hasMore: bool }),
      dateRange: obj({
        startDate: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" },
        endDate: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" },
      }),
    }),
  ),
  testSent: envelope(
    obj({
      project_id: str,
      status: { const: "awaiting_test" },
      test_messages: {
        type: "array",
        items: obj({
          test_message_id: str,
          sent_to: { type: "string", pattern: "^\\+1\\d{3}\\*{4}\\d{3}$" },
        }),
      },
    }),
  ),
  scheduled: envelope(
    obj({
      project_id: str,
      status: { const: "scheduled" },
      scheduled_at: dateTime,
      scheduled_timezone: str,
      daily_cap_bypass: bool,
    }),
  ),
  standardError: {
    type: "object",
    required: ["error", "code"],
    properties: { error: str, code: str, correlationId: str, details: { type: ["array", "object"] } },
    additionalProperties: false,
  },
  validationError: {
    type: "object",
    required: ["error", "code", "details"],
    properties: {
      error: str,
      code: { const: "VALIDATION_ERROR" },
      correlationId: str,
      details: {
        type: "array",
        minItems: 1,
        items: obj({
          code: str,
          path: { type: "array", items: { type: ["string", "integer"] } },
          message: str,
        }),
      },
    },
    additionalProperties: false,
  },
  authError: obj({ error: str, message: str }, false),
  rateLimitError: obj(
    {
      success: { const: false },
      error: str,
      message: str,
      code: { const: "RATE_LIMIT_EXCEEDED" },
      statusCode: { const: 429 },
      retryAfter: int,
    },
    false,
  ),
} as const;

/** ajv 2020-12, every error, not strict, every ajv-formats format. */
const OPTIONS: ShapeOptions = { ajv: { allErrors: true, strict: false }, formats: true };

/** Asserts that `body` has the contract's shape `name`, showing ajv's errors on failure. */
export function expectShape(name: keyof typeof SHAPES, body: unknown): void {
  const schema: object | undefined = SHAPES[name];
  if (schema === undefined) throw new Error(`no shape ${name}`);
  // Compiled at its first use (in any worker, any pass), then loaded from the tests' validator cache.
  const validate = shapeValidator(`contract-${name}`, schema, OPTIONS);
  const valid = validate(body);
  expect(valid ? [] : validate.errors, `${name}: ${JSON.stringify(body)?.slice(0, 400)}`).toEqual([]);
}
