/**
 * The world of the results tests: the example fixture (its clock starts at 2026-12-01T15:00:00Z),
 * its projects created at that instant and texting a link, sending slowly (one message an hour, so
 * a 38-recipient project sends for 38 hours), with replies up to six hours and clicks up to three
 * hours after delivery: counters move over days, hour after hour. Helpers move the sandbox's clock
 * (its handle's clock, in process) and fingerprint what the statistics show.
 */
import type { Fixture } from "../../src/sandbox/fixture/types.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { exampleFixture } from "../sandbox/helpers.js";

export const START_MS = Date.parse("2026-12-01T15:00:00Z");
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** The example fixture, every project created at the clock's start, each message with a link. */
export function resultsFixture(): Fixture {
  const fixture = exampleFixture();
  for (const p of fixture.projects ?? []) {
    p.created_at = new Date(START_MS).toISOString();
    p.updated_at = new Date(START_MS).toISOString();
    if (p.message_text !== undefined && !/https?:\/\//.test(p.message_text))
      p.message_text = `${p.message_text} More: https://riversidedems.org/vote`;
  }
  return fixture;
}

/** The simulation's knobs: slow sends, many replies, opt-outs and clicks, spread over hours. */
export const SLOW_SENDS = {
  messages_per_batch: 1,
  batch_interval_ms: HOUR,
  failure_rate: 0.1,
  reply_rate: 0.3,
  opt_out_share: 0.3,
  reply_delay_min_ms: 60_000,
  reply_delay_max_ms: 6 * HOUR,
  click_rate: 0.5,
  repeat_click_share: 0.5,
  click_delay_max_ms: 3 * HOUR,
};

/**
 * Moves the virtual clock to `ms` (and runs what falls due on the way), as `POST /_sandbox/clock/set`
 * does, without its HTTP round trip: the long tests move it hour by hour, over a thousand times, and
 * the route's own behaviour is test/sandbox/clock.test.ts's.
 */
export async function clockTo(sb: SandboxHandle, ms: number): Promise<void> {
  await sb.clock.set(new Date(ms));
}

/** What the statistics show of every project now (its row's members), as one string. */
export function fingerprint(sb: SandboxHandle): string {
  const w = sb.store.world;
  return JSON.stringify(
    Object.values(w.projects)
      .sort((a, b) => (a.project_id < b.project_id ? -1 : 1))
      .map((p) => [
        p.project_id,
        p.name,
        p.status,
        p.updated_at,
        p.completed_at,
        p.total_recipients,
        p.counters,
      ]),
  );
}
