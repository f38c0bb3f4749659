#!/usr/bin/env node
/**
 * The forecast's outputs of this build against a reference build's (not a test; run after `npm run
 * build`; issue 36): JSON, Markdown, text, findings and the plan's holds, for bench/forecast-input.mjs's
 * projects at several sizes, at clocks across both DST changes, with recipients in table zones
 * (src/text/generated/zone-offsets.ts) and zones the table does not hold. Each build runs in its own
 * process (their module memos are apart); prints one line per input and exits 1 on a difference.
 *
 *   BENCH_REF_DIST=/path/to/other/dist node bench/forecast-same.mjs
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { fileURLToPath, pathToFileURL } from "node:url";

const REF = process.env.BENCH_REF_DIST;
if (REF === undefined) throw new Error("BENCH_REF_DIST: the reference build's dist/ directory");
const MINE = fileURLToPath(new URL("../dist", import.meta.url));
const INPUT = new URL("./forecast-input.mjs", import.meta.url).href;

/** The clocks: the input's own, and around the DST changes of 2026 and 2027 (US). */
const CLOCKS = [
  "2026-11-02T16:00:00Z",
  "2026-10-31T04:30:00Z",
  "2027-03-13T09:00:00Z",
  "2026-12-31T23:00:00Z",
];
const SIZES = [1, 7, 100, 1000];
const ZONE_SETS = [
  undefined,
  ["America/New_York", "America/Los_Angeles", "Pacific/Honolulu", "America/Anchorage"],
  ["Europe/Berlin", "America/Havana", "America/Phoenix", "Pacific/Guam"],
];

const child = (dist) => `
const m = (p) => import(${JSON.stringify(pathToFileURL(`${dist}/`).href)} + p);
const [{ DEFAULT_CAPACITY, forecast }, { forecastJson }, { judgeFindings }, hold, { forecastMarkdown }, { forecastText }] =
  await Promise.all(["src/forecast/index.js", "src/forecast/json.js", "src/forecast/policy-hold.js", "src/plan/forecast-hold.js", "src/report/forecast-markdown.js", "src/report/forecast-text.js"].map(m));
const { forecastInput, NOW, RULE } = await import(${JSON.stringify(INPUT)});
const out = [];
for (const clock of ${JSON.stringify(CLOCKS)}) for (const n of ${JSON.stringify(SIZES)}) for (const zones of ${JSON.stringify(ZONE_SETS)}) {
  const nowMs = Date.parse(clock);
  const { projects, capacity, plan } = forecastInput(n, DEFAULT_CAPACITY);
  const moved = projects.map((p, i) => ({ ...p, startMs: p.startMs - NOW + nowMs, ...(p.deadlineMs === undefined ? {} : { deadlineMs: p.deadlineMs - NOW + nowMs }), ...(zones === null ? {} : { recipientZones: zones.slice(0, 1 + (i % zones.length)) }) }));
  const f = forecast({ projects: moved, capacity, nowMs });
  const judged = judgeFindings(f, RULE);
  const byAddress = hold.findingsByAddress(judged);
  const held = plan.projects.map((p) => hold.forecastHolds(p, byAddress.get(p.address) ?? []));
  out.push(JSON.stringify([clock, n, zones, JSON.stringify(forecastJson(f)), forecastMarkdown(f), forecastText(f), judged, held, hold.forecastPlanDiagnostics(judged)]));
}
console.log(out.join("\\n"));
`;

const run = (dist) => {
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", child(dist)], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  if (r.status !== 0) throw new Error(`${dist}: ${r.stderr}`);
  return r.stdout.trim().split("\n");
};
const mine = run(MINE);
const ref = run(REF);
let differ = 0;
mine.forEach((line, i) => {
  const [clock, n, zones] = JSON.parse(line);
  const same = line === ref[i];
  if (!same) differ++;
  const hash = createHash("sha256").update(line).digest("hex").slice(0, 12);
  console.log(
    `${same ? "same" : "DIFFERENT"} ${clock} ${n} projects, recipients ${zones === null ? "in each project's zone" : zones.join(" ")}: ${hash}`,
  );
});
console.log(
  `${mine.length - differ} of ${mine.length} inputs the same (${mine.length === ref.length ? "same count" : "DIFFERENT count"})`,
);
if (differ > 0 || mine.length !== ref.length) process.exitCode = 1;
