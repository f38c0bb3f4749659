/** Apply's pure parts: the effect check, stale checks, durations, progress lines. */
import { describe, expect, test } from "vitest";
import {
  foldProgress,
  formatEventLine,
  INITIAL_PROGRESS,
  renderLive,
} from "../../cli/progress/progress-format.js";
import { checkEffect } from "../../src/apply/effect-check.js";
import type { ApplyEvent } from "../../src/apply/events.js";
import { pollInterval } from "../../src/apply/poll.js";
import { compareFiles, compareLive } from "../../src/apply/stale.js";
import type { ActionKind, LiveBasis, Plan } from "../../src/plan/types.js";
import { parseDuration } from "../../src/text/parse-duration.js";

const basis = { status: "draft", updated_at: "2026-11-25T10:00:00.000Z" } as const;
const later = "2026-11-25T10:00:05.000Z";

describe("checkEffect", () => {
  test("a test took effect when the project left draft", () => {
    expect(checkEffect("test", basis, { status: "awaiting_test", updated_at: later }).verdict).toBe(
      "happened",
    );
    expect(checkEffect("test", basis, { status: "ready", updated_at: later }).verdict).toBe("happened");
  });
  test("unchanged status and updated_at: not happened, safe to resend with the same key", () => {
    expect(checkEffect("test", basis, basis).verdict).toBe("not-happened");
    const ready = { status: "ready", updated_at: basis.updated_at } as const;
    expect(checkEffect("schedule", ready, ready).verdict).toBe("not-happened");
  });
  test("edited but not moved to the target: changed, nothing more is sent", () => {
    expect(checkEffect("test", basis, { status: "draft", updated_at: later }).verdict).toBe("changed");
    const ready = { status: "ready", updated_at: basis.updated_at } as const;
    expect(checkEffect("schedule", ready, { status: "ready", updated_at: later }).verdict).toBe("changed");
  });
  test("a schedule is proven by scheduled, active, completed or paused", () => {
    const ready = { status: "ready", updated_at: basis.updated_at } as const;
    for (const status of ["scheduled", "active", "completed", "paused"] as const)
      expect(checkEffect("schedule", ready, { status, updated_at: later }).verdict).toBe("happened");
  });
  test("a pause of a project that went active by itself is retried, not refused", () => {
    const scheduled = { status: "scheduled", updated_at: basis.updated_at } as const;
    expect(checkEffect("pause", scheduled, { status: "active", updated_at: later }).verdict).toBe(
      "not-happened",
    );
    expect(checkEffect("pause", scheduled, { status: "paused", updated_at: later }).verdict).toBe("happened");
    expect(checkEffect("pause", scheduled, { status: "completed", updated_at: later }).verdict).toBe(
      "changed",
    );
  });
  describe("updated_at is compared as an instant", () => {
    const ready = { status: "ready", updated_at: basis.updated_at } as const;
    const cases: readonly [string, ActionKind, LiveBasis, LiveBasis, string][] = [
      [
        "the basis written without milliseconds",
        "test",
        basis,
        { ...basis, updated_at: "2026-11-25T10:00:00Z" },
        "not-happened",
      ],
      [
        "the basis written +00:00",
        "test",
        basis,
        { ...basis, updated_at: "2026-11-25T10:00:00+00:00" },
        "not-happened",
      ],
      [
        "the basis written -05:00",
        "schedule",
        ready,
        { ...ready, updated_at: "2026-11-25T05:00:00-05:00" },
        "not-happened",
      ],
      [
        "one millisecond later",
        "test",
        basis,
        { ...basis, updated_at: "2026-11-25T10:00:00.001Z" },
        "changed",
      ],
      [
        "one millisecond later, still ready",
        "schedule",
        ready,
        { ...ready, updated_at: "2026-11-25T10:00:00.001+00:00" },
        "changed",
      ],
      ["an unreadable live value", "test", basis, { ...basis, updated_at: "soon" }, "changed"],
      ["an unreadable basis", "schedule", { ...ready, updated_at: "" }, ready, "changed"],
    ];
    test.each(cases)("%s: %s is %s", (_name, kind, from, live, verdict) => {
      expect(checkEffect(kind, from, live).verdict).toBe(verdict);
    });
    test("the report shows both values as the API wrote them", () => {
      const text = checkEffect("test", basis, {
        status: "draft",
        updated_at: "2026-11-25T10:00:05+00:00",
      }).text;
      expect(text).toContain("updated_at 2026-11-25T10:00:05+00:00");
      expect(text).toContain(`updated_at ${basis.updated_at}`);
    });
  });
});

describe("stale checks", () => {
  const plan = {
    files: [
      { path: "a.yaml", sha256: "aa".repeat(32), kind: "campaign" },
      { path: "b.yaml", sha256: "bb".repeat(32), kind: "campaign" },
    ],
    projects: [
      { address: "p", project_id: "id-p", live: basis, actions: [{ status: "planned" }] },
      { address: "q", project_id: "id-q", live: basis, actions: [{ status: "deferred" }] },
    ],
  } as unknown as Plan;
  test("changed and missing files are named", () => {
    const d = compareFiles(
      plan,
      new Map([["a.yaml", { kind: "found", sha256: "cc".repeat(32) }]]),
      "plan.json",
    );
    expect(d.map((x) => x.code)).toEqual(["apply.files-changed", "apply.file-missing"]);
    expect(d[0]?.message).toContain("a.yaml");
    expect(d[1]?.message).toContain("b.yaml");
  });
  test("only projects with planned actions are compared; any difference is stale", () => {
    const same = compareLive(plan, new Map([["id-p", { kind: "found", live: basis }]]), "plan.json");
    expect(same).toEqual([]);
    const moved = compareLive(
      plan,
      new Map([["id-p", { kind: "found", live: { status: "draft", updated_at: later } }]]),
      "plan.json",
    );
    expect(moved.map((x) => x.code)).toEqual(["apply.plan-stale"]);
    expect(moved[0]?.message).toContain(later);
    const unread = compareLive(plan, new Map(), "plan.json");
    expect(unread.map((x) => x.code)).toEqual(["apply.project-unreadable"]);
  });
  test.each([
    ["the same instant without milliseconds", "2026-11-25T10:00:00Z", null],
    ["the same instant at +00:00", "2026-11-25T10:00:00+00:00", null],
    ["the same instant at -05:00", "2026-11-25T05:00:00-05:00", null],
    [
      "one millisecond later",
      "2026-11-25T10:00:00.001Z",
      "updated_at 2026-11-25T10:00:00.000Z -> 2026-11-25T10:00:00.001Z",
    ],
    [
      "an unreadable value",
      "2026-11-25 sometime",
      "updated_at 2026-11-25T10:00:00.000Z -> 2026-11-25 sometime",
    ],
  ])("live updated_at %s: %s", (_name, updatedAt, named) => {
    const found = compareLive(
      plan,
      new Map([["id-p", { kind: "found", live: { status: basis.status, updated_at: updatedAt } }]]),
      "plan.json",
    );
    if (named === null) expect(found).toEqual([]);
    else {
      expect(found.map((x) => x.code)).toEqual(["apply.plan-stale"]);
      expect(found[0]?.message).toContain(`(${named})`);
    }
  });
});

test("durations are strict", () => {
  expect(parseDuration("90s")).toBe(90_000);
  expect(parseDuration("10m")).toBe(600_000);
  expect(parseDuration("1h30m")).toBe(5_400_000);
  expect(parseDuration("250ms")).toBe(250);
  expect(parseDuration("0")).toBe(0);
  for (const bad of ["", "10", "1.5m", "-1s", "m", "10x", "25h", "30s1m"])
    expect(parseDuration(bad)).toBeUndefined();
});

test("approval polling stays within a fifth of the budget", () => {
  expect(pollInterval(15_000, 1)).toBe(15_000);
  expect(pollInterval(15_000, 40)).toBe(120_000);
});

test("progress lines and the live view fold from events", () => {
  const events: ApplyEvent[] = [
    {
      type: "run-start",
      at: "2026-12-01T15:00:00.000Z",
      actions: 2,
      sendable: 2,
      parallelism: 4,
      wait_for_approval_ms: null,
    },
    {
      type: "action-start",
      at: "2026-12-01T15:00:00.100Z",
      id: "a.test",
      kind: "test",
      project_id: "x",
      idempotency_key: "cc1-k",
    },
    {
      type: "response",
      at: "2026-12-01T15:00:00.200Z",
      id: "a.test",
      send: 1,
      status: 500,
      code: "INTERNAL_ERROR",
      replayed: false,
      outcome: "unknown",
      http_attempts: 1,
    },
    {
      type: "action-end",
      at: "2026-12-01T15:00:01.000Z",
      id: "a.test",
      status: "done",
      reason: "r",
      resolution: "re-read: took effect",
      error: null,
      attempts: 1,
    },
  ];
  expect(events.map(formatEventLine)[2]).toContain("outcome unknown");
  const state = events.reduce(foldProgress, INITIAL_PROGRESS);
  expect(state.finished).toBe(1);
  expect(renderLive(state, 2_000, { columns: 80, perMinute: 0 })[0]).toContain("1/2 finished");
});
