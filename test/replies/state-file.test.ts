/** The worker's durable state: a torn last line is cut off, settled lines and the cursor survive a reopen. */
import { appendFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openRepliesState } from "../../cli/adapters/replies-state.js";
import { ANSWERED_FILE_NAME, type AnsweredLine } from "../../src/replies/state-file.js";

const line = (id: string, t: AnsweredLine["t"] = "answered"): AnsweredLine => ({
  t,
  inbound_message_id: id,
  conversation_id: "c1",
  project_id: "p1",
  rule: "where",
  answer_message_id: t === "answered" ? `a-${id}` : null,
  segments: t === "answered" ? 1 : 0,
  code: null,
  at: "2026-12-01T15:00:00.000Z",
  via: "accepted",
});

describe("replies state", () => {
  it("keeps what was appended and the cursor across a reopen; cuts a torn last line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cc-replies-state-"));
    const first = await openRepliesState(dir);
    first.append(line("m1"));
    first.append(line("m2", "unpaid"));
    first.saveCursor({
      updatedSince: "2026-12-01T15:00:00.000Z",
      lastPassAt: "2026-12-01T15:01:00.000Z",
      settled: { c1: "x" },
    });
    first.close();
    appendFileSync(join(dir, ANSWERED_FILE_NAME), '{"t":"answered","inbound_message_id":"m3"');
    const again = await openRepliesState(dir);
    expect(again.torn).toBeGreaterThan(0);
    expect([...again.answered.keys()]).toEqual(["m1"]);
    expect(again.unpaid.get("m2")).toBe(1);
    expect(again.cursor).toEqual({
      updatedSince: "2026-12-01T15:00:00.000Z",
      lastPassAt: "2026-12-01T15:01:00.000Z",
      settled: { c1: "x" },
    });
    again.append(line("m3"));
    again.close();
    const lines = readFileSync(join(dir, ANSWERED_FILE_NAME), "utf8").trim().split("\n");
    expect(lines.map((l) => JSON.parse(l).inbound_message_id)).toEqual(["m1", "m2", "m3"]);
  });
});
