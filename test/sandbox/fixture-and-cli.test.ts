import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runSandbox } from "../../cli/commands/sandbox.js";
import { loadFixtureFile } from "../../src/sandbox/fixture/load.js";
import { openSandbox } from "../../src/sandbox/index.js";
import { captureIo, runCli } from "../helpers/run-cli.js";
import { until } from "../helpers/until.js";
import { EXAMPLE_FIXTURE, exampleFixture, PARENT_KEY } from "./helpers.js";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});
function writeTemp(name: string, text: string): string {
  const d = mkdtempSync(join(tmpdir(), "sandbox-fixture-"));
  dirs.push(d);
  const file = join(d, name);
  writeFileSync(file, text);
  return file;
}

const example = readFileSync(EXAMPLE_FIXTURE, "utf8");

describe("fixture loading", () => {
  test("the example fixture loads", () => {
    expect(loadFixtureFile(EXAMPLE_FIXTURE).ok).toBe(true);
  });

  test.each([
    ["a YAML syntax error", example.replace("version: 1", "version: [1"), /.+/, undefined],
    [
      "an unknown key",
      example.replace("    balance_cents: 40000", "    balance_cents: 40000\n    colour: blue"),
      /colour/,
      "organizations[1]",
    ],
    [
      "a bad enum",
      example.replace("type: write-only", "type: read-mostly"),
      /allowed values/,
      "api_keys[2].type",
    ],
    [
      "an unknown reference",
      example.replace(
        "campaign_id: c1a2c3d4-0000-4000-8000-000000000001\n    created_at",
        "campaign_id: c1a2c3d4-0000-4000-8000-00000000ffff\n    created_at",
      ),
      /unknown 10DLC campaign/,
      "phone_numbers[0].campaign_id",
    ],
    [
      "a timestamp no Date can hold (an offset without minutes)",
      example.replace('created_at: "2025-02-11T17:20:00Z"', 'created_at: "2025-02-11T17:20:00-06"'),
      /pattern/,
      "organizations[0].created_at",
    ],
    [
      "a leap second",
      example.replace('created_at: "2025-02-11T17:20:00Z"', 'created_at: "2016-12-31T23:59:60Z"'),
      /pattern/,
      "organizations[0].created_at",
    ],
    [
      "a key without the live prefix",
      example.replace("key: pc_live_sbx_rv_rw_7Hq2mX9vT4", "key: sk_riverside"),
      /pattern/,
      "api_keys[0].key",
    ],
  ])("%s is reported with file and line", (_name, text, message, path) => {
    const file = writeTemp("world.yaml", text);
    const loaded = loadFixtureFile(file);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    const [problem] = loaded.problems;
    expect(problem?.file).toBe(file);
    expect(problem?.line).toBeGreaterThan(0);
    expect(problem?.message).toMatch(message);
    if (path) expect(problem?.message.startsWith(path)).toBe(true);
  });

  test("the line points at the offending value", () => {
    const text = example.replace("type: write-only", "type: read-mostly");
    const loaded = loadFixtureFile(writeTemp("w.yaml", text));
    const expectedLine = text.split("\n").findIndex((l) => l.includes("read-mostly")) + 1;
    expect(!loaded.ok && loaded.problems[0]?.line).toBe(expectedLine);
  });

  test("a fixture object with a timestamp no Date can hold is a start problem, not a throw", async () => {
    const f = exampleFixture();
    f.organizations[0] = {
      ...f.organizations[0],
      created_at: "2025-02-11T17:20:00-06",
    } as (typeof f.organizations)[number];
    const started = await openSandbox({ fixture: f });
    expect(started.ok).toBe(false);
    if (!started.ok) expect(started.problems[0]?.message).toMatch(/^organizations\[0\]\.created_at: /);
  });

  test("an invalid fixture object is a start problem", async () => {
    const f = exampleFixture();
    f.organizations[1] = { ...f.organizations[1], parent_id: "nope" } as (typeof f.organizations)[number];
    const started = await openSandbox({ fixture: f });
    expect(started.ok).toBe(false);
    if (!started.ok) expect(started.problems[0]?.message).toMatch(/unknown organization "nope"/);
  });
});

describe("campaignctl sandbox", () => {
  test("a bad fixture prints file:line:col: error[code], the line and a hint, and exits 1 without a stack", async () => {
    const text = example.replace("type: write-only", "type: read-mostly");
    const file = writeTemp("bad.yaml", text);
    const line = text.split("\n").findIndex((l) => l.includes("read-mostly")) + 1;
    const r = await runCli(["sandbox", "--port", "0", "--fixture", file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    const [first, excerpt] = r.stderr.split("\n");
    expect(first).toMatch(
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:${line}:\\d+: error\\[cli\\.sandbox-unavailable\\]: api_keys\\[2\\]\\.type`,
      ),
    );
    expect(excerpt).toContain("type: read-mostly");
    expect(r.stderr).toContain(
      "  hint: fix the fixture (its format is in docs/sandbox.md), then run again\n",
    );
    expect(r.stderr).not.toMatch(/\bat .*\.ts:\d+/);
  });

  test.each([
    ["--port", "-1"],
    ["--time-scale", "fast"],
    ["--seed", "x"],
  ])("%s %s is a usage error", async (flag, value) => {
    const r = await runCli(["sandbox", flag, value]);
    expect(r.code).toBe(1);
  });

  test("serves, prints the base URL and keys, and stops cleanly with the state flushed", async () => {
    const state = join(mkdtempSync(join(tmpdir(), "sandbox-cli-")), "s.json");
    dirs.push(join(state, ".."));
    const io = captureIo({ env: {} });
    let stop: () => void = () => undefined;
    const stopped = new Promise<void>((r) => {
      stop = r;
    });
    const flags = { port: 0, host: "127.0.0.1", timeScale: 0, rateLimits: true, seed: 1, state };
    const running = runSandbox(flags, io, stopped);
    let ended = false;
    void running.finally(() => {
      ended = true;
    });
    await until(() => io.out().includes("Ctrl-C") || ended); // a sandbox that could not start has ended
    const baseUrl = /at (http:\/\/\S+\/v1)/.exec(io.out())?.[1];
    expect(baseUrl).toBeDefined();
    expect(io.out()).toContain(PARENT_KEY);
    const res = await fetch(`${baseUrl}/organizations`, { headers: { "x-api-key": PARENT_KEY } });
    expect(res.status).toBe(200);
    stop();
    expect((await running).kind).toBe("success");
    expect(JSON.parse(readFileSync(state, "utf8")).format).toBe("campaignctl-sandbox-state");
    await expect(fetch(`${baseUrl}/organizations`)).rejects.toThrow();
  });
});
