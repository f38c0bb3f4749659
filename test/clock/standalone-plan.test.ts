/**
 * `plan --base-url` against a standalone `campaignctl sandbox` (run in-process, over HTTP on
 * loopback): with defaults the sandbox's clock starts at the real now and its world moves with it, so
 * the plan reads stats in bulk without a window error; against a sandbox two hours ahead of this
 * machine, the plan judges `at` by the sandbox's clock and warns about the skew. Both "real now" and
 * the client's clock are injected (a fixed instant, never today's date); the virtual clock is frozen.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { planCommand } from "../../cli/commands/plan.js";
import { runSandbox } from "../../cli/commands/sandbox.js";
import { type CapturedIo, captureIo } from "../helpers/run-cli.js";
import { until } from "../helpers/until.js";
import { PARENT_KEY } from "../sandbox/helpers.js";

/** This machine's clock in these tests: 2031-03-10 11:00 in Chicago (CDT). */
const LOCAL = Date.parse("2031-03-10T16:00:00Z");
const HOUR = 3_600_000;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Starts `campaignctl sandbox --port 0 --time-scale 0 [--start ...]` with "real now" at `realNow`. */
async function standalone(realNow: number, start?: "fixture"): Promise<string> {
  const io = captureIo();
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((r) => {
    stop = r;
  });
  const flags = { port: 0, host: "127.0.0.1", timeScale: 0, rateLimits: true, seed: 1, start };
  const running = runSandbox(flags, io, stopped, () => new Date(realNow));
  cleanups.push(async () => {
    stop();
    await running;
  });
  let ended = false;
  void running.finally(() => {
    ended = true;
  });
  await until(() => io.out().includes("Ctrl-C") || ended); // a sandbox that could not start has ended
  const baseUrl = /at (http:\/\/\S+\/v1)/.exec(io.out())?.[1];
  if (baseUrl === undefined) throw new Error(`sandbox did not start: ${io.out()}${io.err()}`);
  return baseUrl;
}

/** The example GOTV file in a temp dir, its reminder scheduled at `at`. */
function gotvDir(at: string): string {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-clock-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cpSync("schemas", join(dir, "schemas"), { recursive: true });
  const text = readFileSync("examples/gotv.yaml", "utf8").replace(
    'at: "2026-12-07T10:00:00-06:00"',
    `at: "${at}"`,
  );
  writeFileSync(join(dir, "gotv.yaml"), text);
  return dir;
}

interface PlanDoc {
  diagnostics: { code: string; severity: string; message: string }[];
  projects: { address: string; actions: { id: string; status: string }[]; diagnostics: { code: string }[] }[];
  requests: { total: number; by_endpoint: Record<string, number>; naive: number };
}

async function plan(baseUrl: string, dir: string): Promise<{ doc: PlanDoc; io: CapturedIo }> {
  const io = captureIo({ cwd: dir, env: { NO_COLOR: "1", CAMPAIGNCTL_API_KEY: PARENT_KEY } });
  await planCommand(
    ["gotv.yaml"],
    { baseUrl, target: ["gotv-reminder"], exclude: [], json: true, refresh: true, color: false },
    io,
    { clock: { now: () => LOCAL } },
  );
  return { doc: JSON.parse(io.out()) as PlanDoc, io };
}

const reminder = (doc: PlanDoc) => doc.projects.find((p) => p.address === "gotv-reminder");

describe("plan against a standalone sandbox", () => {
  it("started with defaults: the clocks agree, stats are read in bulk, no window error", async () => {
    const baseUrl = await standalone(LOCAL);
    const { doc, io } = await plan(baseUrl, gotvDir("2031-03-11T10:00:00-05:00"));
    const everything = `${io.out()}${io.err()}`;
    expect(everything).not.toContain("startDate");
    expect(doc.diagnostics.map((d) => d.code)).toEqual([]);
    // The README's request table: organizations, the three lists, one stats page, the project.
    expect(doc.requests.by_endpoint).toEqual({
      "GET /campaigns": 1,
      "GET /contact-lists": 1,
      "GET /organizations": 1,
      "GET /phone-numbers": 1,
      "GET /projects/stats": 1,
      "GET /projects/{id}": 1,
    });
    expect(reminder(doc)?.actions.map((a) => `${a.id}:${a.status}`)).toEqual([
      "gotv-reminder.test:planned",
      "gotv-reminder.schedule:deferred",
    ]);
  });

  it("two hours ahead of this machine: `at` is judged by the sandbox's clock, and the skew is warned", async () => {
    const baseUrl = await standalone(LOCAL + 2 * HOUR);
    // One hour ahead of this machine, one hour behind the API.
    const { doc } = await plan(baseUrl, gotvDir("2031-03-10T12:00:00-05:00"));
    const skew = doc.diagnostics.filter((d) => d.code === "plan.clock-skew");
    expect(skew.map((d) => [d.severity, d.message])).toEqual([
      [
        "warning",
        "the API's clock (2031-03-10T18:00:00Z) is 2h ahead of this machine's (2031-03-10T16:00:00Z); the plan judges schedules by the API's clock",
      ],
    ]);
    expect(reminder(doc)?.actions.find((a) => a.id === "gotv-reminder.schedule")?.status).toBe("blocked");
    expect(reminder(doc)?.diagnostics.map((d) => d.code)).toContain("plan.schedule-in-past");
    expect(doc.requests.by_endpoint["GET /projects/stats"]).toBe(1);
  });

  it("with --start fixture, years before this machine's clock: still no window error, and a skew warning", async () => {
    const baseUrl = await standalone(LOCAL, "fixture");
    const { doc, io } = await plan(baseUrl, gotvDir("2026-12-07T10:00:00-06:00"));
    expect(`${io.out()}${io.err()}`).not.toContain("startDate");
    expect(doc.diagnostics.map((d) => d.code)).toEqual(["plan.clock-skew"]);
    expect(doc.diagnostics[0]?.message).toContain("the API's clock (2026-12-01T15:00:00Z) is ");
    expect(reminder(doc)?.actions.find((a) => a.id === "gotv-reminder.schedule")?.status).toBe("deferred");
  });
});
