import type { ReplyRequest } from "../../contract/requests.js";
import type { ApiRoute } from "../context.js";
import { resumeReplies, scheduleProgress } from "../conversations/delivery.js";
import { findConversation, isConversation } from "../conversations/find.js";
import { normalizeForGsm } from "../conversations/gsm.js";
import { decodeCursor, limitParam, pageOf } from "../conversations/paging.js";
import { queueReply, replyRefusal } from "../conversations/reply.js";
import { threadMessageView } from "../conversations/view.js";
import { invalid, ok } from "../http/responses.js";
import { runtimeOf } from "../simulation/runtime.js";
import { DEFAULT_SETTINGS } from "../simulation/settings.js";
import { isResponse } from "./filters.js";

const TEMPLATE = "/conversations/{conversation_id}/messages";

export const threadRoute: ApiRoute = {
  method: "GET",
  template: TEMPLATE,
  handler: ({ params, query, auth, sandbox }) => {
    resumeReplies(sandbox);
    const c = findConversation(sandbox.store.world, auth, params.conversation_id ?? "");
    if (!isConversation(c)) return c;
    const limit = limitParam(query);
    if (isResponse(limit)) return limit;
    let after: { at: string; i: number } | null = null;
    const rawCursor = query.get("cursor");
    if (rawCursor !== null && rawCursor !== "") {
      const cursor = decodeCursor(rawCursor, "thread");
      if (isResponse(cursor)) return cursor;
      if (
        cursor.conversation_id !== c.conversation_id ||
        typeof cursor.at !== "string" ||
        typeof cursor.i !== "number"
      )
        return invalid(["cursor"], "cursor is not a valid cursor of this thread", "invalid_string");
      after = { at: cursor.at, i: cursor.i };
    }
    const a = after;
    const rows = c.messages
      .map((m, i) => ({ m, i }))
      .filter(({ m, i }) => a === null || m.at < a.at || (m.at === a.at && i < a.i))
      .sort((x, y) => y.m.at.localeCompare(x.m.at) || y.i - x.i);
    return ok(
      pageOf(
        rows,
        limit,
        (r) => threadMessageView(r.m),
        (r) => ({ kind: "thread", conversation_id: c.conversation_id, at: r.m.at, i: r.i }),
      ),
    );
  },
};

export const replyRoute: ApiRoute = {
  method: "POST",
  template: TEMPLATE,
  bodySchema: "reply",
  handler: ({ params, body, auth, sandbox }) => {
    resumeReplies(sandbox);
    const { store, clock, config } = sandbox;
    const c = findConversation(store.world, auth, params.conversation_id ?? "");
    if (!isConversation(c)) return c;
    const text = normalizeForGsm((body as ReplyRequest).text);
    if (text.trim() === "") return invalid(["text"], "text must not be blank", "too_small");
    const prices = runtimeOf(sandbox)?.simulation.settings ?? DEFAULT_SETTINGS;
    const refusal = replyRefusal(store.world, prices, c, text);
    if (refusal !== undefined) return refusal;
    const result = store.mutate((w) => queueReply(store, w, c, prices, text, clock.nowMs(), config.seed));
    scheduleProgress(sandbox, c.conversation_id, result.message_id);
    return ok(result, 202);
  },
};
