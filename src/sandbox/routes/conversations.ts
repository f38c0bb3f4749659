/**
 * GET /conversations: conversations with at least one inbound message, newest inbound first
 * (`last_inbound_at`, then `conversation_id`, both descending), across the key's organization and
 * descendants. Query: `updated_since` (RFC 3339; inclusive lower bound on `last_inbound_at`;
 * default 7 days before now; more than 90 days back is 400), `project_id`, `include_test` (default
 * false), `limit` (1 to 200, default 50), `cursor`. Keyset paging: the cursor holds the position of
 * the last row returned and the first page's filters with `updated_since` fixed as an instant, so a
 * pass never repeats a conversation even while inbounds arrive; a conversation that gets a new
 * inbound during the pass moves above the cursor and is picked up by the next poll.
 */
import { CONVERSATIONS_DEFAULT_DAYS, CONVERSATIONS_MAX_DAYS } from "../../contract/limits.js";
import type { ApiRequest, ApiRoute } from "../context.js";
import { resumeReplies } from "../conversations/delivery.js";
import { parseDateTime } from "../conversations/find.js";
import { booleanParam, decodeCursor, limitParam, pageOf } from "../conversations/paging.js";
import { conversationView, lastAt } from "../conversations/view.js";
import { type ApiResponse, invalid, ok } from "../http/responses.js";
import type { ConversationRecord } from "../state/world.js";
import { replyRoute, threadRoute } from "./conversations-messages.js";
import { isResponse } from "./filters.js";

const DAY_MS = 86_400_000;

interface ListFilters {
  readonly since: number;
  readonly projectId: string | null;
  readonly includeTest: boolean;
  readonly after: { readonly t: string; readonly id: string } | null;
}

export const conversationRoutes: readonly ApiRoute[] = [
  {
    method: "GET",
    template: "/conversations",
    handler: (req) => {
      resumeReplies(req.sandbox);
      const limit = limitParam(req.query);
      if (isResponse(limit)) return limit;
      const filters = listFilters(req);
      if (isResponse(filters)) return filters;
      const w = req.sandbox.store.world;
      const rows: { c: ConversationRecord; t: string }[] = [];
      for (const c of Object.values(w.conversations)) {
        if (!req.auth.orgIds.has(c.organization_id)) continue;
        if (!filters.includeTest && c.is_test) continue;
        if (filters.projectId !== null && c.project_id !== filters.projectId) continue;
        const t = lastAt(c, "inbound");
        if (t === null || Date.parse(t) < filters.since) continue;
        const a = filters.after;
        if (a !== null && !(t < a.t || (t === a.t && c.conversation_id < a.id))) continue;
        rows.push({ c, t });
      }
      rows.sort((x, y) => y.t.localeCompare(x.t) || y.c.conversation_id.localeCompare(x.c.conversation_id));
      return ok(
        pageOf(
          rows,
          limit,
          (r) => conversationView(w, r.c),
          (r) => ({
            kind: "conversations",
            since: filters.since,
            project_id: filters.projectId,
            include_test: filters.includeTest,
            t: r.t,
            id: r.c.conversation_id,
          }),
        ),
      );
    },
  },
  threadRoute,
  replyRoute,
];

/** The filters of this page: from the cursor (explicit filters must then agree) or the query. */
function listFilters({ query, sandbox }: ApiRequest): ListFilters | ApiResponse {
  const nowMs = sandbox.clock.nowMs();
  const rawSince = query.get("updated_since");
  let since: number | null = null;
  if (rawSince !== null && rawSince !== "") {
    const parsed = parseDateTime(rawSince);
    if (parsed === undefined)
      return invalid(
        ["updated_since"],
        "updated_since must be an ISO 8601 date-time with offset",
        "invalid_string",
      );
    since = parsed;
  }
  const projectId = query.get("project_id") || null;
  const includeTest = booleanParam(query, "include_test", false);
  if (isResponse(includeTest)) return includeTest;
  const rawCursor = query.get("cursor");
  if (rawCursor === null || rawCursor === "") {
    if (since !== null && since < nowMs - CONVERSATIONS_MAX_DAYS * DAY_MS)
      return invalid(
        ["updated_since"],
        `updated_since must be at most ${CONVERSATIONS_MAX_DAYS} days ago`,
        "too_small",
      );
    return {
      since: since ?? nowMs - CONVERSATIONS_DEFAULT_DAYS * DAY_MS,
      projectId,
      includeTest,
      after: null,
    };
  }
  const cursor = decodeCursor(rawCursor, "conversations");
  if (isResponse(cursor)) return cursor;
  const { since: cSince, project_id: cProject, include_test: cTest, t, id } = cursor;
  if (
    typeof cSince !== "number" ||
    !(typeof cProject === "string" || cProject === null) ||
    typeof cTest !== "boolean" ||
    typeof t !== "string" ||
    typeof id !== "string"
  )
    return invalid(["cursor"], "cursor is not a valid cursor of this listing", "invalid_string");
  const conflict =
    (since !== null && since !== cSince) ||
    (projectId !== null && projectId !== cProject) ||
    ((query.get("include_test") ?? "") !== "" && includeTest !== cTest);
  if (conflict)
    return invalid(
      ["cursor"],
      "cursor was issued for other filters; drop the filters or the cursor",
      "custom",
    );
  return { since: cSince, projectId: cProject, includeTest: cTest, after: { t, id } };
}
