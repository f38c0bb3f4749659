/**
 * A key whose check (`GET /organizations`) fails is a key whose statistics were not read
 * (docs/results.md "Recording"): `results record` names it among the keys, failed, with
 * `results.key-unreadable`, and a recording where no key could be used is an error (exit 1). Before,
 * such a key was left out of the recording altogether: every key refused recorded nothing and
 * exited 0 with `"ok": true`, and `watch --record` counted an hour recorded whole while a key's
 * organization was not read (src/results/record-summary.ts `recordedWhole`).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { admin, CHILD_KEY, CHILD_ORG } from "../sandbox/helpers.js";
import { record } from "./harness.js";
import { resultsFixture } from "./world.js";

interface Recorded {
  ok: boolean;
  keys: { source: string; stats_pages: number; rows: number; ok: boolean }[];
  projects: number;
  written: number;
  diagnostics: { severity: string; code: string; message: string }[];
}

let sb: SandboxHandle;
const fresh = () => mkdtempSync(join(tmpdir(), "campaignctl-results-keys-"));
const CHILD_VARIABLE = "CAMPAIGNCTL_API_KEY_RIVERSIDE_YOUNG_DEMOCRATS";

beforeAll(async () => {
  sb = await startSandbox({ fixture: resultsFixture(), timeScale: 0, rateLimits: true });
});
beforeEach(async () => {
  await admin(sb, "DELETE", "/faults");
});
afterAll(async () => {
  expect(sb.bugs).toEqual([]);
  await sb.close();
});

describe("a key whose check fails", () => {
  it("is a key that failed: named, warned, and the others are recorded", async () => {
    await admin(sb, "POST", "/faults", { spec: `GET /organizations: status(503) org=${CHILD_ORG}` });
    const result = await record(sb, fresh(), ["--json"], { json: true });
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout) as Recorded;
    expect(doc.keys.map((k) => [k.source, k.ok])).toEqual([
      ["CAMPAIGNCTL_API_KEY_RIVERSIDE_DEMOCRATS", true],
      [CHILD_VARIABLE, false],
    ]);
    expect(doc.keys[1]).toMatchObject({ stats_pages: 0, rows: 0 });
    const warned = doc.diagnostics.filter((d) => d.code === "results.key-unreadable");
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ severity: "warning" });
    expect(warned[0]?.message).toContain(`the key in ${CHILD_VARIABLE} could not be used`);
    // The parent's key lists its child's projects too: all of them are recorded.
    expect(doc.written).toBe(6);
  });

  it("every key's check failing records nothing, and is an error", async () => {
    await admin(sb, "POST", "/faults", { spec: "GET /organizations: status(503)" });
    const result = await record(sb, fresh(), ["--json"], { json: true });
    expect(result.code).toBe(1);
    const doc = JSON.parse(result.stdout) as Recorded;
    expect(doc.ok).toBe(false);
    expect(doc.keys.every((k) => !k.ok)).toBe(true);
    expect(doc.keys).toHaveLength(2);
    expect(doc.diagnostics.filter((d) => d.code === "results.key-unreadable").map((d) => d.severity)).toEqual(
      ["error", "error"],
    );
  });

  it("the only key refused is an error, in text too", async () => {
    await admin(sb, "POST", "/faults", { spec: `GET /organizations: status(401) org=${CHILD_ORG}` });
    const result = await record(sb, fresh(), [], {}, {}, { [CHILD_VARIABLE]: CHILD_KEY });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("Nothing was recorded");
    expect(result.stdout).toContain(`${CHILD_VARIABLE}: 0 pages (0 rows), failed`);
    expect(result.stderr).toContain(
      `error[results.key-unreadable]: the key in ${CHILD_VARIABLE} could not be used`,
    );
  });
});
