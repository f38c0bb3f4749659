/**
 * The two lines the listener writes for each event, the record's event line and the printed
 * `accepted` line, are built as text (issue 36) rather than by serializing an object: byte for byte
 * what `JSON.stringify` of the object gives, for any value a delivery can carry (quotes,
 * backslashes, control characters, line separators, lone surrogates, any number, nested values,
 * odd keys), and every printed line valid against its schema.
 */
import { describe, expect, test } from "vitest";
import { jsonLine, listenView, noteJson, noteJsonLine } from "../../src/report/webhooks-listen-view.js";
import { seededRandom } from "../../src/sandbox/ids.js";
import type { ListenerNote } from "../../src/webhooks/receiver.js";
import { eventLine, type RecordedEvent } from "../../src/webhooks/record.js";
import { expectValid } from "./harness.js";

const random = seededRandom(36);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;

const UNITS = [
  '"',
  "\\",
  "\n",
  "\u0000",
  "\u001f",
  "\u007f",
  "\u2028",
  "\u2029",
  "\ud800",
  "\udfff",
  "é",
  "😀",
  "a",
  "/",
  " ",
];
function text(max = 12): string {
  let out = "";
  for (let n = Math.floor(random() * max); n > 0; n--)
    out += random() < 0.5 ? pick(UNITS) : String.fromCharCode(32 + Math.floor(random() * 95));
  return out;
}
const NUMBERS = [0, -0, 1, -1.5, 0.1, 1e21, 1e-7, 2 ** 53, Number.MAX_VALUE, 123456789];
function value(depth: number): unknown {
  const kind = Math.floor(random() * (depth > 2 ? 4 : 6));
  switch (kind) {
    case 0:
      return text();
    case 1:
      return pick(NUMBERS);
    case 2:
      return pick([true, false, null]);
    case 3:
      return text(3);
    case 4:
      return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
    default:
      return object(depth + 1);
  }
}
function object(depth: number): Record<string, unknown> {
  // Through JSON.parse, as a delivery's payload is (so "__proto__" is an own key).
  const keys = Array.from({ length: Math.floor(random() * 5) }, () =>
    pick([text(6), "__proto__", "status", "x"]),
  );
  const source = `{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(value(depth)) ?? "null"}`).join(",")}}`;
  return JSON.parse(source) as Record<string, unknown>;
}

const MS = [0, 1_764_600_000_000, 1_764_600_000_123, 253_402_300_799_999];

function acceptedNote(): Extract<ListenerNote, { type: "accepted" }> {
  const body = Buffer.from(text(40));
  return {
    type: "accepted",
    at: pick(MS),
    recovered: random() < 0.3,
    event: {
      eventId: `e${text()}`,
      kind: pick(["message.sent", `k${text()}`]),
      timestampMs: pick(MS),
      secretName: pick(["CAMPAIGNCTL_WEBHOOK_SECRET", "WH_SECRET"]),
      bodyKey: `message.sent:m${text().replace(/[\n\r\u2028\u2029]/g, "")}`,
      payload: object(0),
      delivery: { headers: {}, body },
    },
  };
}

describe("the listener's lines built as text", () => {
  test("the printed accepted line is byte for byte jsonLine(noteJson(note)), and valid", () => {
    for (let i = 0; i < 400; i++) {
      const note = acceptedNote();
      const line = noteJsonLine(note);
      expect(line).toBe(jsonLine(noteJson(note)));
      expectValid("webhook-listen-line", JSON.parse(line));
    }
  });

  test("a batch printed through the view is each note's line, in order, in one write", () => {
    const notes: ListenerNote[] = [acceptedNote(), acceptedNote(), acceptedNote()];
    const writes: string[] = [];
    listenView(true, (t) => writes.push(t)).notes(notes);
    expect(writes).toEqual([notes.map((n) => jsonLine(noteJson(n))).join("")]);
  });

  test("the record's event line is byte for byte JSON.stringify of the event's object", () => {
    for (let i = 0; i < 400; i++) {
      const headers: Record<string, string> = {};
      for (const name of ["content-type", "x-webhook-signature", "x-event-id"])
        if (random() < 0.7) headers[name] = text();
      const event: RecordedEvent = {
        entry: { event_id: text(), body_key: text(), kind: text(), at: new Date(pick(MS)).toISOString() },
        headers,
        // Read back from a record, it can be any string.
        bodyBase64: random() < 0.5 ? Buffer.from(text(30)).toString("base64") : text(),
        forward: random() < 0.5,
      };
      const object = {
        event_id: event.entry.event_id,
        body_key: event.entry.body_key,
        kind: event.entry.kind,
        at: event.entry.at,
        forward: event.forward,
        headers: event.headers,
        body_base64: event.bodyBase64,
      };
      expect(eventLine(event)).toBe(`${JSON.stringify(object)}\n`);
    }
  });
});
