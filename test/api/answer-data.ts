/**
 * Answers in the contract's shapes (src/contract/resources.ts), for the stub servers of the client's
 * tests: the client checks every success answer's `data` against its schema
 * (src/api/response-schemas.ts), so a stub answers with these (and a project with
 * test/plan/builders.ts `liveProject`), overriding what a test is about.
 */
import type { Conversation, MediaFile, Organization } from "../../src/contract/resources.js";

export function mediaData(id: string): MediaFile {
  return {
    media_id: id,
    organization_id: "o1",
    brand_id: "b1",
    name: "image.png",
    status: "ready",
    content_type: "image/png",
    file_size_bytes: 1,
    storage_key: "k",
    url: "https://example.org/image.png",
    uploaded_via_api: false,
    created_at: "2026-11-01T00:00:00Z",
    optimized_at: null,
  };
}

export function organizationData(id: string): Organization {
  return {
    id,
    display_name: `Organization ${id}`,
    parent_org_name: null,
    status: "active",
    created_at: "2026-11-01T00:00:00Z",
  };
}

export function conversationData(id: string): Conversation {
  return {
    conversation_id: id,
    project_id: "p1",
    from: "+15035550101",
    to: "+19715551000",
    status: "active",
    opted_out: false,
    is_test: false,
    contact: { phone_number: "+19715551000" },
    inbound_messages: 1,
    outbound_messages: 0,
    first_message_at: "2026-11-01T00:00:00Z",
    last_inbound_at: "2026-11-01T00:00:00Z",
    last_outbound_at: null,
    created_at: "2026-11-01T00:00:00Z",
  };
}
