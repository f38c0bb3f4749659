/**
 * What the replies worker and `replies plan` need of the API (the client's endpoints satisfy it), and
 * the projects whose rules answer. Reads: the conversations list and threads; the one write: a reply,
 * always through the one write executor (settle.ts).
 */
import type { ApiResult } from "../api/index.js";
import type { RepliesSpec } from "../campaign/model.js";
import type { Conversation, CursorPage, ReplyResult, ThreadMessage } from "../contract/resources.js";

export interface RepliesPort {
  listConversations(
    query?: { readonly updated_since?: string; readonly limit?: number },
    cursor?: string | null,
  ): Promise<ApiResult<CursorPage<Conversation>>>;
  getConversationMessages(
    conversationId: string,
    query?: { readonly limit?: number; readonly cursor?: string },
  ): Promise<ApiResult<CursorPage<ThreadMessage>>>;
  replyToConversation(
    conversationId: string,
    text: string,
    idempotencyKey: string,
  ): Promise<ApiResult<ReplyResult>>;
  /**
   * Tells a port that routes by owner (src/api/routing) which project a conversation belongs to,
   * before its answer: the key and the cross-organization rule go by the project's organization.
   */
  placeConversation?(conversationId: string, projectId: string): void;
}

/** A project of the files with reply rules. Invariant: `id` is the live project's id. */
export interface ReplyProject {
  readonly address: string;
  readonly id: string;
  readonly file: string;
  /** The organization of its file (`organization:`), as written; null when it names none. */
  readonly organization: string | null;
  readonly replies: RepliesSpec;
  /** Its sending numbers as written in E.164 (numbers written by id are not listed). */
  readonly numbers: readonly string[];
}

/** The page size of every list read (the documented maximum). */
export const PAGE_LIMIT = 200;
/** Pages of one thread read at most, looking for an inbound. */
export const THREAD_PAGES_MAX = 5;

/**
 * A thread, newest first: pages until `inboundId` is found (or the first page when none is asked
 * for), at most {@link THREAD_PAGES_MAX}; the first failure otherwise.
 */
export async function readThread(
  port: RepliesPort,
  conversationId: string,
  inboundId: string | null,
): Promise<ApiResult<ThreadMessage[]>> {
  const messages: ThreadMessage[] = [];
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const res = await port.getConversationMessages(conversationId, {
      limit: PAGE_LIMIT,
      ...(cursor === undefined ? {} : { cursor }),
    });
    if (!res.ok) return res;
    messages.push(...res.value.data);
    const found = inboundId === null || res.value.data.some((m) => m.message_id === inboundId);
    const last = !res.value.has_more || res.value.next_cursor === null || page >= THREAD_PAGES_MAX;
    if (found || last) return { ok: true, value: messages, meta: res.meta };
    cursor = res.value.next_cursor ?? undefined;
  }
}
