/**
 * `GET /_sandbox/clock`, `POST /_sandbox/clock/advance {ms}`, `POST /_sandbox/clock/set {at?,
 * time_scale?}`: read the virtual clock and its speed, move it, jump it and change its speed.
 */
import type { AdminRoute, SandboxContext } from "../context.js";
import { parseDateTime } from "../conversations/find.js";
import { invalid, ok } from "../http/responses.js";

function clockView(sandbox: SandboxContext): { now: string; now_ms: number; time_scale: number } {
  const nowMs = sandbox.clock.nowMs();
  return { now: new Date(nowMs).toISOString(), now_ms: nowMs, time_scale: sandbox.clock.scale };
}

export const clockRoutes: readonly AdminRoute[] = [
  { method: "GET", template: "/clock", handler: ({ sandbox }) => ok(clockView(sandbox)) },
  {
    method: "POST",
    template: "/clock/advance",
    bodySchema: "clockAdvance",
    handler: async ({ body, sandbox }) => {
      await sandbox.clock.advance((body as { ms: number }).ms);
      sandbox.store.persist();
      return ok(clockView(sandbox));
    },
  },
  {
    method: "POST",
    template: "/clock/set",
    bodySchema: "clockSet",
    handler: async ({ body, sandbox }) => {
      const { at, time_scale } = body as { at?: string; time_scale?: number };
      // One strict parse: the schema's `date-time` admits `...-06` and a leap second, which no Date
      // holds (the clock became NaN for good, and every answer's Date header "Invalid Date").
      const atMs = at === undefined ? undefined : parseDateTime(at);
      if (at !== undefined && atMs === undefined)
        return invalid(["at"], "at must be an ISO 8601 date-time with offset", "invalid_string");
      // The jump runs what falls due on the way first; the new speed applies from the new time.
      if (atMs !== undefined) await sandbox.clock.set(new Date(atMs));
      if (time_scale !== undefined) await sandbox.clock.setTimeScale(time_scale);
      sandbox.store.persist();
      return ok(clockView(sandbox));
    },
  },
];
