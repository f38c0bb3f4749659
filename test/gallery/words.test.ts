/** The gallery's words for internal names and times (issue 25 item 6). */
import { describe, expect, it } from "vitest";
import { codeMeaning } from "../../src/diagnostics/code-meaning.js";
import { codeHtml } from "../../src/report/gallery/problems.js";
import { actionStatusWords, desiredWords, statusWords, zonedTimes } from "../../src/report/gallery/words.js";

describe("gallery words", () => {
  it.each([
    ["draft", "draft: not tested yet"],
    ["awaiting_test", "awaiting_test: test sent, waiting for approval in the dashboard"],
    ["ready", "ready: test approved, not scheduled yet"],
    ["scheduled", "scheduled: scheduled to send"],
    ["active", "active: sending now"],
    ["paused", "paused: paused, sends nothing until resumed"],
    ["completed", "completed: sent, finished"],
  ])("status %s reads %j", (status, words) => expect(statusWords(status)).toBe(words));

  it("says what the file asks for and what an action's status means", () => {
    expect(desiredWords("scheduled")).toBe(
      "scheduled (tested, approved, then sent to its lists at its schedule)",
    );
    expect(actionStatusWords("deferred")).toBe("deferred (waits for an earlier step)");
  });

  it("writes every time of a sentence in the recipients' zone with UTC beside it", () => {
    expect(zonedTimes("schedule for 2026-12-07T10:00:00-06:00 in America/Chicago", "America/Chicago")).toBe(
      "schedule for Mon, Dec 7, 2026, 10:00 AM CST (16:00 UTC) in America/Chicago",
    );
    // A time given in UTC is still written in the recipients' zone; another day in UTC says its date.
    expect(zonedTimes("at 2026-12-08T03:30:00Z", "America/Chicago")).toBe(
      "at Mon, Dec 7, 2026, 9:30 PM CST (Dec 8, 03:30 UTC)",
    );
    expect(zonedTimes("made 2026-12-01T15:00:00.427Z", null)).toBe("made Tue, Dec 1, 2026, 15:00 UTC");
    expect(zonedTimes("no time here", "America/Chicago")).toBe("no time here");
  });

  it("gives every code its meaning, next to the code", () => {
    expect(codeMeaning("lint.segment-growth")).toMatch(/UCS-2/);
    expect(codeMeaning("campaign.unclosed-quote")).toContain("the quote that opens it");
    expect(codeMeaning("toString")).toBe(undefined);
    expect(codeHtml("lint.opt-out-missing")).toBe(
      `<code>lint.opt-out-missing</code> <span class="code-meaning">(without the opt-out footer, the message does not carry opt-out language (STOP))</span>`,
    );
  });
});
