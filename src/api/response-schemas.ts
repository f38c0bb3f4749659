/**
 * The JSON Schemas (2020-12) of the API's success answers (`data` of the envelope), by name: each
 * endpoint names the schema of its answer (endpoints.ts), and the client checks every 2xx `data`
 * with the validator the build generated from it (scripts/gen-validators.mjs writes
 * src/api/generated/validate-responses.ts as ajv standalone code) before any caller reads it. An
 * answer that does not fit is `malformed-response`, as a body that is not JSON is: never a crash
 * deep in a caller, never a decision made on a field that is not there.
 *
 * What is checked is what src/contract/resources.ts declares (the contract's shapes, and the vendor
 * SDK's where the contract shows none): every field declared there (not optional) present with its
 * type, statuses from their closed lists (src/contract/limits.ts). Fields the API adds are allowed.
 * Answers the contract does not show (`POST /projects/{id}/pause`) have no schema. Data only: the
 * generator loads this module (and the limits it reads) at build time.
 */
import { EMAIL_CAMPAIGN_STATUSES, PROJECT_STATUSES } from "../contract/limits.js";

const string = { type: "string" };
const strings = { type: "array", items: string };
const nullableString = { type: ["string", "null"] };
const count = { type: "integer", minimum: 0 };
const boolean = { type: "boolean" };

/** An object with every one of `properties` required (the API may add more). */
function all(properties: Record<string, unknown>): Record<string, unknown> {
  return { type: "object", required: Object.keys(properties), properties };
}

/** A cursor page of `item`. */
function page(item: Record<string, unknown>): Record<string, unknown> {
  return all({ data: { type: "array", items: item }, has_more: boolean, next_cursor: nullableString });
}

const project = {
  ...all({
    project_id: string,
    organization_id: string,
    channel: string,
    brand_id: string,
    campaign_id: string,
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
    link_tracking_destination_url: string,
    link_tracking_domain_id: string,
    link_tracking_param_field: string,
    link_tracking_fallback_url: nullableString,
    opt_out_footer_enabled: boolean,
    ai_survey_analysis_enabled: boolean,
    total_recipients: count,
    estimated_cost_cents: count,
    scheduled_at: nullableString,
    scheduled_timezone: nullableString,
    created_via_api: boolean,
    created_at: string,
    updated_at: string,
  }),
};

const statsRow = all({
  id: string,
  name: string,
  status: { enum: [...PROJECT_STATUSES] },
  organization_id: string,
  organization_name: string,
  total_recipients: count,
  messages_sent: count,
  messages_delivered: count,
  messages_failed: count,
  messages_opted_out: count,
  replies_received: count,
  actual_cost: string,
  created_at: string,
  completed_at: nullableString,
  updated_at: string,
});

const conversation = all({
  conversation_id: string,
  project_id: string,
  status: { enum: ["active", "inactive", "opted_out"] },
  opted_out: boolean,
  is_test: boolean,
  contact: all({ phone_number: string }),
  last_inbound_at: nullableString,
  created_at: string,
});

const threadMessage = all({
  message_id: string,
  direction: { enum: ["inbound", "outbound"] },
  text: string,
  status: { enum: ["unsent", "queued", "sending", "sent", "delivered", "failed", "received", "on_hold"] },
});

const emailCampaign = all({
  id: string,
  name: string,
  status: { enum: [...EMAIL_CAMPAIGN_STATUSES] },
  list_ids: strings,
  suppression_list_ids: strings,
  require_approval: boolean,
  approval_status: string,
  last_tested_at: nullableString,
  scheduled_at: nullableString,
  counts: all(
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
      ].map((k) => [k, count]),
    ),
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
    pagination: all({ limit: count, offset: count, totalCount: count, hasMore: boolean }),
  }),
  /** `GET /organizations`. */
  organizations: {
    type: "array",
    items: all({ id: string, display_name: string, parent_org_name: nullableString, status: string }),
  },
  /** `GET /campaigns` (10DLC registrations). */
  tenDlcCampaigns: {
    type: "array",
    items: all({ id: string, name: string, brand_id: string, org_id: string, campaign_status: string }),
  },
  /** `GET /contact-lists`. */
  contactLists: { type: "array", items: all({ id: string, name: string, brand_id: string, org_id: string }) },
  /** `GET /phone-numbers`. */
  phoneNumbers: {
    type: "array",
    items: all({ id: string, number: string, org_id: string, status: string, campaign_id: nullableString }),
  },
  /** `GET /toll-free-verifications/{id}`. */
  tollFreeVerification: all({ id: string, name: string, status: string, org_id: string }),
  /** `GET /media/{id}`. */
  media: all({ media_id: string, organization_id: string, name: string, status: string }),
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
    dns_records: {
      type: "array",
      items: all({ type: string, name: string, value: string, purpose: string }),
    },
    verification: all({ dkim: string, mail_from: string, dmarc: string }),
  }),
  /** `POST /projects/{id}/test`, 202. */
  testResult: all({ project_id: string, status: string }),
  /** `POST /projects/{id}/schedule`. */
  scheduleResult: all({ project_id: string, status: string, scheduled_at: string }),
  /** `POST /conversations/{id}/messages`, 202. */
  replyResult: all({ message_id: string, conversation_id: string }),
} as const;

/** A success answer's schema name. */
export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS;
