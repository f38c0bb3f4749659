import type { AdminRoute } from "../context.js";
import { resumeReplies } from "../conversations/delivery.js";
import { parseDateTime } from "../conversations/find.js";
import { receiveInbound } from "../conversations/inbound.js";
import { conversationView, threadMessageView } from "../conversations/view.js";
import { type ApiResponse, invalid, notFound, ok } from "../http/responses.js";
import type { ConversationRecord, World } from "../state/world.js";

interface InboundBody {
  conversation_id?: string;
  project_id?: string;
  contact_phone?: string;
  phone_number?: string;
  text: string;
  at?: string;
  is_test?: boolean;
}

export const inboundRoutes: readonly AdminRoute[] = [
  {
    method: "POST",
    template: "/inbound",
    bodySchema: "inbound",
    handler: ({ body, sandbox }) => {
      resumeReplies(sandbox);
      const { store, clock } = sandbox;
      const b = body as InboundBody;
      const nowMs = clock.nowMs();
      const atMs = b.at === undefined ? nowMs : parseDateTime(b.at);
      if (atMs === undefined) return invalid(["at"], "at must be a date-time with offset", "invalid_string");
      if (atMs > nowMs) return invalid(["at"], "at must not be in the future (virtual clock)", "too_big");
      const target = locate(store.world, b);
      if ("status" in target) return target;
      const result = store.mutate((w) => {
        let c: ConversationRecord;
        if (target.conversation !== undefined) c = target.conversation;
        else {
          c = newConversation(target.create, store.nextId(w), new Date(atMs).toISOString());
          w.conversations[c.conversation_id] = c;
        }
        const { message, payload } = receiveInbound(
          store,
          w,
          c,
          b.text,
          new Date(atMs).toISOString(),
          new Date(nowMs).toISOString(),
        );
        return { created: target.conversation === undefined, c, message, payload };
      });
      return ok({
        created_conversation: result.created,
        conversation: conversationView(store.world, result.c),
        message: threadMessageView(result.message),
        event: result.payload,
      });
    },
  },
];

interface NewConversation {
  readonly projectId: string;
  readonly organizationId: string;
  readonly phoneNumberId: string;
  readonly from: string;
  readonly to: string;
  readonly isTest: boolean;
}

type Target =
  | { readonly conversation: ConversationRecord; readonly create?: undefined }
  | { readonly conversation?: undefined; readonly create: NewConversation };

function locate(w: World, b: InboundBody): Target | ApiResponse {
  if (b.conversation_id !== undefined) {
    if (b.project_id !== undefined || b.contact_phone !== undefined || b.phone_number !== undefined)
      return invalid(["conversation_id"], "give conversation_id or project_id + contact_phone, not both");
    const c = w.conversations[b.conversation_id];
    return c === undefined ? notFound("CONVERSATION_NOT_FOUND", "Conversation") : { conversation: c };
  }
  if (b.project_id === undefined || b.contact_phone === undefined)
    return invalid(["project_id"], "give conversation_id, or project_id and contact_phone", "invalid_type");
  const project = w.projects[b.project_id];
  if (project === undefined) return notFound("PROJECT_NOT_FOUND", "Project");
  const numbers = project.phone_number_ids.flatMap((id) => {
    const n = w.phoneNumbers[id];
    return n === undefined ? [] : [n];
  });
  const number = b.phone_number === undefined ? numbers[0] : numbers.find((n) => n.number === b.phone_number);
  if (number === undefined)
    return invalid(
      ["phone_number"],
      b.phone_number === undefined
        ? "the project has no phone number to receive on"
        : "phone_number is not one of the project's numbers",
    );
  const existing = Object.values(w.conversations).find(
    (c) => c.project_id === project.project_id && c.to === b.contact_phone && c.phone_number_id === number.id,
  );
  if (existing !== undefined) return { conversation: existing };
  return {
    create: {
      projectId: project.project_id,
      organizationId: project.organization_id,
      phoneNumberId: number.id,
      from: number.number,
      to: b.contact_phone,
      isTest: b.is_test ?? false,
    },
  };
}

/** A conversation as the project's send would have left it (opt-outs in its lists still apply). */
function newConversation(n: NewConversation, id: string, at: string): ConversationRecord {
  return {
    conversation_id: id,
    project_id: n.projectId,
    organization_id: n.organizationId,
    phone_number_id: n.phoneNumberId,
    from: n.from,
    to: n.to,
    opted_out: false,
    is_test: n.isTest,
    created_at: at,
    messages: [],
  };
}
