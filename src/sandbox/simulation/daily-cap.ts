/**
 * Brand daily carrier caps. A Pacific day is a calendar day in America/Los_Angeles (the one
 * definition, src/text/pacific-day.ts: luxon, so the DST days of 23 and 25 hours are right, memoized
 * per day: it is asked at every send). `DailySends` counts project messages sent per brand and
 * Pacific day; it is derived from `world.messages` and rebuilt whenever the world is replaced.
 */
import { pacificDayOf } from "../../text/pacific-day.js";
import type { World } from "../state/world.js";

/** `pause_reason` of a project paused by its brand's daily cap. */
export const DAILY_CAP_REASON = "daily_cap_reached";

/** Messages sent per (brand, Pacific day). */
export class DailySends {
  private readonly counts = new Map<string, number>();

  rebuild(world: World): void {
    this.counts.clear();
    for (const m of Object.values(world.messages)) this.add(m.brand_id, Date.parse(m.sent_at));
  }

  count(brandId: string, ms: number): number {
    return this.counts.get(`${brandId}|${pacificDayOf(ms).day}`) ?? 0;
  }

  add(brandId: string, ms: number): void {
    const key = `${brandId}|${pacificDayOf(ms).day}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
}
