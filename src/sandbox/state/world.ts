/**
 * The sandbox's whole state: one typed, JSON-serializable object. Every collection is a record keyed
 * by id (insertion order kept), so lookups are O(1) and persistence is `JSON.stringify`. Phase-2
 * features add collections here (and a default in `emptyWorld`), never a second store.
 */

import type { EventKind, KeyType, PhoneChannel, ProjectStatus } from "../../contract/limits.js";
import type { EmailCampaign, SendingDomain } from "../../contract/resources.js";

/** Invariant: `parent_id` names an organization of the same world; the parent graph is a forest. */
export interface OrganizationRecord {
  id: string;
  name: string;
  parent_id: string | null;
  status: string;
  created_at: string;
  merge_defaults: Record<string, string>;
  balance_cents: number;
  email_available: boolean;
  custom_fields: string[];
}

/** Invariant: `key` begins with `pc_live_`; `id` is what logs show, never `key`. */
export interface ApiKeyRecord {
  id: string;
  key: string;
  name: string;
  organization_id: string;
  type: KeyType;
  scopes: string[];
  revoked: boolean;
  expires_at: string | null;
}

export interface BrandRecord {
  id: string;
  name: string;
  organization_id: string;
  /** Per-brand daily carrier cap (messages per Pacific day); null: not metered. */
  daily_cap: number | null;
  created_at: string;
}

export interface TenDlcCampaignRecord {
  id: string;
  name: string;
  brand_id: string;
  organization_id: string;
  campaign_status: string;
  created_at: string;
}

export interface TollFreeVerificationRecord {
  id: string;
  name: string;
  organization_id: string;
  status: string;
  verification_request_id: string;
  business_name: string;
  use_case: string;
  rejection_reason: string | null;
  submitted_at: string;
  verified_at: string | null;
  created_at: string;
  updated_at: string;
}

/** `owner_type` is derived: campaign_id set -> campaign, toll_free_verification_id set -> registration. */
export interface PhoneNumberRecord {
  id: string;
  number: string;
  channel: PhoneChannel;
  organization_id: string;
  campaign_id: string | null;
  toll_free_verification_id: string | null;
  status: string;
  created_at: string;
  shared_with: { organization_id: string; nickname: string | null }[];
}

export interface TrackingDomainRecord {
  id: string;
  domain: string;
  organization_id: string;
  status: string;
  created_at: string;
}

/** A contact: E.164 phone, merge fields (standard and custom) and opt-out state. */
export interface ContactRecord {
  phone: string;
  fields: Record<string, string>;
  opted_out: boolean;
}

export interface ContactListRecord {
  id: string;
  name: string;
  organization_id: string;
  brand_id: string;
  created_at: string;
  contacts: ContactRecord[];
}

export interface MediaRecord {
  id: string;
  name: string;
  organization_id: string;
  brand_id: string;
  status: string;
  content_type: string;
  file_size_bytes: number;
  storage_key: string;
  url: string;
  uploaded_via_api: boolean;
  created_at: string;
  optimized_at: string | null;
}

/** Per-project delivery counters (stats rows); phase 2's send simulation moves them. */
export interface ProjectCounters {
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
  /** Actual cost in ten-thousandths of a dollar (stats render it as a 4-decimal string). */
  actual_cost_e4: number;
}

/**
 * A live project: the contract's fields plus sandbox-internal ones. Invariant: `updated_at` changes
 * on every change of any field and is what both GET /projects/{id} and the stats rows return.
 */
export interface ProjectRecord {
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
  questions?: unknown[];
  pause_reason: string | null;
  daily_cap_bypass: boolean;
  completed_at: string | null;
  counters: ProjectCounters;
}

/** Phase 2 owns the behaviour; the shape is fixed now so fixtures can carry threads. */
export interface ConversationMessageRecord {
  message_id: string;
  direction: "inbound" | "outbound";
  text: string;
  media_urls: string[];
  status: string;
  at: string;
  error_code: string | null;
}

export interface ConversationRecord {
  conversation_id: string;
  project_id: string;
  organization_id: string;
  phone_number_id: string | null;
  from: string;
  to: string;
  opted_out: boolean;
  is_test: boolean;
  created_at: string;
  messages: ConversationMessageRecord[];
}

export interface EmailListRecord {
  id: string;
  name: string;
  organization_id: string;
  contacts: { email: string; fields: Record<string, unknown>; consent_source: string | null }[];
}

export type EmailCampaignRecord = EmailCampaign & { organization_id: string };
export type SendingDomainRecord = SendingDomain & { organization_id: string };

export interface WebhookEndpointRecord {
  id: string;
  organization_id: string;
  name: string;
  url: string;
  secret: string;
  events: EventKind[];
}

/** A test message the sandbox "sent" (`GET /_sandbox/test-messages`). */
export interface TestMessageRecord {
  test_message_id: string;
  project_id: string;
  to: string;
  sent_to: string;
  from: string | null;
  text: string;
  media_urls: string[];
  rendered_from: "sample_contact" | "merge_values" | "empty";
  created_at: string;
}

export type EffectKind = "test" | "schedule" | "pause" | "approve" | "edit";

/** One state-changing effect, for exactly-once assertions (`GET /_sandbox/effects`). */
export interface EffectRecord {
  seq: number;
  kind: EffectKind;
  project_id: string;
  at: string;
  /** False when the request succeeded without changing anything (pausing a paused project again). */
  changed: boolean;
  idempotency_key: string | null;
}

/** A stored idempotent response. Invariant: `state` is `running` only while its request is in flight. */
export interface IdempotencyRecord {
  scope: string;
  fingerprint: string;
  created_at_ms: number;
  state: "running" | "done";
  status: number;
  body: unknown;
}

/**
 * An event in the outbox: every webhook-worthy happening (a message sent, delivered or failed, a
 * reply from a contact, a link click). Producers append with `emitEvent` (`events/outbox.ts`); the
 * webhook dispatcher delivers each to the endpoints of the event's organization (and its ancestors)
 * subscribed to its kind. Invariant: `id` unique; `payload` is the exact JSON body delivered.
 */
export interface EventRecord {
  id: string;
  kind: EventKind;
  organization_id: string;
  payload: Record<string, unknown>;
  created_at: string;
}

export interface World {
  organizations: Record<string, OrganizationRecord>;
  apiKeys: Record<string, ApiKeyRecord>;
  brands: Record<string, BrandRecord>;
  tenDlcCampaigns: Record<string, TenDlcCampaignRecord>;
  tollFreeVerifications: Record<string, TollFreeVerificationRecord>;
  phoneNumbers: Record<string, PhoneNumberRecord>;
  trackingDomains: Record<string, TrackingDomainRecord>;
  contactLists: Record<string, ContactListRecord>;
  suppressionLists: Record<string, ContactListRecord>;
  media: Record<string, MediaRecord>;
  projects: Record<string, ProjectRecord>;
  conversations: Record<string, ConversationRecord>;
  emailLists: Record<string, EmailListRecord>;
  emailCampaigns: Record<string, EmailCampaignRecord>;
  sendingDomains: Record<string, SendingDomainRecord>;
  webhookEndpoints: Record<string, WebhookEndpointRecord>;
  testMessages: TestMessageRecord[];
  /** The event outbox, oldest first (see `EventRecord`). */
  events: EventRecord[];
  effects: EffectRecord[];
  idempotency: Record<string, IdempotencyRecord>;
  /** Monotonic counter for deterministic ids and effect sequence numbers. */
  seq: number;
}

export function emptyWorld(): World {
  return {
    organizations: {},
    apiKeys: {},
    brands: {},
    tenDlcCampaigns: {},
    tollFreeVerifications: {},
    phoneNumbers: {},
    trackingDomains: {},
    contactLists: {},
    suppressionLists: {},
    media: {},
    projects: {},
    conversations: {},
    emailLists: {},
    emailCampaigns: {},
    sendingDomains: {},
    webhookEndpoints: {},
    testMessages: [],
    events: [],
    effects: [],
    idempotency: {},
    seq: 0,
  };
}
