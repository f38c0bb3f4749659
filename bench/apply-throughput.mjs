#!/usr/bin/env node
/**
 * apply throughput under the rate limit (not a test; run after `npm run build`).
 *
 * 300 independent actions (schedules of 300 ready projects) executed by `executePlan` against an
 * in-process sandbox with rate limits on (100 requests a minute per key), on the sandbox's virtual
 * clock (every wait advances it; nothing sleeps for real). Compared with sending the same 300
 * requests one by one with no client-side limiter, waiting out each 429's Retry-After.
 *
 * Targets (exit 1 when missed): the executor sustains at least 90% of the key's limit and receives
 * zero 429s. Sustained rate = (requests beyond the first window's burst) / (virtual time from first
 * to last request), because the first `limit` requests of a fresh key go out at once.
 *
 *   node bench/apply-throughput.mjs [actions=300]
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { createApiClient, idempotencyKey } from "../dist/src/api/index.js";
import { executePlan } from "../dist/src/apply/index.js";
import { startSandbox } from "../dist/src/sandbox/index.js";

const N = Number(process.argv[2] ?? 300);
const KEY = "pc_live_sbx_riverside_rw_7Hq2mX9vT4";
const fixtureText = readFileSync(new URL("../examples/sandbox.yaml", import.meta.url), "utf8");

function world() {
  const fixture = parse(fixtureText);
  const template = fixture.projects[0];
  const ids = [];
  for (let i = 1; i <= N; i++) {
    const id = `9c000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    ids.push(id);
    fixture.projects.push({
      ...template,
      project_id: id,
      name: `Bench ${i}`,
      status: "ready",
      updated_at: "2026-11-25T10:00:00.000Z",
    });
  }
  return { fixture, ids, org: template.organization_id };
}

function planOf(ids, org, baseUrl) {
  const body = {
    scheduled_at: "2026-12-07T10:00:00-06:00",
    scheduled_timezone: "America/Chicago",
    daily_cap_bypass: false,
  };
  const live = { status: "ready", updated_at: "2026-11-25T10:00:00.000Z" };
  return {
    format_version: 1,
    tool_version: "bench",
    created_at: "2026-12-01T15:00:00.000Z",
    base_url: baseUrl,
    files: [],
    targets: [],
    excludes: [],
    diagnostics: [],
    requests: { total: 0, by_endpoint: {}, naive: 0 },
    summary: {
      projects: ids.length,
      planned: ids.length,
      deferred: 0,
      blocked: 0,
      drifted: 0,
      errors: 0,
      warnings: 0,
    },
    projects: ids.map((id, i) => ({
      address: `bench-${i + 1}`,
      file: "bench.yaml",
      project_id: id,
      name: `Bench ${i + 1}`,
      desired: "scheduled",
      live,
      drift: [],
      estimate: null,
      diagnostics: [],
      notes: [],
      actions: [
        {
          id: `bench-${i + 1}.schedule`,
          address: `bench-${i + 1}`,
          project_id: id,
          kind: "schedule",
          status: "planned",
          request: {
            method: "POST",
            path: `/projects/${id}/schedule`,
            body,
            idempotency_key: idempotencyKey({
              org,
              project_id: id,
              action: "schedule",
              body,
              based_on: live.updated_at,
            }),
          },
          depends_on: [],
          before: "ready",
          after: "scheduled",
          reason: "bench",
        },
      ],
    })),
  };
}

function sustained(times, limit) {
  const span = (times.at(-1) - times[0]) / 60_000;
  return span <= 0 ? Number.POSITIVE_INFINITY : (times.length - limit) / span;
}

async function withExecutor() {
  const { fixture, ids, org } = world();
  const sb = await startSandbox({ fixture, rateLimits: true });
  const clock = { now: () => sb.clock.nowMs() };
  const sleep = (ms) => sb.clock.advance(ms);
  const starts = [];
  const client = createApiClient({
    baseUrl: sb.baseUrl,
    apiKey: KEY,
    clock,
    sleep,
    onEvent: (e) => e.type === "request-start" && starts.push(e.atMs),
  });
  const t0 = clock.now();
  const wall0 = performance.now();
  const result = await executePlan(planOf(ids, org, sb.baseUrl), client, {
    parallelism: 4,
    clock,
    sleep,
    waitForApproval: null,
    signal: new AbortController().signal,
    onEvent: () => {},
    toolVersion: "bench",
  });
  const wall = performance.now() - wall0;
  const stats = client.stats();
  await client.close();
  await sb.close();
  return {
    done: result.summary.done + result.summary.replayed,
    requests: stats.requests,
    throttled: stats.throttled,
    virtualMs: clock.now() - t0,
    sustainedPerMin: sustained(starts, stats.rateLimiter.limit),
    limit: stats.rateLimiter.limit,
    wallMs: wall,
  };
}

async function oneByOne() {
  const { fixture, ids, org } = world();
  const sb = await startSandbox({ fixture, rateLimits: true });
  const plan = planOf(ids, org, sb.baseUrl);
  const t0 = sb.clock.nowMs();
  let requests = 0;
  let throttled = 0;
  const times = [];
  for (const project of plan.projects) {
    const action = project.actions[0];
    for (;;) {
      requests++;
      times.push(sb.clock.nowMs());
      const res = await fetch(`${sb.baseUrl}${action.request.path}`, {
        method: "POST",
        headers: {
          "x-api-key": KEY,
          "content-type": "application/json",
          "idempotency-key": action.request.idempotency_key,
        },
        body: JSON.stringify(action.request.body),
      });
      await res.text();
      if (res.status !== 429) break;
      throttled++;
      await sb.clock.advance(Number(res.headers.get("retry-after") ?? "1") * 1000);
    }
  }
  const virtualMs = sb.clock.nowMs() - t0;
  await sb.close();
  return { requests, throttled, virtualMs };
}

const a = await withExecutor();
const b = await oneByOne();
const pct = (100 * a.sustainedPerMin) / a.limit;
console.log(`apply-throughput: ${N} independent actions, rate limit ${a.limit}/min, virtual clock`);
console.log(
  `  executePlan (parallelism 4, shared limiter): ${a.done}/${N} done, ${a.requests} requests, ${a.throttled} x 429, ` +
    `virtual ${(a.virtualMs / 1000).toFixed(1)} s, sustained ${a.sustainedPerMin.toFixed(1)}/min (${pct.toFixed(1)}% of the limit), wall ${(a.wallMs / 1000).toFixed(1)} s`,
);
console.log(
  `  one by one, no client limiter:               ${b.requests} requests, ${b.throttled} x 429, virtual ${(b.virtualMs / 1000).toFixed(1)} s`,
);
const ok = a.done === N && a.throttled === 0 && pct >= 90;
console.log(ok ? "  targets met" : "  TARGET MISSED (need all done, zero 429s, >= 90% of the limit)");
process.exitCode = ok ? 0 : 1;
