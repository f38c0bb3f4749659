/**
 * Typed endpoint functions: each describes one request of the contract; the shared loop in core.ts
 * sends it. Query parameter names follow design.md ("Names the contract leaves out").
 */
import type { EmailCampaignStatus, OwnerType, PhoneChannel, StatsStatusFilter } from "../contract/limits.js";
import type { EmailContactInput } from "../contract/requests.js";
import type {
  BulkUpsertResult,
  ContactList,
  Conversation,
  CursorPage,
  EmailCampaign,
  MediaFile,
  Organization,
  PauseRequest,
  PhoneNumber,
  Project,
  ProjectStats,
  ReplyResult,
  ScheduleRequest,
  ScheduleResponse,
  SendingDomain,
  TenDlcCampaign,
  TestRequest,
  TestResponse,
  ThreadMessage,
  TollFreeVerification,
} from "../contract/resources.js";
import type { Send } from "./core.js";
import { collectPages, pages } from "./paging.js";
import type { ApiResult } from "./result.js";

/** GET /projects/stats query (vendor SDK names). Dates are YYYY-MM-DD. */
export interface ProjectStatsParams {
  readonly startDate?: string;
  readonly endDate?: string;
  readonly organizationId?: string;
  readonly brandId?: string;
  readonly campaignId?: string;
  readonly status?: StatsStatusFilter;
  readonly limit?: number;
  readonly offset?: number;
}

/** GET /phone-numbers filters. */
export interface PhoneNumberFilters {
  readonly organization_id?: string;
  readonly brand_id?: string;
  readonly campaign_id?: string;
  readonly channel?: PhoneChannel;
  readonly owner_type?: OwnerType;
}

/** GET /campaigns and GET /contact-lists filters. */
export interface OrgBrandFilters {
  readonly organization_id?: string;
  readonly brand_id?: string;
}

/** GET /conversations query; `updated_since` filters on `last_inbound_at`. */
export interface ConversationQuery {
  readonly project_id?: string;
  readonly updated_since?: string;
  readonly limit?: number;
  readonly include_test?: boolean;
}

/** GET /conversations/{id}/messages query. */
export interface ThreadQuery {
  readonly limit?: number;
  readonly cursor?: string;
}

/** GET /email/campaigns query. */
export interface EmailCampaignQuery {
  readonly limit?: number;
  readonly cursor?: string;
  readonly status?: EmailCampaignStatus;
  readonly search?: string;
}

/** Every endpoint of the client. Writes take the caller's Idempotency-Key (see `idempotencyKey`). */
export interface Endpoints {
  getProject(id: string): Promise<ApiResult<Project>>;
  getProjectStats(params?: ProjectStatsParams): Promise<ApiResult<ProjectStats>>;
  listPhoneNumbers(filters?: PhoneNumberFilters): Promise<ApiResult<PhoneNumber[]>>;
  getTollFreeVerification(id: string): Promise<ApiResult<TollFreeVerification>>;
  getMedia(id: string): Promise<ApiResult<MediaFile>>;
  /** GET /campaigns: 10DLC carrier registrations. */
  listTenDlcCampaigns(filters?: OrgBrandFilters): Promise<ApiResult<TenDlcCampaign[]>>;
  listContactLists(filters?: OrgBrandFilters): Promise<ApiResult<ContactList[]>>;
  /** A 200 confirms a valid, correctly scoped key. */
  listOrganizations(): Promise<ApiResult<Organization[]>>;
  testProject(id: string, body: TestRequest, idempotencyKey: string): Promise<ApiResult<TestResponse>>;
  scheduleProject(
    id: string,
    body: ScheduleRequest,
    idempotencyKey: string,
  ): Promise<ApiResult<ScheduleResponse>>;
  /** The contract does not show the shape of `data`. */
  pauseProject(id: string, body: PauseRequest, idempotencyKey: string): Promise<ApiResult<unknown>>;
  /** One page; `cursor` null for the first. */
  listConversations(
    query?: ConversationQuery,
    cursor?: string | null,
  ): Promise<ApiResult<CursorPage<Conversation>>>;
  /** Every page in order; ends after the last page or the first failure (yielded). */
  conversationPages(
    query?: ConversationQuery,
  ): AsyncGenerator<ApiResult<CursorPage<Conversation>>, void, void>;
  /** All conversations across pages, or the first failure. */
  listAllConversations(query?: ConversationQuery): Promise<ApiResult<Conversation[]>>;
  getConversationMessages(
    conversationId: string,
    query?: ThreadQuery,
  ): Promise<ApiResult<CursorPage<ThreadMessage>>>;
  replyToConversation(
    conversationId: string,
    text: string,
    idempotencyKey: string,
  ): Promise<ApiResult<ReplyResult>>;
  upsertEmailContacts(
    listId: string,
    contacts: readonly EmailContactInput[],
    idempotencyKey: string,
  ): Promise<ApiResult<BulkUpsertResult>>;
  listEmailCampaigns(query?: EmailCampaignQuery): Promise<ApiResult<CursorPage<EmailCampaign>>>;
  getSendingDomain(id: string): Promise<ApiResult<SendingDomain>>;
}

/**
 * Encodes one path segment. Dot segments are percent-encoded so that no id can climb the path; an
 * empty id is a caller bug (it would address a different route).
 */
export function seg(id: string): string {
  if (id === "") throw new TypeError("empty id in a request path");
  const encoded = encodeURIComponent(id);
  return encoded === "." || encoded === ".." ? encoded.replaceAll(".", "%2E") : encoded;
}

/** Binds every endpoint to a `send` function. */
export function bindEndpoints(send: Send): Endpoints {
  const conversationsPage = (query: ConversationQuery | undefined, cursor: string | null | undefined) =>
    send<CursorPage<Conversation>>({
      method: "GET",
      template: "/conversations",
      path: "/conversations",
      query: { ...query, cursor: cursor ?? undefined },
      answer: "conversations",
    });
  const conversationsIdentity = {
    method: "GET",
    route: "GET /conversations",
    path: "/conversations",
  } as const;
  return {
    getProject: (id) =>
      send({ method: "GET", template: "/projects/{id}", path: `/projects/${seg(id)}`, answer: "project" }),
    getProjectStats: (params) =>
      send({
        method: "GET",
        template: "/projects/stats",
        path: "/projects/stats",
        query: { ...params },
        answer: "projectStats",
      }),
    listPhoneNumbers: (filters) =>
      send({
        method: "GET",
        template: "/phone-numbers",
        path: "/phone-numbers",
        query: { ...filters },
        answer: "phoneNumbers",
      }),
    getTollFreeVerification: (id) =>
      send({
        method: "GET",
        template: "/toll-free-verifications/{id}",
        path: `/toll-free-verifications/${seg(id)}`,
        answer: "tollFreeVerification",
      }),
    getMedia: (id) =>
      send({ method: "GET", template: "/media/{id}", path: `/media/${seg(id)}`, answer: "media" }),
    listTenDlcCampaigns: (filters) =>
      send({
        method: "GET",
        template: "/campaigns",
        path: "/campaigns",
        query: { ...filters },
        answer: "tenDlcCampaigns",
      }),
    listContactLists: (filters) =>
      send({
        method: "GET",
        template: "/contact-lists",
        path: "/contact-lists",
        query: { ...filters },
        answer: "contactLists",
      }),
    listOrganizations: () =>
      send({ method: "GET", template: "/organizations", path: "/organizations", answer: "organizations" }),
    testProject: (id, body, idempotencyKey) =>
      send({
        method: "POST",
        template: "/projects/{id}/test",
        path: `/projects/${seg(id)}/test`,
        body,
        idempotencyKey,
        answer: "testResult",
      }),
    scheduleProject: (id, body, idempotencyKey) =>
      send({
        method: "POST",
        template: "/projects/{id}/schedule",
        path: `/projects/${seg(id)}/schedule`,
        body,
        idempotencyKey,
        answer: "scheduleResult",
      }),
    pauseProject: (id, body, idempotencyKey) =>
      send({
        method: "POST",
        template: "/projects/{id}/pause",
        path: `/projects/${seg(id)}/pause`,
        body,
        idempotencyKey,
      }),
    listConversations: (query, cursor) => conversationsPage(query, cursor),
    conversationPages: (query) => pages(conversationsIdentity, (cursor) => conversationsPage(query, cursor)),
    listAllConversations: (query) =>
      collectPages(conversationsIdentity, (cursor) => conversationsPage(query, cursor)),
    getConversationMessages: (conversationId, query) =>
      send({
        method: "GET",
        template: "/conversations/{id}/messages",
        path: `/conversations/${seg(conversationId)}/messages`,
        query: { ...query },
        answer: "threadMessages",
      }),
    replyToConversation: (conversationId, text, idempotencyKey) =>
      send({
        method: "POST",
        template: "/conversations/{id}/messages",
        path: `/conversations/${seg(conversationId)}/messages`,
        body: { text },
        idempotencyKey,
        answer: "replyResult",
      }),
    upsertEmailContacts: (listId, contacts, idempotencyKey) =>
      send({
        method: "POST",
        template: "/email/lists/{id}/contacts",
        path: `/email/lists/${seg(listId)}/contacts`,
        body: { contacts },
        idempotencyKey,
      }),
    listEmailCampaigns: (query) =>
      send({
        method: "GET",
        template: "/email/campaigns",
        path: "/email/campaigns",
        query: { ...query },
        answer: "emailCampaigns",
      }),
    getSendingDomain: (id) =>
      send({
        method: "GET",
        template: "/email/domains/{id}",
        path: `/email/domains/${seg(id)}`,
        answer: "sendingDomain",
      }),
  };
}
