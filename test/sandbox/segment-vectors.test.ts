/**
 * The sandbox bills what the planner estimates: its segment counter over the shared vectors
 * (test/fixtures/segment-vectors.json, also run against the planner by
 * test/message/segment-vectors.test.ts), then what it really bills over HTTP on loopback, on a
 * sandbox started at the fixture's fixed instant: the 402 of a reply the organization cannot pay,
 * a paid reply (balance, actual cost, message.sent event) and a project send (sent log, stats).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPLY_TEXT_MAX } from "../../src/contract/limits.js";
import { normalizeForGsm } from "../../src/sandbox/conversations/gsm.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { ONE_CODE_POINT_GRAPHEMES, segmentsOf } from "../../src/sandbox/sms.js";
import { encodingName, loadSegmentVectors, type SegmentVector } from "../helpers/segment-vectors.js";
import { CONV_ACTIVE, CONV_POOR, conversationSandbox, POOR_ORG } from "./conversations-world.js";
import { admin, api, GOTV_FOLLOWUP, GOTV_REMINDER, ORG, sandbox } from "./helpers.js";
import { advance, messages, scheduleProject } from "./sending-fixture.js";

const vectors = loadSegmentVectors();
const vector = (name: string): SegmentVector => {
  const v = vectors.find((x) => x.name === name);
  if (v === undefined) throw new Error(`no vector named ${name}`);
  return v;
};
const ISSUE_15 = vector("issue 15: € straddling septet 153 moves to segment 2");
const EMOJI_67 = vector("67 emoji = 134 units: three segments, not two");
const SURROGATE_67 = vector("surrogate pair straddling unit 67 after ASCII");
const SURROGATE_134 = vector("surrogate pair straddling unit 134 moves to segment 3");

/** One rate for every channel, so a message costs its segments times this. */
const RATE_E4 = 100;
const samePrices = { sms_segment_price_e4: RATE_E4, toll_free_segment_price_e4: RATE_E4 };

describe("segmentsOf over the shared segment vectors", () => {
  it.each(vectors)("$name: $encoding, $segments segment(s)", (v) => {
    expect(segmentsOf(v.text)).toEqual({ encoding: encodingName(v.encoding), segments: v.segments });
  });
});

describe("text split by code points without the grapheme segmenter", () => {
  it("holds only characters that never join a neighbour (every BMP code point it accepts)", () => {
    const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });
    const joining: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const ch = String.fromCharCode(code);
      if (!ONE_CODE_POINT_GRAPHEMES.test(ch)) continue;
      if ([...segmenter.segment(`a${ch}a`)].length !== 3) joining.push(code.toString(16));
    }
    expect(joining).toEqual([]);
    expect(ONE_CODE_POINT_GRAPHEMES.test("\uD83D")).toBe(false);
    expect(ONE_CODE_POINT_GRAPHEMES.test("e\u0301")).toBe(false);
  });
});

describe("replies are billed by the vectors' segments (HTTP)", () => {
  let sb: SandboxHandle;
  beforeAll(async () => {
    sb = await conversationSandbox();
    expect((await admin(sb, "PATCH", "/simulation", samePrices)).status).toBe(200);
  });
  afterAll(async () => {
    expect(sb.bugs).toEqual([]);
    await sb.close();
  });

  // A reply is normalized for GSM-7 first (Á becomes A): only texts normalization keeps go as they are.
  const sendable = vectors.filter(
    (v) => v.text.trim() !== "" && v.text.length <= REPLY_TEXT_MAX && normalizeForGsm(v.text) === v.text,
  );
  it("most vectors can be sent as replies unchanged", () => {
    expect(sendable.length).toBeGreaterThanOrEqual(30);
    expect(sendable).toContain(ISSUE_15);
    for (const v of [ISSUE_15, EMOJI_67, SURROGATE_67]) expect(sendable).toContain(v);
  });

  it.each(sendable)("$name: the 402 of an unpaid reply asks for $segments segment(s)", async (v) => {
    const r = await api(sb, "POST", `/conversations/${CONV_POOR}/messages`, { body: { text: v.text } });
    expect([r.status, r.body.code]).toEqual([402, "INSUFFICIENT_BALANCE"]);
    expect(r.body.details).toEqual({
      organization_id: POOR_ORG,
      balance_cents: 0,
      required_cents: v.segments,
      shortfall_cents: v.segments,
      segments: v.segments,
      encoding: encodingName(v.encoding),
      rate_cents_per_segment: RATE_E4 / 100,
    });
  });

  it.each([ISSUE_15, EMOJI_67, SURROGATE_67])(
    "$name: a paid reply is charged $segments segment(s) and its message.sent event says so",
    async (v) => {
      // The balance is not exposed over HTTP: read the sandbox's own state.
      const balance = async () => sb.store.world.organizations[ORG]?.balance_cents;
      const actualCost = async () =>
        (await admin(sb, "GET", `/projects/${GOTV_REMINDER}`)).body.data.counters.actual_cost_e4;
      const [balanceBefore, costBefore] = [(await balance()) ?? Number.NaN, await actualCost()];
      const r = await api(sb, "POST", `/conversations/${CONV_ACTIVE}/messages`, { body: { text: v.text } });
      expect(r.status).toBe(202);
      expect(await balance()).toBe(balanceBefore - v.segments);
      expect(await actualCost()).toBe(costBefore + v.segments * RATE_E4);
      await advance(sb, 1000);
      const sent = (await admin(sb, "GET", `/events?organization_id=${ORG}`)).body.data.filter(
        (e: { kind: string; payload: { message_id?: string } }) =>
          e.kind === "message.sent" && e.payload.message_id === r.body.data.message_id,
      );
      expect(sent.map((e: { payload: { segments: number } }) => e.payload.segments)).toEqual([v.segments]);
    },
  );
});

describe("project sends are billed by the vectors' segments (HTTP)", () => {
  // Project sends are not normalized: a UCS-2 text with accents goes out as it is.
  const sends = [
    { project: GOTV_REMINDER, v: ISSUE_15 },
    { project: GOTV_FOLLOWUP, v: SURROGATE_134 },
  ];
  let sb: SandboxHandle;
  beforeAll(async () => {
    sb = await sandbox();
    expect((await admin(sb, "PATCH", "/simulation", samePrices)).status).toBe(200);
    for (const { project, v } of sends) {
      const edit = { message_text: v.text, opt_out_footer_enabled: false };
      expect((await admin(sb, "PATCH", `/projects/${project}`, edit)).status).toBe(200);
      await scheduleProject(sb, project, "2026-12-01T15:00:00Z");
    }
    await advance(sb, 15 * 60_000);
  });
  afterAll(async () => {
    expect(sb.bugs).toEqual([]);
    await sb.close();
  });

  it.each(sends)(
    "$v.name: every message of project $project bills $v.segments segment(s)",
    async ({ project, v }) => {
      const sent = await messages(sb, `?project_id=${project}`);
      expect(sent.length).toBeGreaterThan(0);
      for (const m of sent) {
        expect(m.text).toBe(v.text);
        expect([m.segments, m.cost_e4]).toEqual([v.segments, v.segments * RATE_E4]);
      }
      const stats = await api(sb, "GET", "/projects/stats?startDate=2026-11-15&endDate=2026-12-01");
      const row = stats.body.data.projects.find((p: { id: string }) => p.id === project);
      const e4 = sent.length * v.segments * RATE_E4;
      expect(row.actual_cost).toBe(`${Math.floor(e4 / 10_000)}.${String(e4 % 10_000).padStart(4, "0")}`);
    },
  );
});
