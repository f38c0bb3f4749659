/** The lifecycle table (src/plan/lifecycle.ts): its invariants, and the effect check reading by it. */
import { describe, expect, test } from "vitest";
import { checkEffect } from "../../src/apply/effect-check.js";
import { PROJECT_STATUSES } from "../../src/contract/limits.js";
import { isSentFrom, LIFECYCLE, provesEffect } from "../../src/plan/lifecycle.js";
import type { ActionKind } from "../../src/plan/types.js";

const KINDS: readonly ActionKind[] = ["test", "schedule", "pause"];

describe("LIFECYCLE", () => {
  test.each(KINDS)("%s: its effect's status proves it; the statuses it is sent from do not", (kind) => {
    const step = LIFECYCLE[kind];
    expect(provesEffect(kind, step.to)).toBe(true);
    for (const from of step.from) expect(provesEffect(kind, from)).toBe(false);
  });

  test("only the pause sends no texts", () => {
    expect(KINDS.filter((k) => !LIFECYCLE[k].sendsTexts)).toEqual(["pause"]);
  });

  test.each(KINDS)("%s: the effect check says happened exactly for the statuses that prove it", (kind) => {
    const from = LIFECYCLE[kind].from[0] ?? "draft";
    const basis = { status: from, updated_at: "2026-11-25T10:00:00.000Z" };
    for (const status of PROJECT_STATUSES) {
      const verdict = checkEffect(kind, basis, { status, updated_at: "2026-11-25T10:00:05.000Z" }).verdict;
      const expected = provesEffect(kind, status)
        ? "happened"
        : !LIFECYCLE[kind].sendsTexts && isSentFrom(kind, status)
          ? "not-happened"
          : "changed";
      expect(verdict, `${kind} from ${from} to ${status}`).toBe(expected);
    }
  });
});
