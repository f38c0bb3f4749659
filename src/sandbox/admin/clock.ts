/** `GET /_sandbox/clock`, `POST /_sandbox/clock/advance {ms}`, `POST /_sandbox/clock/set {at}`. */
import type { AdminRoute, SandboxContext } from "../context.js";
import { ok } from "../http/responses.js";

function clockView(sandbox: SandboxContext): { now: string; now_ms: number } {
  const nowMs = sandbox.clock.nowMs();
  return { now: new Date(nowMs).toISOString(), now_ms: nowMs };
}

export const clockRoutes: readonly AdminRoute[] = [
  { method: "GET", template: "/clock", handler: ({ sandbox }) => ok(clockView(sandbox)) },
  {
    method: "POST",
    template: "/clock/advance",
    bodySchema: {
      type: "object",
      additionalProperties: false,
      required: ["ms"],
      properties: { ms: { type: "integer", minimum: 0 } },
    },
    handler: async ({ body, sandbox }) => {
      await sandbox.clock.advance((body as { ms: number }).ms);
      sandbox.store.persist();
      return ok(clockView(sandbox));
    },
  },
  {
    method: "POST",
    template: "/clock/set",
    bodySchema: {
      type: "object",
      additionalProperties: false,
      required: ["at"],
      properties: { at: { type: "string", format: "date-time" } },
    },
    handler: async ({ body, sandbox }) => {
      await sandbox.clock.set(new Date((body as { at: string }).at));
      sandbox.store.persist();
      return ok(clockView(sandbox));
    },
  },
];
