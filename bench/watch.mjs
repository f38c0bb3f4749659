#!/usr/bin/env node
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { watchCommand } from "../dist/cli/commands/watch.js";
import { startSandbox } from "../dist/src/sandbox/index.js";
/**
 * `campaignctl watch` of N sending projects: requests per poll (not a test; run after
 * `npm run build`; issue 18's acceptance: one stats page per poll for up to 1,000 rows).
 *
 * The world: the example fixture's organizations, lists and numbers, and N copies of GOTV Reminder
 * (38 recipients each) that the fixture schedules 10 s after the clock's start, and nothing else, so
 * the newest stats window holds exactly N rows. The brand's daily cap is lifted (38 N messages would
 * pause the copies at it) and the simulation sends one message per project per second, so each
 * copy sends for 38 s. No message fails but those of one copy, raised to 50 % (the simulation's
 * per-project knob), so the run also pauses exactly one project. The campaign file names the N projects by id under a default
 * guard (`max_failure_rate: 0.2`, `min_sample: 10`).
 *
 * An in-process sandbox (built code, loopback, rate limits on) on a frozen virtual clock: every
 * wait of watch and of its client advances it, so the run is bounded by the simulation's work, not
 * by real minutes. watch runs through the CLI's own command (`watchCommand` from dist/) with
 * `--until-done --json --interval 5s`. Counted from the sandbox's request log and from watch's own
 * `poll` lines: stats pages and requests per poll, reads by id, pauses, the busiest minute of
 * requests. Targets (exit 1 otherwise): every poll after the first reads ceil(N / 1000) stats pages
 * and nothing by id; the first adds only `GET /organizations`; exactly one pause; no 429; the
 * polls' reads (every request but the pause's POST and its two reads) at most 40 in any minute (the
 * budget docs/watch.md documents), all requests at most 100.
 *
 *   npm run build
 *   node bench/watch.mjs              # 10, 1,000 and 5,000 projects
 *   node bench/watch.mjs 1000 2500    # other sizes (at most 5,000)
 */
import { capturedIo } from "./lib.mjs";

const SIZES = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [10, 1000, 5000];
const KEY = "pc_live_sbx_rv_rw_7Hq2mX9vT4";
const START_MS = Date.parse("2026-12-01T15:00:00Z");
const fixtureText = readFileSync(new URL("../examples/sandbox.yaml", import.meta.url), "utf8");

for (const n of SIZES)
  if (!Number.isInteger(n) || n < 1 || n > 5000) {
    console.error(`size ${n}: give whole numbers from 1 to 5000`);
    process.exit(1);
  }

const iso = (ms) => new Date(ms).toISOString();
const id = (i) => `9e000000-0000-4000-8000-${String(i).padStart(12, "0")}`;

function world(n) {
  const fixture = parse(fixtureText);
  fixture.clock = { ...fixture.clock, start: iso(START_MS) };
  const template = fixture.projects.find((p) => p.project_id === "9a000000-0000-4000-8000-000000000001");
  for (const brand of fixture.brands ?? []) delete brand.daily_cap;
  fixture.projects = [];
  const projects = {};
  for (let i = 1; i <= n; i++) {
    fixture.projects.push({
      ...template,
      project_id: id(i),
      name: `Bench ${i}`,
      status: "scheduled",
      scheduled_at: iso(START_MS + 10_000),
      scheduled_timezone: "America/Los_Angeles",
      daily_cap_bypass: false,
      created_at: iso(START_MS - 3 * 86_400_000),
      updated_at: iso(START_MS - 2 * 86_400_000),
    });
    projects[`bench-${i}`] = { id: id(i) };
  }
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-bench-watch-"));
  writeFileSync(
    join(dir, "campaign.yaml"),
    stringify({
      version: 1,
      organization: "Riverside Democrats",
      defaults: { guard: { max_failure_rate: 0.2, min_sample: 10 } },
      projects,
    }),
  );
  return { fixture, dir };
}

function busiestMinute(requests) {
  const times = requests.map((r) => Date.parse(r.at)).sort((a, b) => a - b);
  let most = 0;
  let from = 0;
  for (let to = 0; to < times.length; to++) {
    while (times[to] - times[from] >= 60_000) from++;
    most = Math.max(most, to - from + 1);
  }
  return most;
}

async function run(n) {
  const { fixture, dir } = world(n);
  const sb = await startSandbox({ fixture, timeScale: 0, rateLimits: true });
  try {
    const admin = (method, path, body) =>
      fetch(`${sb.rootUrl}/_sandbox${path}`, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then((r) => r.json());
    await admin("PATCH", "/simulation", {
      messages_per_batch: 1,
      failure_rate: 0,
      reply_rate: 0,
      project_failure_rates: { [id(Math.ceil(n / 2))]: 0.5 },
    });
    await admin("DELETE", "/requests");
    const clock = () => sb.clock.nowMs();
    const { io, out } = capturedIo(dir, KEY, clock);
    const advance = async (ms) => {
      await sb.clock.advance(ms);
    };
    const started = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    const outcome = await watchCommand(
      ["."],
      { baseUrl: sb.baseUrl, untilDone: true, json: true, interval: 5000 },
      io,
      {
        session: { clock: { now: clock }, sleep: advance },
        sleep: advance,
        onInterrupt: () => () => {},
      },
    );
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    const cpuMs = (process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1000;
    const lines = out.stdout
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l));
    const log = (await admin("GET", "/requests")).data;
    const effects = (await admin("GET", "/effects?kind=pause")).data.effects;
    const polls = lines.filter((l) => l.type === "poll");
    const pausedIds = new Set(effects.map((e) => e.project_id));
    const stop = lines.at(-1);
    const route = (r) => log.requests.filter((q) => `${q.method} ${q.route}` === r).length;
    const pages = Math.ceil(n / 1000);
    const later = polls.slice(1);
    const result = {
      projects: n,
      exit: outcome.kind,
      polls: polls.length,
      stats_pages_per_poll: [...new Set(polls.map((p) => p.stats_pages))],
      requests_per_poll: [...new Set(later.map((p) => p.requests))],
      next_poll_ms: [...new Set(polls.slice(0, -1).map((p) => p.next_poll_ms))],
      first_poll_requests: polls[0]?.requests,
      reads_by_id: route("GET /projects/{id}"),
      pauses: effects.length,
      requests: log.total,
      throttled: log.requests.filter((q) => q.status === 429).length,
      busiest_minute: busiestMinute(log.requests),
      busiest_minute_of_polls: busiestMinute(
        log.requests.filter(
          (q) =>
            q.route !== "/projects/{id}/pause" &&
            !(q.route === "/projects/{id}" && pausedIds.has(q.path.split("/").at(-1))),
        ),
      ),
      virtual_s: Math.round((sb.clock.nowMs() - START_MS) / 1000),
      wall_ms: Math.round(wallMs),
      cpu_ms: Math.round(cpuMs),
      stop: stop?.reason,
    };
    const ok =
      stop?.type === "stop" &&
      stop.reason === "done" &&
      later.length > 0 &&
      later.every((p) => p.stats_pages === pages && p.projects_read_by_id === 0) &&
      polls[0]?.stats_pages === pages &&
      route("GET /organizations") === 1 &&
      effects.length === 1 &&
      result.reads_by_id === 2 &&
      result.throttled === 0 &&
      result.busiest_minute <= 100 &&
      result.busiest_minute_of_polls <= 40;
    return { ...result, ok };
  } finally {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(
  `machine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
let failed = false;
for (const n of SIZES) {
  const r = await run(n);
  console.log(JSON.stringify(r));
  if (!r.ok) failed = true;
}
process.exitCode = failed ? 1 : 0;
