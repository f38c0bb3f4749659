/**
 * The JSON Schemas (2020-12) of the API's success answers (`data` of the envelope), by name: the one
 * writing of the contract's answer shapes (api-contract.md Resources, and the vendor SDK's of
 * design.md where the contract shows none), as src/contract/resources.ts types them. Each endpoint
 * names the schema of its answer (endpoints.ts), and the client checks every 2xx `data` with the
 * validator the build generated from it (scripts/gen-validators.mjs writes
 * src/api/generated/validate-responses.ts as ajv standalone code) before any caller reads it. An
 * answer that does not fit is `malformed-response`, as a body that is not JSON is: never a crash
 * deep in a caller, never a decision made on a field that is not there.
 *
 * What is checked: every field the contract declares (not optional) present, with its type and
 * nullability; statuses from their closed lists (src/contract/limits.ts). Fields the API adds are
 * allowed. Formats (date-times, phone numbers, the cost's decimals) are not the client's to refuse:
 * it parses what it uses and says so per value (a cost that is not a decimal is
 * `results.row-unrecordable`). The sandbox's tests hold the sandbox to those too, on top of these
 * schemas (test/sandbox/contract-shapes.ts). Answers the contract does not show
 * (`POST /projects/{id}/pause`) have no schema. Data only: the generator loads this module (and the
 * limits it reads) at build time.
 */
import {
  EMAIL_CAMPAIGN_STATUSES,
  OWNER_TYPES,
  PHONE_CHANNELS,
  PROJECT_STATUSES,
  STATS_ROW_COUNTERS,
} from "../contract/limits.js";

const string = { type: "string" };
const strings = { type: "array", items: string };
const nullableString = { type: ["string", "null"] };
const integer = { type: "integer" };
const boolean = { type: "boolean" };

/** An object with every one of `properties` required but those named `optional` (the API may add more). */
function all(properties: Record<string, unknown>, optional: readonly string[] = []): Record<string, unknown> {
  return {
    type: "object",
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    properties,
  };
}

/** Every one of `names` an integer. */
const integers = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, integer]));
/** Every one of `names` a string. */
const stringsNamed = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, string]));

/** A cursor page of `item`. */
function page(item: Record<string, unknown>): Record<string, unknown> {
  return all({ data: { type: "array", items: item }, has_more: boolean, next_cursor: nullableString });
}

const project = all({
  ...stringsNamed(["project_id", "organization_id", "channel", "brand_id", "campaign_id"]),
  toll_free_verification_id: nullableString,
  phone_number_ids: strings,
  name: string,
  status: { enum: [...PROJECT_STATUSES] },
  type: { enum: ["broadcast", "survey"] },
  protocol: string,
  message_text: string,
  contact_list_ids: strings,
  suppression_list_ids: strings,
  media_ids: strings,
  media_urls: strings,
  link_tracking_enabled: boolean,
  ...stringsNamed(["link_tracking_destination_url", "link_tracking_domain_id", "link_tracking_param_field"]),
  link_tracking_fallback_url: nullableString,
  opt_out_footer_enabled: boolean,
  ai_survey_analysis_enabled: boolean,
  ...integers(["total_recipients", "estimated_cost_cents"]),
  scheduled_at: nullableString,
  scheduled_timezone: nullableString,
  created_via_api: boolean,
  created_at: string,
  updated_at: string,
});

const statsRow = all({
  ...stringsNamed([
    "id",
    "name",
    "protocol",
    "type",
    "channel",
    "organization_id",
    "brand_id",
    "campaign_id",
  ]),
  status: { enum: [...PROJECT_STATUSES] },
  ...integers(STATS_ROW_COUNTERS),
  actual_cost: string,
  created_at: string,
  completed_at: nullableString,
  updated_at: string,
  ...stringsNamed(["organization_name", "brand_name", "campaign_name"]),
});

const conversation = all({
  conversation_id: string,
  project_id: string,
  from: string,
  to: string,
  status: { enum: ["active", "inactive", "opted_out"] },
  opted_out: boolean,
  is_test: boolean,
  contact: all({ phone_number: string }),
  ...integers(["inbound_messages", "outbound_messages"]),
  first_message_at: string,
  last_inbound_at: nullableString,
  last_outbound_at: nullableString,
  created_at: string,
});

const threadMessage = all(
  {
    message_id: string,
    direction: { enum: ["inbound", "outbound"] },
    text: string,
    media_urls: strings,
    status: { enum: ["unsent", "queued", "sending", "sent", "delivered", "failed", "received", "on_hold"] },
    sent_at: nullableString,
    delivered_at: nullableString,
    received_at: nullableString,
    error_code: nullableString,
  },
  ["received_at"],
);

const emailCampaign = all({
  ...stringsNamed(["id", "sender_identity_id", "tracking_domain_id", "name"]),
  status: { enum: [...EMAIL_CAMPAIGN_STATUSES] },
  list_ids: strings,
  suppression_list_ids: strings,
  tracking_domain: all({ id: string, domain: string, status: string }),
  require_approval: boolean,
  recipient_policy: string,
  approval_status: string,
  last_tested_at: nullableString,
  scheduled_at: nullableString,
  started_at: nullableString,
  completed_at: nullableString,
  created_at: string,
  updated_at: string,
  ...stringsNamed(["refcode", "source_code", "timezone", "pause_reason"]),
  audience_count: integer,
  counts: all(
    integers([
      "queued",
      "sent",
      "delivered",
      "bounced",
      "complained",
      "unsubscribed",
      "opened",
      "clicked",
      "failed",
    ]),
  ),
  blocked: { type: "array", items: all({ code: string, message: string }) },
});

/** Each success answer's schema, by the name its endpoint gives. */
export const RESPONSE_SCHEMAS = {
  /** `GET /projects/{id}`. */
  project,
  /** `GET /projects/stats`. */
  projectStats: all({
    projects: { type: "array", items: statsRow },
    summary: all({
      ...integers(["totalProjects", "organizationCount", "brandCount", "campaignCount"]),
      statusBreakdown: all(integers(["draft", "active", "completed", "paused"])),
      messageStats: all({
        ...integers([
          "totalRecipients",
          "totalSent",
          "totalDelivered",
          "totalFailed",
          "totalOptedOut",
          "totalReplies",
          "totalUrlClicks",
          "totalUniqueUrlClicks",
          "totalUrlShares",
        ]),
        totalActualCost: { type: "number" },
      }),
      dateRange: all({ earliestProject: nullableString, latestProject: nullableString }),
    }),
    pagination: all({ ...integers(["limit", "offset", "totalCount"]), hasMore: boolean }),
    dateRange: all({ startDate: string, endDate: string }),
  }),
  /** `GET /organizations`. */
  organizations: {
    type: "array",
    items: all({
      id: string,
      display_name: string,
      parent_org_name: nullableString,
      status: string,
      created_at: string,
    }),
  },
  /** `GET /campaigns` (10DLC registrations). */
  tenDlcCampaigns: {
    type: "array",
    items: all(
      stringsNamed([
        "id",
        "name",
        "brand_id",
        "brand_name",
        "org_id",
        "org_name",
        "campaign_status",
        "created_at",
      ]),
    ),
  },
  /** `GET /contact-lists`. */
  contactLists: {
    type: "array",
    items: all(stringsNamed(["id", "name", "brand_id", "brand_name", "org_id", "org_name", "created_at"])),
  },
  /** `GET /phone-numbers`. */
  phoneNumbers: {
    type: "array",
    items: all({
      id: string,
      number: string,
      channel: { enum: [...PHONE_CHANNELS] },
      owner_type: { enum: [...OWNER_TYPES] },
      campaign_id: nullableString,
      campaign_name: nullableString,
      brand_id: nullableString,
      brand_name: nullableString,
      toll_free_verification_id: nullableString,
      toll_free_registration_name: nullableString,
      tf_verification_status: nullableString,
      ...stringsNamed(["org_id", "org_name", "status", "created_at"]),
      shared: boolean,
      nickname: nullableString,
    }),
  },
  /** `GET /toll-free-verifications/{id}`. */
  tollFreeVerification: all({
    ...stringsNamed([
      "id",
      "name",
      "status",
      "verification_request_id",
      "org_id",
      "org_name",
      "business_name",
      "use_case",
    ]),
    phone_number_count: integer,
    phone_number_ids: strings,
    rejection_reason: nullableString,
    submitted_at: string,
    verified_at: nullableString,
    created_at: string,
    updated_at: string,
  }),
  /** `GET /media/{id}`. */
  media: all({
    ...stringsNamed([
      "media_id",
      "organization_id",
      "brand_id",
      "name",
      "status",
      "content_type",
      "storage_key",
      "url",
    ]),
    file_size_bytes: integer,
    uploaded_via_api: boolean,
    created_at: string,
    optimized_at: nullableString,
  }),
  /** `GET /conversations`. */
  conversations: page(conversation),
  /** `GET /conversations/{id}/messages`. */
  threadMessages: page(threadMessage),
  /** `GET /email/campaigns`. */
  emailCampaigns: page(emailCampaign),
  /** `GET /email/domains/{id}`. */
  sendingDomain: all({
    id: string,
    domain: string,
    status: string,
    dns_records: { type: "array", items: all(stringsNamed(["type", "name", "value", "purpose"])) },
    verification: all(stringsNamed(["dkim", "mail_from", "dmarc"])),
    error_message: string,
    last_checked_at: nullableString,
    created_at: string,
    updated_at: string,
  }),
  /** `POST /projects/{id}/test`, 202. */
  testResult: all({
    project_id: string,
    status: string,
    test_messages: { type: "array", items: all({ test_message_id: string, sent_to: string }) },
  }),
  /** `POST /projects/{id}/schedule`. */
  scheduleResult: all({
    project_id: string,
    status: string,
    scheduled_at: string,
    scheduled_timezone: string,
    daily_cap_bypass: boolean,
  }),
  /** `POST /conversations/{id}/messages`, 202. */
  replyResult: all(
    stringsNamed(["message_id", "conversation_id", "project_id", "from", "to", "text", "created_at"]),
  ),
} as const;

/** A success answer's schema name. */
export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS;
