/**
 * The kill loop's check (bench/webhooks-kill-loop.mjs, used by sigkill.test.ts) allows an event to be
 * printed twice only in the window docs/webhooks.md names: its first print in the last write of a
 * run that was killed (the batch's lines, same `at`, nothing after them), its second on the next
 * start that prints what it recovered, marked `recovered` (a start killed on its first line, before
 * that, repeats nothing). Any other repeat is listed.
 */
import { describe, expect, test } from "vitest";
import { checkKillLoop } from "../../bench/webhooks-kill-loop.mjs";

const accepted = (id: string, at: string, recovered = false) =>
  JSON.stringify({ type: "accepted", at, event_id: id, recovered });
/** A listener run's output: `code` null for a run killed with SIGKILL. */
const run = (code: number | null, ...lines: string[]) => ({
  code,
  signal: code === null ? "SIGKILL" : null,
  stdout: lines.map((l) => `${l}\n`).join(""),
  stderr: "",
});
const record = ["a", "b", "c"].map((id) => JSON.stringify({ event_id: id })).join("\n");
const check = (outputs: ReturnType<typeof run>[]) =>
  checkKillLoop({ acked: ["a", "b", "c"], outputs, kills: outputs.length - 1, seconds: 0 }, record);
const T1 = "2026-01-01T00:00:01.000Z";
const T2 = "2026-01-01T00:00:02.000Z";

describe("a repeated print", () => {
  test("of a killed run's last batch, recovered on the next start: in the window", () => {
    const c = check([
      run(null, accepted("a", T1), accepted("b", T2), accepted("c", T2)),
      run(0, accepted("b", T2, true), accepted("c", T2, true)),
    ]);
    expect(c.printedTwice).toEqual(["b", "c"]);
    expect(c.repeatsOutsideWindow).toEqual([]);
  });

  test("recovered by the start after one killed on its first line (no accepted line printed): in the window", () => {
    const listening = JSON.stringify({ type: "listening" });
    const c = check([
      run(null, accepted("a", T1), accepted("b", T2)),
      run(null, listening),
      run(0, listening, accepted("b", T2, true)),
    ]);
    expect(c.printedTwice).toEqual(["b"]);
    expect(c.repeatsOutsideWindow).toEqual([]);
  });

  test("three times, each start killed in the same window: in it", () => {
    const outputs = [
      run(null, accepted("b", T2)),
      run(null, accepted("b", T2, true)),
      run(0, accepted("b", T2, true)),
    ];
    expect(check(outputs).repeatsOutsideWindow).toEqual([]);
  });

  test.each([
    [
      "the run was not killed",
      [run(0, accepted("a", T1), accepted("b", T2)), run(0, accepted("b", T2, true))],
    ],
    [
      "the repeat is not marked recovered",
      [run(null, accepted("a", T1), accepted("b", T2)), run(0, accepted("b", T2))],
    ],
    [
      "a later batch followed the first print",
      [run(null, accepted("b", T1), accepted("a", T2)), run(0, accepted("b", T1, true))],
    ],
    [
      "a run between printed what it recovered, without it",
      [
        run(null, accepted("a", T1), accepted("b", T2)),
        run(null, accepted("c", T1, true)),
        run(0, accepted("b", T2, true)),
      ],
    ],
    [
      "a run between was not killed",
      [run(null, accepted("a", T1), accepted("b", T2)), run(0), run(0, accepted("b", T2, true))],
    ],
    [
      "the second of three prints was not its run's last write",
      [
        run(null, accepted("b", T2)),
        run(null, accepted("b", T2, true), accepted("a", T1)),
        run(0, accepted("b", T2, true)),
      ],
    ],
  ])("outside it when %s", (_why, outputs) => {
    expect(check(outputs).repeatsOutsideWindow).toEqual(["b"]);
  });
});
