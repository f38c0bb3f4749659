import { describe, expect, test } from "vitest";
import { admin, GOTV_REMINDER, sandbox } from "./helpers.js";
import { advance, events, messages, scheduleProject } from "./sending-fixture.js";

/** Runs one script (schedule, 15 virtual minutes) and returns the sent log and the outbox. */
async function run(seed: number) {
  const sb = await sandbox({ seed });
  try {
    await admin(sb, "PATCH", "/simulation", { failure_rate: 0.2, reply_rate: 0.3, opt_out_share: 0.5 });
    await scheduleProject(sb, GOTV_REMINDER, "2026-12-01T15:00:30Z");
    await advance(sb, 15 * 60_000);
    expect(sb.bugs).toEqual([]);
    return { sent: await messages(sb), outbox: await events(sb) };
  } finally {
    await sb.close();
  }
}

describe("determinism", () => {
  test("the same seed gives the same sent log and events; another seed does not", async () => {
    const [a, b, c] = await Promise.all([run(7), run(7), run(8)]);
    expect(a.sent).toHaveLength(38);
    expect(a.outbox.some((e) => e.kind === "message.replied")).toBe(true);
    expect(a.outbox.some((e) => e.kind === "message.failed")).toBe(true);
    expect(b.sent).toEqual(a.sent);
    expect(b.outbox).toEqual(a.outbox);
    const fates = (r: typeof a) => r.sent.map((m) => `${m.to}:${m.status}:${m.conversation_id !== null}`);
    expect(fates(c)).not.toEqual(fates(a));
  });
});
