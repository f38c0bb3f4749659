/**
 * Which key each endpoint's request goes with: the one table (issue 33). Every endpoint of the
 * client is here, typed as `Endpoints`, so a new endpoint does not compile until it is given an
 * owner; nothing falls through to a key chosen by default.
 *
 * | endpoint | owner | key |
 * |---|---|---|
 * | project read, test, schedule, pause | the project | its organization's (its route); unrouted: the first key in use that sees it, else the default key |
 * | conversations listed for a project | the project | its organization's |
 * | conversations listed for no project | every key in use | all read to the end, merged by id; one failure fails it |
 * | thread messages, reply | the conversation's project | its organization's |
 * | email list upsert | the email list | the organization its file names; unrouted: none (sent nowhere) |
 * | organizations, 10DLC campaigns, lists, numbers | every key in use | all read, merged; a key that fails fails its organization |
 * | statistics | every key in use | one key: paged as asked; several: each read to its end by its own offset, merged into one page; a key that fails fails its organization (merged-stats.ts) |
 * | email campaigns | every key in use | all read to the end, merged; early access of a key is no campaigns |
 * | media, toll-free verification, sending domain by id | (not routed) | the first key in use that sees it |
 *
 * Writes pass the write guard (the cross-organization rule) before any request.
 */

import type { Conversation, CursorPage, EmailCampaign } from "../../contract/resources.js";
import type { ApiClient } from "../client.js";
import { isEarlyAccess } from "../early-access.js";
import type { ConversationQuery, EmailCampaignQuery, Endpoints } from "../endpoints.js";
import { seg } from "../endpoints.js";
import { refusesKey } from "../key-refusal.js";
import { collectPages, pages } from "../paging.js";
import type { ApiError, ApiResult, RequestIdentity } from "../result.js";
import { allPages, type BulkEndpoint, firstVisible, gather, mergeItems, wholeListing } from "./bulk.js";
import type { Dispatch } from "./dispatch.js";
import { projectStats } from "./merged-stats.js";

const get = (route: string, path: string): RequestIdentity => ({
  method: "GET",
  route: `GET ${route}`,
  path,
});
const post = (route: string, path: string): RequestIdentity => ({
  method: "POST",
  route: `POST ${route}`,
  path,
});
const CONVERSATIONS = get("/conversations", "/conversations");
const EMAIL_CAMPAIGNS = get("/email/campaigns", "/email/campaigns");

export function endpointTable(d: Dispatch): Endpoints {
  return {
    ...projectEndpoints(d),
    ...everyKeyEndpoints(d),
    ...byIdEndpoints(d),
    ...conversationEndpoints(d),
    // The email list's organization, as its file names it.
    upsertEmailContacts: (listId, contacts, key) =>
      d.writeEmailList(
        listId,
        post("/email/lists/{id}/contacts", `/email/lists/${seg(listId)}/contacts`),
        (c) => c.upsertEmailContacts(listId, contacts, key),
      ),
  };
}

/** The project's own key: its reads, test, schedule and pause. */
function projectEndpoints(
  d: Dispatch,
): Pick<Endpoints, "getProject" | "testProject" | "scheduleProject" | "pauseProject"> {
  const write = <T>(
    kind: "test" | "schedule" | "pause",
    id: string,
    call: (c: ApiClient) => Promise<ApiResult<T>>,
  ) =>
    d.writeProject(
      kind,
      id,
      `project ${id}`,
      post(`/projects/{id}/${kind}`, `/projects/${seg(id)}/${kind}`),
      call,
    );
  return {
    getProject: (id) =>
      d.readProject(id, get("/projects/{id}", `/projects/${seg(id)}`), (c) => c.getProject(id)),
    testProject: (id, body, key) => write("test", id, (c) => c.testProject(id, body, key)),
    scheduleProject: (id, body, key) => write("schedule", id, (c) => c.scheduleProject(id, body, key)),
    pauseProject: (id, body, key) => write("pause", id, (c) => c.pauseProject(id, body, key)),
  };
}

/** Every key in use, merged. */
function everyKeyEndpoints(
  d: Dispatch,
): Pick<
  Endpoints,
  | "listOrganizations"
  | "listTenDlcCampaigns"
  | "listContactLists"
  | "listPhoneNumbers"
  | "getProjectStats"
  | "listEmailCampaigns"
> {
  const merged = <T>(
    endpoint: BulkEndpoint,
    identity: RequestIdentity,
    call: (c: ApiClient) => Promise<ApiResult<T[]>>,
    idOf: (item: T) => string,
  ) =>
    gather(d.inUse(), d.defaultClient, d.marks, wholeListing(endpoint), call).then((kept) =>
      mergeItems(
        kept.map((k) => k.result),
        idOf,
        d.none(identity),
      ),
    );
  return {
    listOrganizations: () => listOrganizations(d),
    listTenDlcCampaigns: (filters) =>
      merged(
        "listTenDlcCampaigns",
        get("/campaigns", "/campaigns"),
        (c) => c.listTenDlcCampaigns(filters),
        (t) => t.id,
      ),
    listContactLists: (filters) =>
      merged(
        "listContactLists",
        get("/contact-lists", "/contact-lists"),
        (c) => c.listContactLists(filters),
        (l) => l.id,
      ),
    listPhoneNumbers: (filters) =>
      merged(
        "listPhoneNumbers",
        get("/phone-numbers", "/phone-numbers"),
        (c) => c.listPhoneNumbers(filters),
        (n) => `${n.id} ${n.org_id}`,
      ),
    getProjectStats: (params) => projectStats(d, params),
    listEmailCampaigns: (query) => listEmailCampaigns(d, query),
  };
}

/** Records by id no file routes: the first key in use that sees them. */
function byIdEndpoints(
  d: Dispatch,
): Pick<Endpoints, "getMedia" | "getTollFreeVerification" | "getSendingDomain"> {
  const byId = <T>(identity: RequestIdentity, call: (c: ApiClient) => Promise<ApiResult<T>>) =>
    firstVisible(d.inUse(), call, d.none(identity)).then((seen) => seen.result);
  return {
    getMedia: (id) => byId(get("/media/{id}", `/media/${seg(id)}`), (c) => c.getMedia(id)),
    getTollFreeVerification: (id) =>
      byId(get("/toll-free-verifications/{id}", `/toll-free-verifications/${seg(id)}`), (c) =>
        c.getTollFreeVerification(id),
      ),
    getSendingDomain: (id) =>
      byId(get("/email/domains/{id}", `/email/domains/${seg(id)}`), (c) => c.getSendingDomain(id)),
  };
}

/** Conversations: by project (the query's, or the conversation's). */
function conversationEndpoints(
  d: Dispatch,
): Pick<
  Endpoints,
  | "listConversations"
  | "conversationPages"
  | "listAllConversations"
  | "getConversationMessages"
  | "replyToConversation"
> {
  const conversations = (query: ConversationQuery | undefined, cursor: string | null | undefined) =>
    listConversations(d, query, cursor ?? null);
  const thread = (id: string) => `/conversations/${seg(id)}/messages`;
  return {
    listConversations: conversations,
    conversationPages: (query) => pages(CONVERSATIONS, (cursor) => conversations(query, cursor)),
    listAllConversations: (query) => collectPages(CONVERSATIONS, (cursor) => conversations(query, cursor)),
    getConversationMessages: (id, query) =>
      d.readConversation(id, get("/conversations/{id}/messages", thread(id)), (c) =>
        c.getConversationMessages(id, query),
      ),
    replyToConversation: (id, text, key) =>
      d.writeConversation(id, post("/conversations/{id}/messages", thread(id)), (c) =>
        c.replyToConversation(id, text, key),
      ),
  };
}

/**
 * GET /organizations over every key in use, merged; each key's own answer is its identity. A key
 * whose listing fails now for another reason than the key (a blip, its retries spent) answers with
 * its identity when this session read it: the same `GET /organizations`, read earlier in this run
 * (routing's check of the key). So a blip there never fails an organization (a mark that a long
 * run, which lists organizations once, would keep for good: every pause of watch refused).
 */
async function listOrganizations(d: Dispatch) {
  const kept = await gather(
    d.inUse(),
    d.defaultClient,
    d.marks,
    wholeListing("listOrganizations"),
    async (c) => {
      const listed = await c.listOrganizations();
      if (listed.ok || refusesKey(listed.error)) return listed;
      return d.identities.listing(c) ?? listed;
    },
  );
  for (const k of kept) d.identities.learn(k.client, k.result);
  return mergeItems(
    kept.map((k) => k.result),
    (o) => o.id,
    d.none(get("/organizations", "/organizations")),
  );
}

/**
 * GET /conversations: for one project, with its key (paging as asked); for no project, with the one
 * key in use (paging as asked), or every key in use, each read to its last page and merged into one
 * page. One key's failure fails the listing: a listing missing a key's conversations would move the
 * replies worker's cursor past inbounds it never saw.
 */
async function listConversations(
  d: Dispatch,
  query: ConversationQuery | undefined,
  cursor: string | null,
): Promise<ApiResult<CursorPage<Conversation>>> {
  const one = (c: ApiClient) => c.listConversations(query, cursor);
  const project = query?.project_id;
  const route = project === undefined ? undefined : d.projectRoute(project);
  const clients = d.inUse();
  let result: ApiResult<CursorPage<Conversation>>;
  if (route !== undefined) result = await d.via(route, one);
  else if (clients.length <= 1)
    result = clients[0] === undefined ? { ok: false, error: d.none(CONVERSATIONS) } : await one(clients[0]);
  else {
    if (cursor !== null)
      throw new Error("listConversations: a merged listing is one page; no cursor follows it");
    const all = await Promise.all(clients.map((c) => allPages((at) => c.listConversations(query, at))));
    result = mergedPages(all, (x) => x.conversation_id, d.none(CONVERSATIONS));
  }
  d.learnConversations(result);
  return result;
}

/**
 * GET /email/campaigns: the one key in use (paging as asked), or every key in use, merged into one
 * page (the keys that answered early access kept: `withoutEmail`). Email is in early access per
 * organization: a key whose organization has none (403
 * EMAIL_EARLY_ACCESS) lists no campaign, unless every key says so (then that is the answer).
 */
async function listEmailCampaigns(
  d: Dispatch,
  query: EmailCampaignQuery | undefined,
): Promise<ApiResult<CursorPage<EmailCampaign>>> {
  const clients = d.inUse();
  if (clients.length <= 1)
    return clients[0] === undefined
      ? { ok: false, error: d.none(EMAIL_CAMPAIGNS) }
      : clients[0].listEmailCampaigns(query);
  if (query?.cursor !== undefined)
    throw new Error("listEmailCampaigns: a merged listing is one page; no cursor follows it");
  const results = await Promise.all(
    clients.map((c) =>
      allPages((at) => c.listEmailCampaigns({ ...query, ...(at === null ? {} : { cursor: at }) })),
    ),
  );
  const available = results.filter((r) => !(!r.ok && isEarlyAccess(r.error)));
  d.withoutEmail.clear();
  results.forEach((r, i) => {
    const client = clients[i];
    if (!r.ok && isEarlyAccess(r.error) && client !== undefined) d.withoutEmail.add(client);
  });
  return mergedPages(available.length === 0 ? results : available, (x) => x.id, d.none(EMAIL_CAMPAIGNS));
}

/**
 * Cursor listings of several keys, each read to its end, merged by id into one last page; any
 * failure is the answer (a listing missing one key's items would read as complete).
 */
function mergedPages<T>(
  results: readonly ApiResult<CursorPage<T>>[],
  idOf: (item: T) => string,
  none: ApiError,
): ApiResult<CursorPage<T>> {
  const items = mergeItems(
    results.map((r) => (r.ok ? { ...r, value: r.value.data } : r)),
    idOf,
    none,
  );
  return items.ok ? { ...items, value: { data: items.value, has_more: false, next_cursor: null } } : items;
}
