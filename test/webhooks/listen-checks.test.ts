/**
 * What `webhooks listen` decides around its listener (src/webhooks/listen-checks.ts), as data: a
 * forward limit alone, the outbox's limits, a port it cannot bind, and the notes about a reopened
 * record. The listener's own tests (listener-behaviour.test.ts, outbox.test.ts) show them through it.
 */
import { describe, expect, test } from "vitest";
import {
  forwardLimitAlone,
  forwardLimits,
  listenerBindFailed,
  recoveryNotes,
} from "../../src/webhooks/listen-checks.js";
import { DEFAULT_FORWARD_LIMITS } from "../../src/webhooks/outbox.js";

describe("webhooks listen's checks", () => {
  test("a forward limit without --forward-to is refused, naming the flag typed", () => {
    expect(forwardLimitAlone({})).toBeNull();
    expect(forwardLimitAlone({ forwardTo: "http://127.0.0.1:1/h", forwardMaxAttempts: 3 })).toBeNull();
    expect(forwardLimitAlone({ forwardMaxAge: 60_000 })?.message).toBe(
      "--forward-max-age limits the outbox of --forward-to, which is not given",
    );
    expect(forwardLimitAlone({ forwardMaxAttempts: 3, forwardMaxAge: 1 })).toMatchObject({
      code: "webhooks.forward-flag-alone",
      message: "--forward-max-attempts limits the outbox of --forward-to, which is not given",
    });
  });

  test("the outbox's limits: defaults, then the tuning's delays, then the flags", () => {
    expect(forwardLimits({})).toEqual(DEFAULT_FORWARD_LIMITS);
    expect(forwardLimits({ forwardMaxAttempts: 4, forwardMaxAge: 9 }, { baseDelayMs: 5 })).toEqual({
      ...DEFAULT_FORWARD_LIMITS,
      baseDelayMs: 5,
      maxAttempts: 4,
      maxAgeMs: 9,
    });
  });

  test("a port in use says so; any other failure points at --host and --port", () => {
    expect(listenerBindFailed("127.0.0.1", 8080, { code: "EADDRINUSE", message: "in use" })).toMatchObject({
      code: "webhooks.listen-failed",
      message: "Cannot listen on 127.0.0.1:8080: in use",
      hint: "Another process uses that port: pick another with --port (0: any free port)",
    });
    expect(listenerBindFailed("x", 1, { code: null, message: "m" }).hint).toContain("Check --host");
  });

  test("a reopened record: a torn line and lines skipped are warnings, at the record as typed", () => {
    const notes = recoveryNotes(
      { torn: 7, skipped: 2, unprinted: [], deadLetters: 0 },
      "s/events.jsonl",
      [],
      5,
    );
    expect(
      notes.map((n) => (n.type === "problem" ? [n.at, n.diagnostic.code, n.diagnostic.message] : n.type)),
    ).toEqual([
      [
        5,
        "webhooks.record-torn",
        "The last line of s/events.jsonl was cut short (7 bytes, a write the previous run did not finish): cut off",
      ],
      [5, "webhooks.record-skipped", "2 lines of s/events.jsonl not understood: skipped"],
    ]);
    expect(recoveryNotes({ torn: 0, skipped: 0, unprinted: [], deadLetters: 3 }, "s", [], 0)).toEqual([]);
  });
});
