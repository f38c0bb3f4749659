#!/usr/bin/env node
/**
 * Forecast of N scheduled projects (not a test; run after `npm run build`; issue 19's acceptance:
 * 1,000 projects add under 100 ms to a plan). The projects: 20 brands with declared caps, start
 * times spread over three days (a third in quiet hours, some across Pacific midnight), a tenth with
 * `daily_cap_bypass`, half with a deadline, 2-segment messages, 500 to 20,000 recipients. Times the
 * pure core (`forecast`), the views the plan adds (JSON, Markdown with the Mermaid block, text) and
 * the findings put into the plan under a policy whose `forecast_errors` names all four (each
 * finding an error holding its project's schedule, the holds spread along the actions), median and
 * worst of R runs after one warm-up. Exit 1 when the median is 100 ms or more.
 *
 *   node bench/forecast.mjs            # 1000 projects, 9 runs
 *   node bench/forecast.mjs 5000 5
 */
import { performance } from "node:perf_hooks";
import { DEFAULT_CAPACITY, forecast } from "../dist/src/forecast/index.js";
import { forecastJson } from "../dist/src/forecast/json.js";
import { judgeFindings } from "../dist/src/forecast/policy-hold.js";
import { findingsByAddress, forecastHolds, forecastPlanDiagnostics } from "../dist/src/plan/forecast-hold.js";
import { forecastMarkdown } from "../dist/src/report/forecast-markdown.js";
import { forecastText } from "../dist/src/report/forecast-text.js";
import { forecastInput, NOW, RULE } from "./forecast-input.mjs";

const N = Number(process.argv[2] ?? 1000);
const RUNS = Number(process.argv[3] ?? 9);
const { projects, capacity, plan } = forecastInput(N, DEFAULT_CAPACITY);

/** The plan with the forecast's findings, as the judge joins them (src/plan/forecast-hold.ts). */
function withFindings(plan, judged) {
  const byAddress = findingsByAddress(judged);
  const projects = plan.projects.map((p) => forecastHolds(p, byAddress.get(p.address) ?? []));
  return { ...plan, projects, diagnostics: [...plan.diagnostics, ...forecastPlanDiagnostics(judged)] };
}

function once() {
  const t0 = performance.now();
  const f = forecast({ projects, capacity, nowMs: NOW });
  const t1 = performance.now();
  JSON.stringify(forecastJson(f));
  forecastMarkdown(f);
  forecastText(f);
  const t2 = performance.now();
  const held = withFindings(plan, judgeFindings(f, RULE));
  const t3 = performance.now();
  return { core: t1 - t0, total: t3 - t0, findings: t3 - t2, f, held };
}

const warm = once();
const runs = Array.from({ length: RUNS }, once);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const result = {
  projects: N,
  runs: RUNS,
  core_ms_median: +median(runs.map((r) => r.core)).toFixed(1),
  findings_ms_median: +median(runs.map((r) => r.findings)).toFixed(1),
  total_ms_median: +median(runs.map((r) => r.total)).toFixed(1),
  total_ms_worst: +Math.max(...runs.map((r) => r.total)).toFixed(1),
  first_run_ms: +warm.total.toFixed(1),
  paused: warm.f.projects.filter((p) => p.pause !== null).length,
  brand_days: warm.f.brandDays.length,
  diagnostics: warm.f.diagnostics.length,
  held: warm.held.projects.filter((p) => p.actions.some((a) => a.status === "blocked")).length,
};
console.log(JSON.stringify(result, null, 2));
if (result.total_ms_median >= 100) process.exitCode = 1;
