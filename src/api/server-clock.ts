/**
 * The API's clock as this client sees it: every response's `Date` header (RFC 9110, one-second
 * resolution) is an observation of the server's time. The estimate is the local clock corrected by
 * the smallest offset consistent with the last observation: when the local time at which the
 * response arrived falls inside the second the header names, the clocks agree to the header's
 * resolution and the offset is 0 (so a test on a virtual clock reads that clock to the millisecond);
 * otherwise the offset moves the local time just inside that second.
 */
import type { Clock } from "./rate-limiter.js";

/** Tracks the offset of the server's clock from the local one. No offset until a valid `Date` arrives. */
export class ServerClock {
  private offsetMs: number | null = null;
  /** The latest time `now` returned: the estimate never goes back (the server's clock does not). */
  private lastMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly clock: Clock) {}

  /** Records a response's `Date` header, received at local time `localMs`. Ignores absent or unreadable values. */
  observe(dateHeader: string | null, localMs: number): void {
    if (dateHeader === null) return;
    const serverMs = Date.parse(dateHeader);
    if (Number.isNaN(serverMs)) return;
    const second = Math.floor(serverMs / 1000) * 1000;
    if (localMs < second) this.offsetMs = second - localMs;
    else if (localMs >= second + 1000) this.offsetMs = second + 999 - localMs;
    else this.offsetMs = 0;
  }

  /**
   * The server's time now (local clock plus the offset), or null before any `Date` header. Monotonic:
   * a later observation that moves the offset back (a server a little behind, seen through the
   * header's one-second resolution) never makes a time earlier than one already returned, so a
   * report's `started_at` is never after its `finished_at`.
   */
  now(): Date | null {
    if (this.offsetMs === null) return null;
    this.lastMs = Math.max(this.lastMs, this.clock.now() + this.offsetMs);
    return new Date(this.lastMs);
  }
}
