/**
 * A rule's limit holds across an edit of its answer text: the answer sent before the edit is in the
 * worker's record, and counts. Counted from the sandbox's thread.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { EXAMPLE_FIXTURE } from "../sandbox/helpers.js";
import { ANSWERS, CAMPAIGN, campaignDir, runJson, textIn, threads } from "./world.js";

let sb: SandboxHandle;
beforeEach(async () => {
  sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: true, seed: 13 });
});
afterEach(async () => {
  await sb.close();
});

describe("max_per_conversation after the answer text is edited", () => {
  it("does not answer the same rule twice in one conversation", async () => {
    const cwd = campaignDir();
    const { conversationId } = await textIn(sb, "gotv", 903, "Where do I vote??");
    await sb.clock.advance(5_000);
    const first = await runJson(sb, cwd, { once: true, webhooks: false });
    expect(first.code, first.stderr).toBe(0);

    const gotv = CAMPAIGN.projects["gotv-reminder"];
    const rules = gotv.replies.rules.map((r, k) =>
      k === 0 ? { ...r, answer: "Polls are open 7am-7pm at vote.example.org/ward3." } : r,
    );
    const edited = {
      ...CAMPAIGN,
      projects: { ...CAMPAIGN.projects, "gotv-reminder": { ...gotv, replies: { ...gotv.replies, rules } } },
    };
    writeFileSync(join(cwd, "replies.yaml"), stringify(edited));
    await textIn(sb, "gotv", 903, "where do i vote again?");
    await sb.clock.advance(61_000);
    const second = await runJson(sb, cwd, { once: true, webhooks: false });
    expect(second.code, second.stderr).toBe(0);
    const outbound = (threads(sb).get(conversationId) ?? []).filter((m) => m.direction === "outbound");
    expect(
      outbound.map((m) => m.text).filter((t) => t !== ANSWERS.where && t.includes("vote.example")),
    ).toEqual([]);
    expect(outbound.filter((m) => m.text === ANSWERS.where)).toHaveLength(1);
    expect(second.lines.filter((l) => l.type === "inbound").map((l) => l.outcome)).toEqual([
      "recorded",
      "limit",
    ]);
  });
});
