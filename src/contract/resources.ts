/**
 * Resource shapes of the API contract (v1.4.0) and the vendor-SDK facts of design.md. Shared by the
 * client and the sandbox; field names are the wire names. Timestamps are ISO 8601 strings.
 */
import type {
  EmailCampaignStatus,
  EventKind,
  OwnerType,
  PhoneChannel,
  ProjectStatus,
  ScheduleTimezone,
} from "./limits.js";

/** Success envelope of every JSON response. */
export interface Envelope<T> {
  success: true;
  data: T;
}

/** Cursor page (conversations, thread messages, email campaigns): `next_cursor` null on the last page. */
export interface CursorPage<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** GET /projects/{id}. Invariant: `channel` is `10dlc` or `toll-free`; survey projects carry `questions`. */
export interface Project {
  project_id: string;
  organization_id: string;
  channel: string;
  brand_id: string;
  campaign_id: string;
  toll_free_verification_id: string | null;
  phone_number_ids: string[];
  name: string;
  status: ProjectStatus;
  type: "broadcast" | "survey";
  protocol: string;
  message_text: string;
  contact_list_ids: string[];
  suppression_list_ids: string[];
  media_ids: string[];
  media_urls: string[];
  link_tracking_enabled: boolean;
  link_tracking_destination_url: string;
  link_tracking_domain_id: string;
  link_tracking_param_field: string;
  link_tracking_fallback_url: string | null;
  opt_out_footer_enabled: boolean;
  ai_survey_analysis_enabled: boolean;
  total_recipients: number;
  estimated_cost_cents: number;
  scheduled_at: string | null;
  scheduled_timezone: string | null;
  created_via_api: boolean;
  created_at: string;
  updated_at: string;
  /** Survey projects only; element fields are not shown by the contract. */
  questions?: unknown[];
  /** Stored by pause; returned on GET (contract: POST /projects/{id}/pause). */
  pause_reason?: string | null;
  /** Stored by schedule; persists for the life of the project. */
  daily_cap_bypass?: boolean;
}

/** One row of GET /projects/stats `data.projects[]`. */
export interface ProjectStatsRow {
  id: string;
  name: string;
  status: ProjectStatus;
  protocol: string;
  type: string;
  channel: string;
  organization_id: string;
  brand_id: string;
  campaign_id: string;
  total_recipients: number;
  messages_sent: number;
  messages_delivered: number;
  messages_failed: number;
  messages_opted_out: number;
  replies_received: number;
  survey_responses_count: number;
  survey_completion_count: number;
  total_url_clicks: number;
  unique_url_clicks: number;
  url_share_count: number;
  /** Decimal string with 4 decimals, e.g. "12.3400". */
  actual_cost: string;
  created_at: string;
  completed_at: string | null;
  updated_at: string;
  organization_name: string;
  brand_name: string;
  campaign_name: string;
}

export interface ProjectStats {
  projects: ProjectStatsRow[];
  summary: {
    totalProjects: number;
    organizationCount: number;
    brandCount: number;
    campaignCount: number;
    statusBreakdown: { draft: number; active: number; completed: number; paused: number };
    messageStats: {
      totalRecipients: number;
      totalSent: number;
      totalDelivered: number;
      totalFailed: number;
      totalOptedOut: number;
      totalReplies: number;
      totalUrlClicks: number;
      totalUniqueUrlClicks: number;
      totalUrlShares: number;
      totalActualCost: number;
    };
    dateRange: { earliestProject: string | null; latestProject: string | null };
  };
  pagination: { limit: number; offset: number; totalCount: number; hasMore: boolean };
  dateRange: { startDate: string; endDate: string };
}

export interface PhoneNumber {
  id: string;
  number: string;
  channel: PhoneChannel;
  owner_type: OwnerType;
  campaign_id: string | null;
  campaign_name: string | null;
  brand_id: string | null;
  brand_name: string | null;
  toll_free_verification_id: string | null;
  toll_free_registration_name: string | null;
  tf_verification_status: string | null;
  org_id: string;
  org_name: string;
  status: string;
  created_at: string;
  shared: boolean;
  nickname: string | null;
}

export interface TollFreeVerification {
  id: string;
  name: string;
  status: string;
  verification_request_id: string;
  org_id: string;
  org_name: string;
  business_name: string;
  use_case: string;
  phone_number_count: number;
  phone_number_ids: string[];
  rejection_reason: string | null;
  submitted_at: string;
  verified_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface MediaFile {
  media_id: string;
  organization_id: string;
  brand_id: string;
  name: string;
  status: string;
  content_type: string;
  file_size_bytes: number;
  storage_key: string;
  url: string;
  uploaded_via_api: boolean;
  created_at: string;
  optimized_at: string | null;
}

/** A 10DLC carrier registration (GET /campaigns); called `tenDlcCampaign` in code. */
export interface TenDlcCampaign {
  id: string;
  name: string;
  brand_id: string;
  brand_name: string;
  org_id: string;
  org_name: string;
  campaign_status: string;
  created_at: string;
}

export interface ContactList {
  id: string;
  name: string;
  brand_id: string;
  brand_name: string;
  org_id: string;
  org_name: string;
  created_at: string;
}

/** GET /organizations item (design.md, vendor SDK). */
export interface Organization {
  id: string;
  display_name: string;
  parent_org_name: string | null;
  status: string;
  created_at: string;
}

export interface EmailCampaign {
  id: string;
  sender_identity_id: string;
  tracking_domain_id: string;
  name: string;
  status: EmailCampaignStatus;
  list_ids: string[];
  suppression_list_ids: string[];
  tracking_domain: { id: string; domain: string; status: string };
  require_approval: boolean;
  recipient_policy: string;
  approval_status: string;
  last_tested_at: string | null;
  scheduled_at: string | null;
  started_at: string | null;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
  refcode: string;
  source_code: string;
  timezone: string;
  pause_reason: string;
  audience_count: number;
  counts: {
    queued: number;
    sent: number;
    delivered: number;
    bounced: number;
    complained: number;
    unsubscribed: number;
    opened: number;
    clicked: number;
    failed: number;
  };
  blocked: { code: string; message: string }[];
}

export interface SendingDomain {
  id: string;
  domain: string;
  status: string;
  dns_records: { type: string; name: string; value: string; purpose: string }[];
  verification: { dkim: string; mail_from: string; dmarc: string };
  error_message: string;
  last_checked_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface BulkUpsertRow {
  index: number;
  email: string;
  status: "accepted" | "rejected" | "duplicate";
  reason: string | null;
}

export interface BulkUpsertResult {
  written: number;
  accepted: number;
  rejected: number;
  duplicates: number;
  results: BulkUpsertRow[];
}

/** Conversation (design.md, vendor SDK). */
export interface Conversation {
  conversation_id: string;
  project_id: string;
  from: string;
  to: string;
  status: "active" | "inactive" | "opted_out";
  opted_out: boolean;
  is_test: boolean;
  contact: { phone_number: string };
  inbound_messages: number;
  outbound_messages: number;
  first_message_at: string;
  last_inbound_at: string | null;
  last_outbound_at: string | null;
  created_at: string;
}

export type ThreadMessageStatus =
  | "unsent"
  | "queued"
  | "sending"
  | "sent"
  | "delivered"
  | "failed"
  | "received"
  | "on_hold";

export interface ThreadMessage {
  message_id: string;
  direction: "inbound" | "outbound";
  text: string;
  media_urls: string[];
  status: ThreadMessageStatus;
  sent_at: string | null;
  delivered_at: string | null;
  received_at?: string | null;
  error_code: string | null;
}

/** POST /conversations/{id}/messages, 202. */
export interface ReplyResult {
  message_id: string;
  conversation_id: string;
  project_id: string;
  from: string;
  to: string;
  text: string;
  created_at: string;
}

/** POST /projects/{id}/test body and 202 response. */
export interface TestContact {
  phone: string;
  merge_values?: Record<string, string>;
}
export interface TestRequest {
  test_contacts: TestContact[];
}
export interface TestResponse {
  project_id: string;
  status: "awaiting_test";
  test_messages: { test_message_id: string; sent_to: string }[];
}

/** POST /projects/{id}/schedule body and response. */
export interface ScheduleRequest {
  scheduled_at: string;
  scheduled_timezone: ScheduleTimezone;
  daily_cap_bypass: boolean;
}
export interface ScheduleResponse {
  project_id: string;
  status: "scheduled";
  scheduled_at: string;
  scheduled_timezone: ScheduleTimezone;
  daily_cap_bypass: boolean;
}

/** POST /projects/{id}/pause body; `data` of the response is not shown by the contract. */
export interface PauseRequest {
  reason?: string;
}

export interface WebhookDeliveryHeaders {
  "x-webhook-signature": string;
  "x-event-type": EventKind;
  "x-event-id": string;
  "x-timestamp": string;
}
