#!/usr/bin/env node
/**
 * `campaignctl results record` across organizations, one key each (issue 38's benchmark; not a test;
 * run after `npm run build`).
 *
 * A generated world (the same generator as scripts/gen-org-world.mjs, in-process): ORGS
 * organizations x PROJECTS projects (default 20 x 500 = 10,000), served by an in-process sandbox with
 * rate limits on (100 requests a minute per key), its virtual clock frozen; the keys in the
 * environment as `CAMPAIGNCTL_API_KEY_<SLUG>`, no default key. Then the built CLI's own command
 * function records twice into a file store in a temp dir: a first recording (every project new) and
 * a second in the same hour (nothing to add). The sandbox's request log (`/_sandbox/requests`) is
 * read after each: `GET /projects/stats` requests per key, which must be at most ceil(N/1000) for a
 * key that sees N projects (the pages one window needs), the `GET /organizations` check of each key,
 * and no other request. Also: snapshots written (must be every project, then 0), wall time (this
 * machine's clock) and the store's size. Exit 1 when a target is missed.
 *
 *   node bench/results-record.mjs                      # 20 organizations x 500 projects
 *   node bench/results-record.mjs --orgs 4 --projects 2500
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { orgs: { type: "string", default: "20" }, projects: { type: "string", default: "500" } },
  strict: true,
});
const ORGS = Number(values.orgs);
const PROJECTS = Number(values.projects);

let dist;
try {
  dist = {
    ...(await import("../dist/src/sandbox/fixture/generate-world.js")),
    ...(await import("../dist/src/sandbox/index.js")),
    ...(await import("../dist/cli/commands/results-record.js")),
  };
} catch (error) {
  console.error(`results-record: build first (npm run build): ${error.message}`);
  process.exit(2);
}
const { generateOrgWorld, worldKeyEnvironment, startSandbox, resultsRecordCommand } = dist;

const world = generateOrgWorld({ orgs: ORGS, projects: PROJECTS });
const sb = await startSandbox({ fixture: world.fixture, rateLimits: true, timeScale: 0 });
const dir = mkdtempSync(join(tmpdir(), "campaignctl-bench-results-"));
const keyOrganization = new Map(world.organizations.map((o) => [o.id, o]));
const failures = [];

async function requestLog() {
  const r = await fetch(`${sb.rootUrl}/_sandbox/requests`);
  return (await r.json()).data.requests;
}

async function recordOnce(label) {
  await fetch(`${sb.rootUrl}/_sandbox/requests`, { method: "DELETE" });
  let stdout = "";
  let stderr = "";
  const io = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    env: { NO_COLOR: "1", ...worldKeyEnvironment(world) },
    cwd: dir,
    clock: () => Date.now(),
  };
  const started = performance.now();
  const outcome = await resultsRecordCommand({ baseUrl: sb.baseUrl, json: true }, io, {
    clock: { now: () => sb.clock.nowMs() },
    sleep: async (ms) => sb.clock.advance(ms),
  });
  const wallMs = performance.now() - started;
  if (outcome.kind !== "success") failures.push(`${label}: results record failed: ${stderr}`);
  const document = JSON.parse(stdout);
  const log = await requestLog();
  const perKey = new Map();
  const other = [];
  for (const entry of log) {
    const route = `${entry.method} ${entry.route}`;
    const key = entry.key_organization_id ?? "(none)";
    const counts = perKey.get(key) ?? { stats: 0, organizations: 0 };
    if (route === "GET /projects/stats") counts.stats++;
    else if (route === "GET /organizations") counts.organizations++;
    else other.push(route);
    perKey.set(key, counts);
  }
  let worstStats = 0;
  for (const [org, counts] of perKey) {
    const sees = keyOrganization.get(org)?.projects.length ?? 0;
    const allowed = Math.max(1, Math.ceil(sees / 1000));
    worstStats = Math.max(worstStats, counts.stats);
    if (counts.stats > allowed)
      failures.push(
        `${label}: key of ${org} made ${counts.stats} stats requests for ${sees} projects (at most ${allowed})`,
      );
    if (counts.organizations !== 1)
      failures.push(`${label}: key of ${org} made ${counts.organizations} GET /organizations`);
  }
  if (perKey.size !== ORGS) failures.push(`${label}: ${perKey.size} keys made requests, not ${ORGS}`);
  if (other.length > 0) failures.push(`${label}: other requests: ${[...new Set(other)].join(", ")}`);
  return {
    document,
    wallMs,
    statsRequests: log.filter((e) => e.route === "/projects/stats").length,
    worstStats,
  };
}

function storeBytes() {
  let bytes = 0;
  let files = 0;
  for (const org of readdirSync(join(dir, "results")).filter((n) => !n.startsWith(".")))
    for (const name of readdirSync(join(dir, "results", org))) {
      bytes += statSync(join(dir, "results", org, name)).size;
      files++;
    }
  return { bytes, files };
}

const first = await recordOnce("first recording");
if (first.document.written !== ORGS * PROJECTS)
  failures.push(`first recording wrote ${first.document.written} snapshots, not ${ORGS * PROJECTS}`);
const size = storeBytes();
const second = await recordOnce("second recording, same hour");
if (second.document.written !== 0)
  failures.push(`second recording wrote ${second.document.written} snapshots, not 0`);
await sb.close();
rmSync(dir, { recursive: true, force: true });

const cpu = cpus()[0]?.model ?? "unknown CPU";
console.log(
  `machine: ${cpus().length} x ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
console.log(
  `world: ${ORGS} organizations x ${PROJECTS} projects = ${ORGS * PROJECTS} projects, one key each`,
);
for (const [label, r] of [
  ["first recording ", first],
  ["same hour again ", second],
])
  console.log(
    `${label}: ${r.statsRequests} GET /projects/stats (at most ${r.worstStats} per key; allowed ${Math.max(1, Math.ceil(PROJECTS / 1000))}), ${ORGS} GET /organizations, ${r.document.written} written, ${r.document.same_hour} same hour, ${Math.round(r.wallMs)} ms`,
  );
console.log(`store: ${size.files} files, ${(size.bytes / 2 ** 20).toFixed(1)} MiB`);
if (failures.length > 0) {
  for (const f of failures) console.error(`MISSED: ${f}`);
  process.exit(1);
}
console.log("targets met: at most ceil(N/1000) statistics requests per key, every project written once");
