/**
 * Observability: `GET|DELETE /_sandbox/requests` (request log with counts per route and per key),
 * `GET /_sandbox/test-messages` (optional `project_id`), `GET /_sandbox/effects` (optional
 * `project_id`, `kind`; with counts per kind) and `POST /_sandbox/reset` (back to the fixture).
 */
import type { AdminRoute } from "../context.js";
import { ok } from "../http/responses.js";

export const logRoutes: readonly AdminRoute[] = [
  { method: "GET", template: "/requests", handler: ({ sandbox }) => ok(sandbox.requestLog.snapshot()) },
  {
    method: "DELETE",
    template: "/requests",
    handler: ({ sandbox }) => {
      sandbox.requestLog.clear();
      return ok({ cleared: true });
    },
  },
  {
    method: "GET",
    template: "/test-messages",
    handler: ({ query, sandbox }) => {
      const project = query.get("project_id");
      return ok(sandbox.store.world.testMessages.filter((m) => project === null || m.project_id === project));
    },
  },
  {
    method: "GET",
    template: "/effects",
    handler: ({ query, sandbox }) => {
      const project = query.get("project_id");
      const kind = query.get("kind");
      const effects = sandbox.store.world.effects.filter(
        (e) => (project === null || e.project_id === project) && (kind === null || e.kind === kind),
      );
      const counts: Record<string, number> = {};
      for (const e of effects) if (e.changed) counts[e.kind] = (counts[e.kind] ?? 0) + 1;
      return ok({ counts, effects });
    },
  },
  {
    method: "POST",
    template: "/reset",
    handler: async ({ sandbox }) => {
      sandbox.store.replace(sandbox.freshWorld());
      await sandbox.clock.set(new Date(sandbox.config.startMs));
      sandbox.store.persist();
      sandbox.requestLog.clear();
      sandbox.resetPipeline();
      return ok({ reset: true, now: sandbox.clock.now().toISOString() });
    },
  },
];
