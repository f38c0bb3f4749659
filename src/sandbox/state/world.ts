/**
 * The sandbox's whole state: one typed, JSON-serializable object. Every collection is a record keyed
 * by id (insertion order kept), so lookups are O(1) and persistence is `JSON.stringify`. Phase-2
 * features add collections here (and a default in `emptyWorld`), never a second store.
 */

import type { EventKind, KeyType, PhoneChannel } from "../../contract/limits.js";
import type { EmailCampaign, Project, ProjectStatsRow, SendingDomain } from "../../contract/resources.js";
import { dict, toDict } from "../dict.js";

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

/** Per-project delivery counters: the stats row's counts, with the cost kept exact. */
export type ProjectCounters = Pick<
  ProjectStatsRow,
  | "messages_sent"
  | "messages_delivered"
  | "messages_failed"
  | "messages_opted_out"
  | "replies_received"
  | "survey_responses_count"
  | "survey_completion_count"
  | "total_url_clicks"
  | "unique_url_clicks"
  | "url_share_count"
> & {
  /** Actual cost in ten-thousandths of a dollar (stats render it as a 4-decimal string). */
  actual_cost_e4: number;
};

/**
 * A live project: the contract's fields plus sandbox-internal ones. Invariant: `updated_at` changes
 * on every change of any field and is what both GET /projects/{id} and the stats rows return.
 */
export interface ProjectRecord extends Omit<Project, "pause_reason" | "daily_cap_bypass"> {
  /** Stored by pause (default `manual`); null while not paused by a person or the daily cap. */
  pause_reason: string | null;
  /** Stored by schedule; persists for the life of the project. */
  daily_cap_bypass: boolean;
  completed_at: string | null;
  counters: ProjectCounters;
  /** Deleted in the dashboard (fixture or `PATCH /_sandbox/projects/{id}`): replies get 409 PROJECT_DELETED. */
  deleted?: boolean;
}

/**
 * One message of a thread. `at` is when it was created (outbound) or received (inbound). The
 * optional members are set by the reply pipeline (`conversations/`); when absent, views derive
 * `sent_at`/`delivered_at` from `status` and `at`.
 */
export interface ConversationMessageRecord {
  message_id: string;
  direction: "inbound" | "outbound";
  text: string;
  media_urls: string[];
  status: string;
  at: string;
  error_code: string | null;
  sent_at?: string | null;
  delivered_at?: string | null;
  /** A reply still moving on the virtual clock: when it goes `sent`, then its final outcome. */
  pending?: ReplyProgress;
}

/** The planned course of a queued reply (deterministic by seed and message id). */
export interface ReplyProgress {
  sent_at: string;
  final_at: string;
  outcome: "delivered" | "failed";
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
  contacts: {
    email: string;
    fields: Record<string, unknown>;
    consent_source: string | null;
    consent_at?: string | null;
    /** Additional properties of the upserted row (the contract allows them). */
    extra?: Record<string, unknown>;
  }[];
}

/**
 * An email address that must not be mailed by an organization (and its descendants). Invariant:
 * `email` is lower-case; suppressions survive re-imports of lists (a bulk upsert never removes one).
 */
export interface EmailSuppressionRecord {
  id: string;
  organization_id: string;
  email: string;
  reason: string;
  created_at: string;
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

/** A reply the simulation drew for a sent message; `done` once the inbound was received. */
/**
 * The contact's clicks on the message's link, drawn at send time: the first at `at`, a second at
 * `repeat_at` (null: none); `done` counts the clicks applied so far (0, 1 or 2).
 */
export interface SimulatedClick {
  at: string;
  repeat_at: string | null;
  done: number;
}

export interface SimulatedReply {
  at: string;
  text: string;
  done: boolean;
}

/**
 * A project message the send simulation sent (`GET /_sandbox/messages`). Invariant: `status` is
 * `sent` until `receipt_at`, then `delivered` or `failed` (`error_code` set); every sent message is
 * billed (`cost_e4`), failed ones too.
 */
export interface SentMessageRecord {
  message_id: string;
  project_id: string;
  organization_id: string;
  brand_id: string;
  phone_number_id: string | null;
  from: string;
  to: string;
  text: string;
  media_urls: string[];
  segments: number;
  cost_e4: number;
  status: "sent" | "delivered" | "failed";
  /** The failure drawn at send time (applied at `receipt_at`), null for a delivery. */
  error_code: string | null;
  /** Sent while the brand was over its daily cap (bypass on). */
  over_cap: boolean;
  sent_at: string;
  receipt_at: string;
  delivered_at: string | null;
  failed_at: string | null;
  /** Set when the contact replied (the conversation the reply opened). */
  conversation_id: string | null;
  reply: SimulatedReply | null;
  /** The link clicks drawn for a delivered message with a link; absent in state saved before clicks were simulated. */
  click?: SimulatedClick | null;
}

/** One recipient of a compiled audience: the phone and the contact list its fields come from. */
export interface SendRecipient {
  phone: string;
  list_id: string;
}

/**
 * A project's compiled audience and sending progress (one per project that went active through the
 * simulation). Invariant: `next_index <= recipients.length`; `next_batch_at` is null unless active.
 */
export interface SendPlanRecord {
  project_id: string;
  compiled_at: string;
  recipients: SendRecipient[];
  next_index: number;
  next_batch_at: string | null;
}

/** One webhook delivery attempt; `status_code` null when the request failed (`error`). */
export interface WebhookAttemptRecord {
  attempt: number;
  at: string;
  status_code: number | null;
  error: string | null;
}

/** The delivery of one event to one endpoint (`GET /_sandbox/webhooks/deliveries`). */
export interface WebhookDeliveryRecord {
  delivery_id: string;
  event_id: string;
  event_kind: EventKind;
  endpoint_id: string;
  url: string;
  state: "pending" | "delivered" | "missed";
  attempts: WebhookAttemptRecord[];
  /** When the next attempt is due (pending only). */
  next_attempt_at: string | null;
}

/**
 * The whole state. Invariant: every `Record` collection keyed by an id is a null-prototype object
 * (`dict()`), so an id such as `__proto__` is an ordinary missing key.
 */
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
  emailSuppressions: Record<string, EmailSuppressionRecord>;
  webhookEndpoints: Record<string, WebhookEndpointRecord>;
  testMessages: TestMessageRecord[];
  /** The event outbox, oldest first (see `EventRecord`). */
  events: EventRecord[];
  effects: EffectRecord[];
  /** Project messages the send simulation sent, by message_id (send order). */
  messages: Record<string, SentMessageRecord>;
  /** Compiled audiences and sending progress, by project_id. */
  sendPlans: Record<string, SendPlanRecord>;
  /** The webhook delivery log, oldest first. */
  webhookDeliveries: WebhookDeliveryRecord[];
  /** How many events of `events` the webhook dispatcher has fanned out to deliveries. */
  webhookCursor: number;
  idempotency: Record<string, IdempotencyRecord>;
  /** Monotonic counter for deterministic ids and effect sequence numbers. */
  seq: number;
}

export function emptyWorld(): World {
  return {
    organizations: dict(),
    apiKeys: dict(),
    brands: dict(),
    tenDlcCampaigns: dict(),
    tollFreeVerifications: dict(),
    phoneNumbers: dict(),
    trackingDomains: dict(),
    contactLists: dict(),
    suppressionLists: dict(),
    media: dict(),
    projects: dict(),
    conversations: dict(),
    emailLists: dict(),
    emailCampaigns: dict(),
    sendingDomains: dict(),
    emailSuppressions: dict(),
    webhookEndpoints: dict(),
    testMessages: [],
    events: [],
    effects: [],
    messages: dict(),
    sendPlans: dict(),
    webhookDeliveries: [],
    webhookCursor: 0,
    idempotency: dict(),
    seq: 0,
  };
}

/**
 * A world read back from a state file: collections added since the file was written start empty,
 * and every id-keyed collection becomes a null-prototype record again (JSON.parse makes plain ones).
 */
export function reviveWorld(saved: Partial<World>): World {
  const world: World = { ...emptyWorld(), ...saved };
  const slots = world as unknown as Record<string, unknown>;
  for (const [name, empty] of Object.entries(emptyWorld()))
    if (typeof empty === "object" && empty !== null && !Array.isArray(empty))
      slots[name] = toDict(slots[name] as Record<string, unknown> | undefined);
  return world;
}
