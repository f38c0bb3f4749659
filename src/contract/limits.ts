/**
 * Limits and closed value sets of the API contract (v1.4.0), shared by the client, the planner and
 * the sandbox. Each constant cites the contract's table it comes from. Nothing here does IO.
 */

export const API_VERSION = "1.4.0";

/** `POST /projects/{id}/schedule`: the six accepted `scheduled_timezone` values. */
export const SCHEDULE_TIMEZONES = [
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Los_Angeles",
  "America/Anchorage",
  "Pacific/Honolulu",
] as const;
export type ScheduleTimezone = (typeof SCHEDULE_TIMEZONES)[number];

/** Limits table: test_contacts per test. */
export const TEST_CONTACTS_MIN = 1;
export const TEST_CONTACTS_MAX = 50;
/** Limits table: pause reason length. */
export const PAUSE_REASON_MIN = 1;
export const PAUSE_REASON_MAX = 100;
export const PAUSE_REASON_DEFAULT = "manual";
/** Limits table: reply text. */
export const REPLY_TEXT_MAX = 1600;
/** Limits table: idempotency key. */
export const IDEMPOTENCY_KEY_MIN = 16;
export const IDEMPOTENCY_KEY_MAX = 200;
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Limits table: rate limit per key type, 60-second sliding window. */
export const RATE_WINDOW_MS = 60_000;
export const RATE_LIMITS = { "read-write": 100, "write-only": 60, "delete-only": 30 } as const;
export type KeyType = keyof typeof RATE_LIMITS;
/** Limits table: contacts per bulk upsert, email and consent lengths. */
export const BULK_UPSERT_MIN = 1;
export const BULK_UPSERT_MAX = 1000;
export const EMAIL_MAX = 320;
export const CONSENT_SOURCE_MAX = 255;
/** Limits table: project stats. */
export const STATS_MAX_RANGE_DAYS = 31;
export const STATS_MAX_AGE_DAYS = 90;
export const STATS_LIMIT_MIN = 1;
export const STATS_LIMIT_MAX = 1000;
export const STATS_LIMIT_DEFAULT = 100;
/** Limits table: email campaigns page. */
export const EMAIL_PAGE_MIN = 1;
export const EMAIL_PAGE_MAX = 200;
export const CURSOR_MAX = 4096;
export const NAME_FILTER_MAX = 255;
/** Limits table: conversations list. */
export const CONVERSATIONS_DEFAULT_DAYS = 7;
export const CONVERSATIONS_MAX_DAYS = 90;
/** design.md: cursor pages take `limit` 1 to 200, default 50. */
export const CURSOR_PAGE_DEFAULT = 50;
export const CURSOR_PAGE_MAX = 200;
/** Webhooks: four delivery attempts; test endpoint answers within 10 seconds. */
export const WEBHOOK_ATTEMPTS = 4;
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** Production keys begin with this prefix (design.md, "Names the contract leaves out"). */
export const API_KEY_PREFIX = "pc_live_";
export const PRODUCTION_BASE_URL = "https://api.politicalcomms.com/v1";

/** Phone number channels (GET /phone-numbers). */
export const PHONE_CHANNELS = ["10dlc", "toll-free", "short-code", "rcs"] as const;
export type PhoneChannel = (typeof PHONE_CHANNELS)[number];
export const OWNER_TYPES = ["campaign", "toll_free_registration", "unassigned"] as const;
export type OwnerType = (typeof OWNER_TYPES)[number];

/** Project status values seen (States: Project). */
export const PROJECT_STATUSES = [
  "draft",
  "awaiting_test",
  "ready",
  "scheduled",
  "active",
  "paused",
  "completed",
] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
/** The integer counters of a `GET /projects/stats` row, in the row's order. */
export const STATS_ROW_COUNTERS = [
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
] as const;
/** The stats endpoint's status filter. */
export const STATS_STATUS_FILTERS = ["draft", "active", "completed", "paused", "all"] as const;
export type StatsStatusFilter = (typeof STATS_STATUS_FILTERS)[number];

export const EMAIL_CAMPAIGN_STATUSES = [
  "draft",
  "awaiting_test",
  "awaiting_approval",
  "ready",
  "scheduled",
  "compiling",
  "sending",
  "paused",
  "completed",
  "deleted",
] as const;
export type EmailCampaignStatus = (typeof EMAIL_CAMPAIGN_STATUSES)[number];

export const EVENT_KINDS = [
  "message.sent",
  "message.delivered",
  "message.failed",
  "message.replied",
  "link.clicked",
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** The platform's standard contact fields usable as merge tags without declaring them. */
export const STANDARD_FIELDS = [
  "first_name",
  "last_name",
  "address",
  "address_line_2",
  "city",
  "state",
  "zip",
] as const;

/** The footer the platform appends when `opt_out_footer_enabled` is on (vendor documentation). */
export const OPT_OUT_FOOTER = "STOP=END";
