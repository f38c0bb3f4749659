/**
 * One retry layer for writes (issue 15 item 5): a mutating request is attempted at most N = 5 times
 * in total, whatever the answers, on one backoff curve (1 s, 2 s, 4 s, 8 s) that honours
 * `Retry-After`. The sandbox starts at its fixture's fixed instant with the fault already in place,
 * the loop runs through the real client over HTTP on the sandbox's virtual clock (no real sleeps),
 * and the attempts are counted in the sandbox's own request log.
 */
import { describe, expect, test } from "vitest";
import type { ActionResultStatus } from "../../src/apply/types.js";
import { admin } from "../sandbox/helpers.js";
import { applyLoop, bedsClosedAfterEach, effectCounts, effects, planFresh, type TestBed } from "./helpers.js";

const openBed = bedsClosedAfterEach();

/** N: the documented number of attempts of one write (docs/api-connection.md, "Retries"). */
const N = 5;

interface Logged {
  readonly seq: number;
  readonly method: string;
  readonly route: string | null;
  readonly status: number;
  readonly idempotency_key: string | null;
  readonly at: string;
}

async function logged(bed: TestBed): Promise<Logged[]> {
  return (await admin(bed.sb, "GET", "/requests")).body.data.requests as Logged[];
}

const isSchedule = (r: Logged) => r.method === "POST" && r.route === "/projects/{id}/schedule";

/** Milliseconds of virtual time between consecutive entries. */
function gaps(entries: readonly Logged[]): number[] {
  return entries.slice(1).map((e, i) => Date.parse(e.at) - Date.parse(entries[i]?.at ?? e.at));
}

interface Case {
  readonly name: string;
  /** The fault on `POST /projects/{id}/schedule`, in place from the sandbox's start. */
  readonly fault: string;
  readonly attempts: number;
  readonly status: ActionResultStatus;
  /** Virtual time between consecutive attempts: the curve, raised to `Retry-After`. */
  readonly gaps: readonly number[];
  /** Whether the schedule took effect (once) in the sandbox's effects log. */
  readonly effect: boolean;
}

const cases: readonly Case[] = [
  {
    name: "persistent 503 SEND_ENQUEUE_FAILED: N attempts on the curve, then failed (nothing happened)",
    fault: "status(503)",
    attempts: N,
    status: "failed",
    gaps: [1000, 2000, 4000, 8000],
    effect: false,
  },
  {
    name: "persistent 500: each attempt re-read, N attempts in all, then unknown",
    fault: "status(500)",
    attempts: N,
    status: "unknown",
    gaps: [1000, 2000, 4000, 8000],
    effect: false,
  },
  {
    name: "persistent dropped connection: N attempts in all, then unknown",
    fault: "reset",
    attempts: N,
    status: "unknown",
    gaps: [1000, 2000, 4000, 8000],
    effect: false,
  },
  {
    name: "persistent 429 Retry-After 3: each wait is the longer of Retry-After and the curve",
    fault: "status(429, retry-after=3)",
    attempts: N,
    status: "failed",
    gaps: [3000, 3000, 4000, 8000],
    effect: false,
  },
  {
    name: "two 429s with Retry-After 7, then accepted: waits 7 s twice, done once",
    fault: "status(429, retry-after=7) n=2",
    attempts: 3,
    status: "done",
    gaps: [7000, 7000],
    effect: true,
  },
  {
    name: "409 with Retry-After 3 (same key still running), then accepted: waits 3 s, done once",
    fault: "status(409, retry-after=3) n=1",
    attempts: 2,
    status: "done",
    gaps: [3000],
    effect: true,
  },
  {
    name: "one 503 SEND_ENQUEUE_FAILED, then accepted: one resend after 1 s",
    fault: "status(503) n=1",
    attempts: 2,
    status: "done",
    gaps: [1000],
    effect: true,
  },
];

describe("a write is attempted at most N times, on one curve that honours Retry-After", () => {
  test.each(cases)("$name", async ({ fault, attempts, status, gaps: expected, effect }) => {
    const bed = await openBed({ schedule: 1 }, { faults: `POST /projects/{id}/schedule: ${fault}` });
    const project = bed.world.projects[0];
    const planned = await planFresh(bed);
    const slept: number[] = [];
    const start = bed.sb.clock.nowMs();
    const { result, events } = await applyLoop(bed, {
      planned,
      // The loop's own waits, on the virtual clock: no real time passes.
      sleep: async (ms) => {
        slept.push(ms);
        await bed.sb.clock.advance(ms);
      },
    });

    const action = result.actions.find((a) => a.kind === "schedule");
    expect(action?.status).toBe(status);
    expect(action?.attempts).toBe(attempts);
    const writes = (await logged(bed)).filter(isSchedule);
    expect(writes).toHaveLength(attempts);
    expect(writes.length).toBeLessThanOrEqual(N);
    // Every attempt carries the plan's one key.
    expect(new Set(writes.map((w) => w.idempotency_key))).toEqual(new Set([action?.idempotency_key]));
    expect(gaps(writes)).toEqual(expected);
    expect(slept).toEqual(expected);
    expect(events.filter((e) => e.type === "backoff").map((e) => e.delay_ms)).toEqual(expected);
    // Only the loop waited: the whole run took the curve's time, nothing more.
    expect(bed.sb.clock.nowMs() - start).toBe(expected.reduce((a, b) => a + b, 0));
    const counts = effectCounts(await effects(bed.sb));
    expect(counts.get(`${project?.id}:schedule`)).toBe(effect ? 1 : undefined);
    // Every attempt after the first is counted as a retry in the report.
    expect(result.requests.retries).toBe(attempts - 1);
  });
});

test("an unknown outcome is re-read before each resend, and the re-reads are not attempts of the write", async () => {
  const bed = await openBed({ schedule: 1 }, { faults: "POST /projects/{id}/schedule: status(500)" });
  const planned = await planFresh(bed);
  const { result, events } = await applyLoop(bed, { planned });
  const log = await logged(bed);
  const writes = log.filter(isSchedule);
  expect(writes).toHaveLength(N);
  // Between two writes, and after the last, the project is read.
  const bounds = [...writes.map((w) => w.seq), Number.POSITIVE_INFINITY];
  for (let i = 0; i < N; i++) {
    const reads = log.filter(
      (r) =>
        r.method === "GET" &&
        r.route === "/projects/{id}" &&
        r.seq > (bounds[i] ?? 0) &&
        r.seq < (bounds[i + 1] ?? 0),
    );
    expect(reads.length, `after attempt ${i + 1}`).toBeGreaterThan(0);
  }
  expect(events.filter((e) => e.type === "resolution").map((e) => e.verdict)).toEqual(
    Array.from({ length: N }, () => "not-happened"),
  );
  expect(result.actions.find((a) => a.kind === "schedule")?.error).toMatchObject({
    source: "campaignctl",
    code: "apply.outcome-unknown",
    status: 500,
  });
});
