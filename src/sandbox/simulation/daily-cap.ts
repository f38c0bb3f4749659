/**
 * Brand daily carrier caps. A Pacific day is a calendar day in America/Los_Angeles (luxon, so the
 * DST days of 23 and 25 hours are right). `DailySends` counts project messages sent per brand and
 * Pacific day; it is derived from `world.messages` and rebuilt whenever the world is replaced.
 */
import { DateTime } from "luxon";
import type { World } from "../state/world.js";

export const CAP_ZONE = "America/Los_Angeles";
/** `pause_reason` of a project paused by its brand's daily cap. */
export const DAILY_CAP_REASON = "daily_cap_reached";

/** The Pacific calendar day of an instant, `YYYY-MM-DD`. */
export function pacificDay(ms: number): string {
  return DateTime.fromMillis(ms, { zone: CAP_ZONE }).toFormat("yyyy-MM-dd");
}

/** The first instant of the Pacific day after the one containing `ms`. */
export function nextPacificMidnight(ms: number): number {
  return DateTime.fromMillis(ms, { zone: CAP_ZONE }).startOf("day").plus({ days: 1 }).toMillis();
}

/** Messages sent per (brand, Pacific day). */
export class DailySends {
  private readonly counts = new Map<string, number>();

  rebuild(world: World): void {
    this.counts.clear();
    for (const m of Object.values(world.messages)) this.add(m.brand_id, Date.parse(m.sent_at));
  }

  count(brandId: string, ms: number): number {
    return this.counts.get(`${brandId}|${pacificDay(ms)}`) ?? 0;
  }

  add(brandId: string, ms: number): void {
    const key = `${brandId}|${pacificDay(ms)}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
}
