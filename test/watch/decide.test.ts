/**
 * The pure steps of a poll of watch: the read budget over the 60-second window, which projects are
 * read by id (sending first, then never read, within the room), and the decide and settle steps of
 * a tripped guard's pause (pending across polls with one key, settled by a row or a try).
 */
import { describe, expect, it } from "vitest";
import type { Project, ProjectStatsRow } from "../../src/contract/resources.js";
import type { LiveRead } from "../../src/plan/live.js";
import { statusRange } from "../../src/status/range.js";
import {
  BUDGET_WINDOW_MS,
  byIdRoom,
  readsInWindow,
  recordReads,
  roomAt,
  waitForRoomMs,
} from "../../src/watch/watch-budget.js";
import {
  decidePoll,
  neverReadAtStop,
  pendingAtStop,
  planReadsById,
  settleTry,
} from "../../src/watch/watch-decide.js";
import {
  initialState,
  stillSending,
  type WatchState,
  type WatchTarget,
} from "../../src/watch/watch-state.js";

const GUARD = { maxFailureRate: 0.1, minSample: 10 };
const targets: WatchTarget[] = [
  { id: "p1", address: "one", guard: GUARD },
  { id: "p2", address: "two", guard: GUARD },
  { id: "p3", address: "three", guard: GUARD },
];

function row(id: string, status: string, sent: number, failed: number): ProjectStatsRow {
  return {
    id,
    name: id,
    organization_id: "org",
    status,
    total_recipients: 100,
    messages_sent: sent,
    messages_delivered: sent - failed,
    messages_failed: failed,
    messages_opted_out: 0,
    replies_received: 0,
    total_url_clicks: 0,
    unique_url_clicks: 0,
    actual_cost: "0.0000",
    created_at: "2026-11-28T00:00:00Z",
    updated_at: "2026-11-30T00:00:00Z",
  } as unknown as ProjectStatsRow;
}

const range = (() => {
  const r = statusRange(new Date("2026-12-01T15:00:00Z"), undefined);
  if (!r.ok) throw new Error("range");
  return r.range;
})();

const reads = (...rows: ProjectStatsRow[]) => ({
  rows: new Map(rows.map((r) => [r.id, r])),
  details: new Map(),
  organizationNames: new Map([["org", "Org"]]),
  range,
});

describe("the read budget", () => {
  it("counts the reads of the last 61 s, drops older ones, and says when there is room", () => {
    let ledger = recordReads([], 0, 30);
    ledger = recordReads(ledger, 20_000, 8);
    expect(readsInWindow(ledger, 30_000)).toBe(38);
    expect(roomAt(ledger, 30_000)).toBe(2);
    expect(readsInWindow(ledger, BUDGET_WINDOW_MS)).toBe(8);
    expect(waitForRoomMs(ledger, 30_000, 2)).toBe(0);
    // 5 more need the first 30 to leave the window: at 61 s and 1 ms.
    expect(waitForRoomMs(ledger, 30_000, 5)).toBe(BUDGET_WINDOW_MS - 30_000 + 1);
    expect(recordReads(ledger, 75_000, 1)).toEqual([
      { atMs: 20_000, reads: 8 },
      { atMs: 75_000, reads: 1 },
    ]);
  });

  it("leaves reads by id only what the next minute's pages leave", () => {
    const ledger = recordReads([], 0, 4);
    // 1 page every 5 s: 14 polls' pages reserved (61 s / 5 s, rounded up, and one more).
    expect(byIdRoom(ledger, 0, 1, 5000)).toBe(40 - 4 - 14);
    expect(byIdRoom(ledger, 0, 5, 7500)).toBe(0);
  });
});

describe("planReadsById", () => {
  it("reads sending projects no row lists first, then projects never read, within the room", () => {
    let state: WatchState = initialState(targets);
    // p1 was seen sending; p2 and p3 never read.
    state = decidePoll(state, reads(row("p1", "active", 5, 0)), new Set(), new Map()).state;
    expect(planReadsById(state, new Map(), 2)).toEqual({ ids: ["p1", "p2"], carried: 1 });
    expect(planReadsById(state, new Map(), 0)).toEqual({ ids: [], carried: 3 });
    // A project a row lists is never read by id; one read before and quiet is not read again.
    const listed = new Map([["p1", row("p1", "active", 6, 0)]]);
    expect(planReadsById(state, listed, 10)).toEqual({ ids: ["p2", "p3"], carried: 0 });
  });
});

describe("a tripped guard's pause", () => {
  const trip = () =>
    decidePoll(initialState(targets), reads(row("p1", "active", 20, 5)), new Set(), new Map());

  it("is pending from the trip and tried on this poll", () => {
    const d = trip();
    expect(d.trips.map((t) => t.target.id)).toEqual(["p1"]);
    expect(d.pauses).toEqual([
      {
        id: "p1",
        guard: "failure-rate",
        reason: "guard: failure rate 25.0% > 10% (5 of 20 sent)",
        key: null,
      },
    ]);
    expect(d.state.get("p1")?.pause).toMatchObject({ phase: "pending", attempts: 0, lastError: null });
  });

  it("stays pending across polls with its first key, not judged again while it sends, and is an error at the stop", () => {
    const d = trip();
    const first = settleTry(
      d.state,
      { outcome: "pending", key: "cc1-first", sends: 5, error: "500 INTERNAL_ERROR" },
      "p1",
      d.trips[0] ?? null,
    );
    expect(first.event).toMatchObject({
      type: "tripped",
      pause: {
        outcome: "pending",
        attempts: 5,
        idempotency_key: "cc1-first",
        last_error: "500 INTERNAL_ERROR",
      },
    });
    // Next poll: higher figures, no new trip, the same pause tried again with the same key.
    const next = decidePoll(first.state, reads(row("p1", "active", 30, 9)), new Set(), new Map());
    expect(next.trips).toEqual([]);
    expect(next.pauses).toEqual([
      {
        id: "p1",
        guard: "failure-rate",
        reason: "guard: failure rate 25.0% > 10% (5 of 20 sent)",
        key: "cc1-first",
      },
    ]);
    expect(stillSending(next.state)).toBe(1);
    const failedRead = settleTry(
      next.state,
      { outcome: "pending", key: "cc1-first", sends: 0, error: "read before the pause: 500" },
      "p1",
      null,
    );
    expect(failedRead.event).toMatchObject({ type: "pause", pause: { outcome: "pending", attempts: 5 } });
    const stop = pendingAtStop(failedRead.state);
    expect(stop).toHaveLength(1);
    expect(stop[0]).toMatchObject({ severity: "error", code: "watch.pause-pending" });
    expect(stop[0]?.message).toContain("attempt 5, last error: read before the pause: 500");
    const landed = settleTry(
      failedRead.state,
      { outcome: "landed", key: "cc1-first", sends: 1, replayed: false, pauseReason: "guard: x" },
      "p1",
      null,
    );
    expect(landed.event).toMatchObject({
      type: "pause",
      pause: { outcome: "paused", attempts: 6, idempotency_key: "cc1-first", status_after: "paused" },
    });
    expect(landed.event.type === "pause" && landed.event.project.status).toBe("paused");
    expect(stillSending(landed.state)).toBe(0);
    expect(pendingAtStop(landed.state)).toEqual([]);
    // A later row that shows it paused: nothing more to do.
    expect(decidePoll(landed.state, reads(row("p1", "paused", 31, 9)), new Set(), new Map()).pauses).toEqual(
      [],
    );
    // One that shows it sending again (started again in the dashboard): judged again, and a trip is
    // a new pause (no key yet: the next try reads the new version), never the landed one's key.
    const resumed = decidePoll(landed.state, reads(row("p1", "active", 40, 12)), new Set(), new Map());
    expect(resumed.trips.map((t) => t.target.id)).toEqual(["p1"]);
    expect(resumed.pauses).toEqual([
      {
        id: "p1",
        guard: "failure-rate",
        reason: "guard: failure rate 30.0% > 10% (12 of 40 sent)",
        key: null,
      },
    ]);
    expect(stillSending(resumed.state)).toBe(1);
  });

  it("is settled by a row that shows the project stopped: paused lands it, completed ends it with an error", () => {
    const d = trip();
    const pending = settleTry(
      d.state,
      { outcome: "pending", key: "k", sends: 1, error: "e" },
      "p1",
      null,
    ).state;
    const paused = decidePoll(pending, reads(row("p1", "paused", 22, 6)), new Set(), new Map());
    expect(paused.pauses).toEqual([]);
    expect(paused.state.get("p1")?.pause?.phase).toBe("landed");
    expect(paused.events.find((e) => e.type === "pause")).toMatchObject({ pause: { outcome: "paused" } });
    const done = decidePoll(pending, reads(row("p1", "completed", 100, 30)), new Set(), new Map());
    expect(done.state.get("p1")?.pause).toMatchObject({ phase: "ended", status: "completed" });
    // The net did not hold: an error (exit 1), never a warning a cron job would not see.
    expect(
      done.events.filter((e) => e.type === "diagnostic" && e.diagnostic.code === "watch.ended-before-pause"),
    ).toMatchObject([{ diagnostic: { severity: "error" } }]);
  });
});

describe("a project no read of the run found", () => {
  const failedRead = (id: string) => ({
    ...reads(),
    details: new Map([
      [id, { kind: "error" as const, code: "HTTP_503", message: "the key's organization failed" }],
    ]),
  });

  it("is an error at the stop while every read of it failed, naming the last failure", () => {
    const first = decidePoll(initialState(targets), failedRead("p2"), new Set(), new Map());
    expect(first.events).toEqual([]);
    const second = decidePoll(first.state, failedRead("p2"), first.warned, first.unread);
    const errors = neverReadAtStop(second.state, second.unread);
    expect(errors.map((d) => [d.severity, d.code])).toEqual([["error", "watch.project-never-read"]]);
    expect(errors[0]?.message).toContain("two: no read of it succeeded in this run");
    expect(errors[0]?.message).toContain("HTTP_503: the key's organization failed");
  });

  it("is nothing at the stop once a read of it succeeds, and a project never tried is not one", () => {
    const first = decidePoll(initialState(targets), failedRead("p2"), new Set(), new Map());
    const read = decidePoll(first.state, reads(row("p2", "active", 5, 0)), first.warned, first.unread);
    expect(read.unread.size).toBe(0);
    expect(neverReadAtStop(read.state, read.unread)).toEqual([]);
    // p3 was never read, but never tried either (deferred by the budget): not an error.
    expect(neverReadAtStop(initialState(targets), new Map())).toEqual([]);
  });
});

describe("a sending project no row lists, whose read by id fails", () => {
  const detailOnly = (id: string, detail: LiveRead<Project>) => ({
    ...reads(),
    details: new Map([[id, detail]]),
  });
  const sending = () =>
    decidePoll(initialState(targets), reads(row("p1", "active", 5, 0)), new Set(), new Map());

  it("a failure (a 5xx after retries) keeps its last figures, so it stays watched and is read again on the next poll", () => {
    const first = sending();
    const failed = decidePoll(
      first.state,
      detailOnly("p1", { kind: "error", code: "HTTP_503", message: "unavailable" }),
      first.warned,
      first.unread,
    );
    expect(failed.events.map((e) => (e.type === "diagnostic" ? e.diagnostic.code : e.type))).toEqual([
      "watch.project-read-failed",
    ]);
    expect(failed.state.get("p1")?.figures).toEqual(first.state.get("p1")?.figures);
    expect(stillSending(failed.state)).toBe(1);
    expect(planReadsById(failed.state, new Map(), 10).ids[0]).toBe("p1");
  });

  it("a 404 ends its watch, as before (watch.project-unreadable)", () => {
    const first = sending();
    const gone = decidePoll(first.state, detailOnly("p1", { kind: "not-found" }), first.warned, first.unread);
    expect(gone.events.flatMap((e) => (e.type === "diagnostic" ? [e.diagnostic.code] : []))).toContain(
      "watch.project-unreadable",
    );
    expect(stillSending(gone.state)).toBe(0);
  });
});
