/**
 * `status` beside the replies worker's record: `replies run --segment-price` writes each answer's
 * segments and cost to answered.jsonl, and `status` shows the answers per rule and their cost (text,
 * --json against its schema, Markdown), counted against the sandbox's threads. No record: no replies
 * part (a warning only when --replies-state named the directory).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { analyzeSegments } from "../../src/message/segments.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { EXAMPLE_FIXTURE } from "../sandbox/helpers.js";
import { runStatus } from "../status/harness.js";
import { ANSWERS, answersAfter, campaignDir, runJson, TEXTS, textIn } from "./world.js";

let sb: SandboxHandle;
beforeEach(async () => {
  sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: true, seed: 5 });
});
afterEach(async () => {
  await sb.close();
});

const PRICE = 0.0079;
const segmentsOf = (rule: keyof typeof ANSWERS) => analyzeSegments(ANSWERS[rule]).segments;

describe("status shows the replies answered per rule and their cost", () => {
  it("from the record replies run wrote, agreeing with the threads", async () => {
    const cwd = campaignDir();
    const sent: { messageId: string; conversationId: string; rule: string | null; project: string }[] = [];
    for (const [n, t] of TEXTS.entries())
      sent.push({ ...(await textIn(sb, t.project, n, t.text)), rule: t.rule, project: t.project });
    await sb.clock.advance(5_000);
    const run = await runJson(sb, cwd, { once: true, webhooks: false, segmentPrice: PRICE });
    expect(run.code, run.stderr).toBe(0);

    // The record: each answer with its rule, answer id, segments and cost.
    const record = readFileSync(join(cwd, ".campaignctl/replies/answered.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const answeredLines = record.filter((l) => l.t === "answered");
    expect(answeredLines.length).toBe(sent.filter((s) => s.rule !== null).length);
    for (const l of answeredLines) {
      const s = sent.find((x) => x.messageId === l.inbound_message_id);
      expect(s?.rule).toBe(l.rule);
      expect(l.answer_message_id).toEqual(expect.any(String));
      expect(l.segments).toBe(segmentsOf(l.rule));
      expect(l.segment_price_usd).toBe(PRICE);
      expect(l.cost_usd).toBeCloseTo(l.segments * PRICE, 6);
    }

    // Expected per project and rule, from the sandbox's threads.
    const expected = new Map<string, Map<string, number>>();
    for (const s of sent) {
      if (s.rule === null) continue;
      expect(answersAfter(sb, s.conversationId, s.messageId)).toHaveLength(1);
      const rules = expected.get(s.project) ?? new Map<string, number>();
      rules.set(s.rule, (rules.get(s.rule) ?? 0) + 1);
      expected.set(s.project, rules);
    }

    const json = await runStatus(sb, cwd, ["--json"], [], { json: true });
    expect(json.code, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout);
    expect(doc.replies.state).toBe(".campaignctl/replies");
    const byAddress = new Map(doc.replies.projects.map((p: { address: string }) => [p.address, p]));
    for (const [project, rules] of expected) {
      const p = byAddress.get(project === "gotv" ? "gotv-reminder" : "volunteers") as {
        answered: number;
        segments: number;
        cost_usd: number;
        rules: { rule: string; answered: number; segments: number; cost_usd: number }[];
      };
      expect(Object.fromEntries(p.rules.map((r) => [r.rule, r.answered]))).toEqual(Object.fromEntries(rules));
      for (const r of p.rules) {
        expect(r.segments).toBe(r.answered * segmentsOf(r.rule as keyof typeof ANSWERS));
        expect(r.cost_usd).toBeCloseTo(r.segments * PRICE, 6);
      }
      expect(p.answered).toBe([...rules.values()].reduce((a, b) => a + b, 0));
      expect(p.cost_usd).toBeCloseTo(p.segments * PRICE, 6);
    }

    const text = await runStatus(sb, cwd, [], []);
    expect(text.code, text.stderr).toBe(0);
    // The rules in the order the record first names them (the order they were answered).
    const table = text.stdout.slice(text.stdout.indexOf("\nReplies answered"));
    expect(table).toBe(
      [
        "",
        "Replies answered (.campaignctl/replies/answered.jsonl):",
        "  PROJECT        RULE         ANSWERED  REFUSED  SEGMENTS     COST",
        "  gotv-reminder  donde               2        0         2  $0.0158",
        "  gotv-reminder  who                 2        0         2  $0.0158",
        "  gotv-reminder  where               2        0         2  $0.0158",
        "  gotv-reminder  (all rules)         6        0         6  $0.0474",
        "  volunteers     shift               1        0         1  $0.0079",
        "  Cost: segments times the --segment-price `replies run` was given (? where an answer was recorded without one).",
        "",
      ].join("\n"),
    );
  });

  it("the Markdown status has the replies section", async () => {
    const cwd = campaignDir();
    const t = TEXTS[0];
    if (t === undefined) throw new Error("no text");
    await textIn(sb, t.project, 0, t.text);
    await sb.clock.advance(5_000);
    expect((await runJson(sb, cwd, { once: true, webhooks: false })).code).toBe(0);
    const md = await runStatus(sb, cwd, ["--markdown", "status.md"], [], { markdown: "status.md" });
    expect(md.code, md.stderr).toBe(0);
    const text = readFileSync(join(cwd, "status.md"), "utf8");
    expect(text.slice(text.indexOf("### Replies answered"))).toBe(
      [
        "### Replies answered",
        "",
        "| Project | Rule | Answered | Refused | Segments | Cost |",
        "| --- | --- | --: | --: | --: | --: |",
        // No --segment-price given to the run: the cost is unknown, the segments are counted.
        "| `gotv-reminder` | where | 1 | 0 | 1 | ? |",
        "",
        "Cost: segments times the --segment-price `replies run` was given (? where an answer was recorded without one).",
        "",
      ].join("\n"),
    );
  });

  it("without a record: no replies part; a named directory without one is a warning", async () => {
    const cwd = campaignDir();
    const plain = await runStatus(sb, cwd, ["--json"], [], { json: true });
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.stdout).replies).toBeUndefined();
    expect(plain.stderr).toBe("");
    const named = await runStatus(sb, cwd, ["--json", "--replies-state", "nowhere"], [], {
      json: true,
      repliesState: "nowhere",
    });
    expect(named.code).toBe(0);
    expect(JSON.parse(named.stdout).replies).toBeUndefined();
    expect(named.stderr).toContain("replies.record-missing");
    expect(named.stderr).toContain("--replies-state nowhere: there is no answered.jsonl");
  });
});
