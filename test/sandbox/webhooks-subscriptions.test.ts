import { describe, expect, test } from "vitest";
import type { EventRecord, World } from "../../src/sandbox/state/world.js";
import { emptyWorld } from "../../src/sandbox/state/world.js";
import { retryDelay } from "../../src/sandbox/webhooks/schedule.js";
import { endpointsFor } from "../../src/sandbox/webhooks/subscriptions.js";

function org(w: World, id: string, parent: string | null): void {
  w.organizations[id] = {
    id,
    name: id,
    parent_id: parent,
    status: "active",
    created_at: "2026-01-01T00:00:00.000Z",
    merge_defaults: {},
    balance_cents: 0,
    email_available: false,
    custom_fields: [],
  };
}

describe("webhook fan-out", () => {
  test("an event reaches its organization's and its ancestors' endpoints subscribed to its kind", () => {
    const w = emptyWorld();
    org(w, "root", null);
    org(w, "child", "root");
    org(w, "grandchild", "child");
    org(w, "other", null);
    const endpoint = (id: string, organization_id: string, events: EventRecord["kind"][]) => {
      w.webhookEndpoints[id] = {
        id,
        organization_id,
        name: id,
        url: "http://127.0.0.1:9/",
        secret: "s".repeat(16),
        events,
      };
    };
    endpoint("root-replies", "root", ["message.replied"]);
    endpoint("root-sent", "root", ["message.sent"]);
    endpoint("child-all", "child", ["message.sent", "message.replied"]);
    endpoint("grandchild", "grandchild", ["message.replied"]);
    endpoint("other", "other", ["message.replied"]);
    const event: EventRecord = {
      id: "evt_1",
      kind: "message.replied",
      organization_id: "child",
      payload: {},
      created_at: "2026-01-01T00:00:00.000Z",
    };
    expect(endpointsFor(w, event).map((e) => e.id)).toEqual(["root-replies", "child-all"]);
  });

  test("retry schedule: +30 s, +2 min, +10 min, then none (four attempts)", () => {
    expect([1, 2, 3, 4].map(retryDelay)).toEqual([30_000, 120_000, 600_000, null]);
  });
});
