/**
 * The API client (the IO edge to the messaging API, contract v1.4.0). Import from here only.
 *
 * - `resolveApiKey` / `resolveBaseUrl`: configuration from the environment, as Diagnostics.
 * - `createApiClient`: typed endpoints returning `ApiResult<T>`; one `RateLimiter` per key and process.
 * - `idempotencyKey`: the deterministic Idempotency-Key of an action.
 * - `apiErrorDiagnostic`: an `ApiError` as a Diagnostic.
 */
export { type ApiClient, type ApiClientConfig, createApiClient } from "./client.js";
export {
  API_KEY_ENV,
  BASE_URL_ENV,
  type BaseUrlSource,
  checkBaseUrl,
  type Env,
  isLoopbackHost,
  type Resolved,
  resolveApiKey,
  resolveBaseUrl,
} from "./config.js";
export { apiErrorDiagnostic, apiErrorsDiagnostics, keyFailureHint } from "./diagnostics.js";
export type {
  ConversationQuery,
  EmailCampaignQuery,
  Endpoints,
  OrgBrandFilters,
  PhoneNumberFilters,
  ProjectStatsParams,
  ThreadQuery,
} from "./endpoints.js";
export type {
  ApiEvent,
  ApiEventListener,
  RequestEndEvent,
  RequestStartEvent,
  RetryEvent,
  WaitEvent,
  WaitStartEvent,
} from "./events.js";
export {
  IDEMPOTENCY_KEY_PREFIX,
  type IdempotencyInput,
  idempotencyKey,
  isValidIdempotencyKey,
} from "./idempotency-key.js";
export { mayPassOnRereading, refusesKey } from "./key-refusal.js";
export { collectPages, type PageFetcher, pages } from "./paging.js";
export {
  judgeWait,
  RATE_LIMIT_MAX_WAIT_MS,
  RATE_LIMIT_NOTICE_MS,
  type RateLimitStall,
  type RateLimitWait,
  type RateLimitWaitCause,
} from "./rate-limit-bounds.js";
export { isRateLimitStall, RATE_LIMIT_STALL_CODE, stallText } from "./rate-limit-stall.js";
export {
  type Acquired,
  type Clock,
  RateLimiter,
  type RateLimiterOptions,
  type RateLimiterStats,
  type Sleep,
  type SlotTicket,
} from "./rate-limiter.js";
export type {
  ApiError,
  ApiHttpError,
  ApiNetworkError,
  ApiResult,
  ErrorShape,
  HttpMethod,
  NetworkCause,
  Outcome,
  RateLimitHeaders,
  RequestIdentity,
  ResponseMeta,
} from "./result.js";
export {
  DEFAULT_RETRY,
  type RetryOptions,
  type RetryReason,
  type WriteFailure,
  writeFailureOf,
} from "./retry-policy.js";
export type { ApiClientStats } from "./stats.js";
export { DEFAULT_TIMEOUTS, type Timeouts } from "./transport.js";
