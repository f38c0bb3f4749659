/**
 * What `replies run` decides before its worker starts (src/replies/run-checks.ts), as data: the
 * listener flags that cannot take effect, the start's warnings and the run's exit. The command's
 * own tests (run.test.ts, flags.test.ts) show the same through the CLI.
 */
import { describe, expect, test } from "vitest";
import {
  listenerFlagsUnused,
  listens,
  recordMissing,
  recordOpenFailure,
  runSucceeded,
  startWarnings,
  stateUnreadable,
} from "../../src/replies/run-checks.js";

describe("replies run's checks", () => {
  test("--port, --host and --secret-env need the listener: one usage error each under --once or --no-webhooks", () => {
    expect(listens({})).toBe(true);
    expect(listens({ once: true })).toBe(false);
    expect(listens({ webhooks: false })).toBe(false);
    expect(listenerFlagsUnused({ port: 1, host: "h", secretEnv: ["S"] })).toEqual([]);
    const once = listenerFlagsUnused({ once: true, port: 1, secretEnv: ["S"] });
    expect(once.map((d) => [d.code, d.message])).toEqual([
      ["cli.usage", "--port configures the event listener, and --once runs none"],
      ["cli.usage", "--secret-env configures the event listener, and --once runs none"],
    ]);
    expect(listenerFlagsUnused({ webhooks: false, host: "h" })[0]?.hint).toContain("drop --no-webhooks");
  });

  test("the start warns of a --since the cursor overrides and of a torn record, naming the files", () => {
    const cursor = { updatedSince: "2026-12-01T15:00:00.000Z", lastPassAt: null, settled: {} };
    const files = { cursorFile: "s/cursor.json", answeredFile: "s/answered.jsonl" };
    expect(startWarnings({ since: undefined, cursor, torn: 0, ...files })).toEqual([]);
    const fresh = { ...cursor, updatedSince: null };
    expect(startWarnings({ since: 3_600_000, cursor: fresh, torn: 0, ...files })).toEqual([]);
    const both = startWarnings({ since: 3_600_000, cursor, torn: 12, ...files });
    expect(both.map((d) => [d.severity, d.code])).toEqual([
      ["warning", "replies.since-unused"],
      ["warning", "replies.record-torn"],
    ]);
    expect(both[0]?.message).toContain("s/cursor.json already reads from 2026-12-01T15:00:00.000Z");
    expect(both[1]?.message).toContain("s/answered.jsonl was cut short (12 bytes)");
  });

  test("a locked record is the worker's lock; any other failure to open it, its state unusable", () => {
    const d = { severity: "error" as const, message: "m" };
    expect(recordOpenFailure({ ...d, code: "webhooks.state-locked" }).code).toBe("replies.state-locked");
    expect(recordOpenFailure({ ...d, code: "webhooks.state-unusable" }).code).toBe("replies.state-unusable");
  });

  test("the exit: 402 fails; --once fails while an answer is unknown or a pass could not read", () => {
    const clean = { reason: "once", pending: 0, failedPasses: 0 };
    expect(runSucceeded(clean, true)).toBe(true);
    expect(runSucceeded({ ...clean, reason: "insufficient-balance" }, false)).toBe(false);
    expect(runSucceeded({ ...clean, pending: 1 }, true)).toBe(false);
    expect(runSucceeded({ ...clean, failedPasses: 1 }, true)).toBe(false);
    expect(runSucceeded({ ...clean, reason: "interrupted", pending: 1 }, false)).toBe(true);
  });

  test("replies plan --state: a directory it cannot read is an error; one without a record, a warning", () => {
    expect(stateUnreadable("s", new Error("EACCES"))).toMatchObject({
      severity: "error",
      code: "replies.state-unusable",
      message: "Cannot read the state directory s: EACCES",
    });
    expect(recordMissing("s", "answered.jsonl")).toMatchObject({
      severity: "warning",
      code: "replies.record-missing",
      message: "--state s: there is no answered.jsonl: the plan judges every inbound by its thread alone",
    });
  });
});
