/**
 * The outbox and webhook delivery `/_sandbox` routes: `GET /events` (optional `kind`,
 * `organization_id`), `GET /webhooks/deliveries` (optional `event_id`, `endpoint_id`, `state`) and
 * `POST /webhooks/flush` (answers once no delivery request is in flight).
 */
import type { AdminRoute } from "../context.js";
import { ok, standardError } from "../http/responses.js";
import { runtimeOf } from "../simulation/runtime.js";

export const webhookRoutes: readonly AdminRoute[] = [
  {
    method: "GET",
    template: "/events",
    handler: ({ query, sandbox }) => {
      const kind = query.get("kind");
      const org = query.get("organization_id");
      return ok(
        sandbox.store.world.events.filter(
          (e) => (kind === null || e.kind === kind) && (org === null || e.organization_id === org),
        ),
      );
    },
  },
  {
    method: "GET",
    template: "/webhooks/deliveries",
    handler: ({ query, sandbox }) => {
      const event = query.get("event_id");
      const endpoint = query.get("endpoint_id");
      const state = query.get("state");
      return ok(
        sandbox.store.world.webhookDeliveries.filter(
          (d) =>
            (event === null || d.event_id === event) &&
            (endpoint === null || d.endpoint_id === endpoint) &&
            (state === null || d.state === state),
        ),
      );
    },
  },
  {
    method: "POST",
    template: "/webhooks/flush",
    handler: async ({ sandbox }) => {
      const runtime = runtimeOf(sandbox);
      if (runtime === undefined)
        return standardError(503, "SIMULATION_NOT_RUNNING", "The webhook dispatcher is not running");
      await runtime.webhooks.idle();
      const pending = sandbox.store.world.webhookDeliveries.filter((d) => d.state === "pending").length;
      return ok({ in_flight: 0, pending });
    },
  },
];
