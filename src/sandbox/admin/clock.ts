/**
 * `GET /_sandbox/clock`, `POST /_sandbox/clock/advance {ms}`, `POST /_sandbox/clock/set {at?,
 * time_scale?}`: read the virtual clock and its speed, move it, jump it and change its speed.
 */
import type { AdminRoute, SandboxContext } from "../context.js";
import { ok } from "../http/responses.js";

function clockView(sandbox: SandboxContext): { now: string; now_ms: number; time_scale: number } {
  const nowMs = sandbox.clock.nowMs();
  return { now: new Date(nowMs).toISOString(), now_ms: nowMs, time_scale: sandbox.clock.scale };
}

/** The largest speed `time_scale` accepts: a virtual year per real second. */
const MAX_TIME_SCALE = 31_536_000;

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
      minProperties: 1,
      properties: {
        at: { type: "string", format: "date-time" },
        time_scale: { type: "number", minimum: 0, maximum: MAX_TIME_SCALE },
      },
    },
    handler: async ({ body, sandbox }) => {
      const { at, time_scale } = body as { at?: string; time_scale?: number };
      // The jump runs what falls due on the way first; the new speed applies from the new time.
      if (at !== undefined) await sandbox.clock.set(new Date(at));
      if (time_scale !== undefined) await sandbox.clock.setTimeScale(time_scale);
      sandbox.store.persist();
      return ok(clockView(sandbox));
    },
  },
];
