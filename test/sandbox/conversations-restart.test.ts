/** A reply in flight when the sandbox stops resumes on the clock after a restart from the state file. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { CONV_ACTIVE, conversationFixture } from "./conversations-world.js";
import { api } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "sbx-conv-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("replies across a restart", () => {
  it("a queued reply goes on to sent and delivered or failed after the restart", async () => {
    const statePath = join(dir, "state.json");
    const options = { fixture: conversationFixture(), statePath, rateLimits: false };
    const first = await startSandbox(options);
    const r = await api(first, "POST", `/conversations/${CONV_ACTIVE}/messages`, {
      body: { text: "On my way" },
    });
    expect(r.status).toBe(202);
    await first.close();

    const second = await startSandbox(options);
    try {
      const thread = await api(second, "GET", `/conversations/${CONV_ACTIVE}/messages?limit=1`);
      expect(thread.body.data.data[0]).toMatchObject({
        message_id: r.body.data.message_id,
        status: "queued",
      });
      await second.clock.advance(5000);
      const kinds = second.store.world.events
        .filter((e) => e.payload.message_id === r.body.data.message_id)
        .map((e) => e.kind);
      expect(kinds[0]).toBe("message.sent");
      expect(kinds).toHaveLength(2);
    } finally {
      await second.close();
    }
  });
});
