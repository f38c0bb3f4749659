import { describe, expect, it } from "vitest";
import { summarizeResults } from "../../src/apply/result.js";
import type { ApplyResult } from "../../src/apply/types.js";
import { renderApplyHuman } from "../../src/report/apply-human.js";
import { completeApplyResult, fullApplyResult, refusedApplyResult } from "./apply-fixtures.js";
import { expectGolden } from "./golden.js";

const ESC = "\u001b[";

describe("renderApplyHuman", () => {
  it("renders an interrupted run with every action status without colour (golden)", () => {
    const text = renderApplyHuman(fullApplyResult(), { color: false });
    expect(text).not.toContain(ESC);
    expectGolden("apply-human.txt", text);
  });

  it("renders with colour, wrapped at 80 columns (golden)", () => {
    const text = renderApplyHuman(fullApplyResult(), { color: true, width: 80 });
    expect(text).toContain(ESC);
    expectGolden("apply-human-color.txt", text);
  });

  it("renders a refused plan: the reasons, that nothing was sent, no action lines (golden)", () => {
    const text = renderApplyHuman(refusedApplyResult(), {
      color: false,
      sources: new Map([["campaigns/gotv.yaml", "version: 1\nprojects:\n"]]),
    });
    expect(text).toContain("The plan was refused, so nothing was sent:");
    expect(text).not.toMatch(/^ {2}\. /m);
    expectGolden("apply-human-refused.txt", text);
  });

  it("gives one line per action with its symbol and status word", () => {
    const lines = renderApplyHuman(fullApplyResult(), { color: false })
      .split("\n")
      .filter((l) => /^ {2}[-+=x!~.] \S+: /.test(l));
    expect(lines).toEqual([
      "  + gotv-reminder.test: done, project now awaiting_test",
      "  ~ gotv-reminder.schedule: deferred",
      "  + weekend-canvass.schedule: done, project now scheduled, 2 attempts",
      "  = early-vote-push.pause: replayed, project now paused",
      "  x volunteer-recruitment.test: failed",
      "  - volunteer-recruitment.schedule: skipped",
      "  ! rally-invite.schedule: blocked",
      "  . flyer-blast.test: not started",
    ]);
  });

  it("shows test messages with masked numbers, the schedule in its zone and in UTC, and the resolution", () => {
    const text = renderApplyHuman(fullApplyResult(), { color: false });
    expect(text).toContain("      test message: 7e000000-0000-4000-8000-000000000001 to +1503****188\n");
    expect(text).toContain(
      "      scheduled for: 2026-11-07 18:30 America/Los_Angeles (2026-11-08 02:30 UTC), daily cap bypass off\n",
    );
    expect(text).toContain("      resolution: re-read: status scheduled, updated_at 2026-11-20T14:05:04Z");
    expect(text).toContain("      already done by an earlier run; nothing sent twice\n");
    expect(text).toContain(
      '      error: HTTP 400 validation_error: test_contacts[1].phone: "+1503555019" is not E.164',
    );
    expect(text).toContain("      why: it depends on volunteer-recruitment.test, which ended failed\n");
  });

  it("ends with the summary line, request counts and the journal path", () => {
    const text = renderApplyHuman(fullApplyResult(), { color: false });
    expect(text).toContain(
      "Apply interrupted: 2 done, 1 replayed, 1 failed, 1 deferred, 1 skipped, 1 blocked, 1 not started, " +
        "1 unknown, 1 unreadable project. " +
        "12 API requests, 1 rate-limited, 1.5s waiting for the rate limit.\n" +
        "API requests by endpoint (1 retry):\n  7  GET /projects/{id}\n",
    );
    expect(text.endsWith("Journal: .campaignctl/journal/2026-11-20T14-05-00Z.jsonl\n")).toBe(true);
  });

  it("says Apply complete for a clean run, failed when an action failed, incomplete when one was blocked", () => {
    expect(renderApplyHuman(completeApplyResult(), { color: false })).toContain(
      "\nApply complete: 2 done, 1 replayed, 0 failed, 1 deferred. 12 API requests, 0 rate-limited, 0s waiting for the rate limit.\n",
    );
    const failed: ApplyResult = { ...fullApplyResult(), interrupted: false };
    const actions = failed.actions.filter((a) => a.status !== "not-started");
    const text = renderApplyHuman(
      { ...failed, actions, summary: summarizeResults(actions) },
      { color: false },
    );
    expect(text).toMatch(
      /\nApply failed: 2 done, 1 replayed, 1 failed, 1 deferred, 1 skipped, 1 blocked, 1 unknown, 1 unreadable project\. /,
    );
    expect(text).toContain("could not be read");
    expect(text).not.toContain("interrupted");
    const blockedOnly = failed.actions.filter(
      (a) => !["failed", "skipped", "not-started", "unknown"].includes(a.status),
    );
    expect(
      renderApplyHuman(
        { ...failed, unreadable: [], actions: blockedOnly, summary: summarizeResults(blockedOnly) },
        { color: false },
      ),
    ).toMatch(/\nApply incomplete: 2 done, 1 replayed, 0 failed, 1 deferred, 1 blocked\. /);
  });

  it("wraps campaignctl's prose at the width but never API text", () => {
    const text = renderApplyHuman(fullApplyResult(), { color: false, width: 60 });
    const prose = text.split("\n").filter((l) => /^ {6}(why|resolution): /.test(l));
    expect(prose.length).toBe(9);
    for (const line of prose) expect(line.length).toBeLessThanOrEqual(60);
    // The API's error message stays on one line, however long.
    expect(text).toContain(
      "<expected +1 & 10 digits>; merge value 'first_name' = `*Dana*` | @field-team #12\n",
    );
  });

  it("shows a failure without an HTTP answer by its code", () => {
    const full = fullApplyResult();
    const actions = full.actions.map((a) =>
      a.status === "failed"
        ? {
            ...a,
            error: {
              source: "campaignctl" as const,
              status: null,
              code: "api.network" as const,
              message: "connect ECONNREFUSED 127.0.0.1:4010",
            },
          }
        : a,
    );
    expect(renderApplyHuman({ ...full, actions }, { color: false })).toContain(
      "      error: api.network: connect ECONNREFUSED 127.0.0.1:4010\n",
    );
  });
});
