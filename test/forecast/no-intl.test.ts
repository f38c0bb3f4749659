/**
 * A cold forecast asks ICU nothing (issue 36): in the runtime that built the zone table
 * (src/text/generated/zone-offsets.ts), the Pacific days of the cap, the zones' offsets and their
 * abbreviations (`EST`) come from the table, and no luxon call asks `Intl` for the system's locale.
 * A process's first `Intl.DateTimeFormat` is about 13 ms of ICU set-up, an eighth of a cold
 * forecast of 1,000 projects. The modules are imported fresh in this file (vitest isolates each
 * file's modules, so luxon's own caches start empty) after `Intl.DateTimeFormat` is wrapped to
 * count what is made.
 */
import { afterAll, expect, test } from "vitest";
import { forecastInput, NOW, RULE } from "../../bench/forecast-input.mjs";

const Original = Intl.DateTimeFormat;
const made: string[] = [];
const Counting = new Proxy(Original, {
  construct(target, args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
    made.push(JSON.stringify(args));
    return new target(...args);
  },
  apply(target, _this, args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
    made.push(JSON.stringify(args));
    return target(...args);
  },
});
Intl.DateTimeFormat = Counting;
afterAll(() => {
  Intl.DateTimeFormat = Original;
});

test("a forecast of 1,000 projects, its views and its findings make no Intl.DateTimeFormat", async () => {
  const { DEFAULT_CAPACITY, forecast } = await import("../../src/forecast/index.js");
  const { forecastJson } = await import("../../src/forecast/json.js");
  const { judgeFindings } = await import("../../src/forecast/policy-hold.js");
  const { forecastMarkdown } = await import("../../src/report/forecast-markdown.js");
  const { forecastText } = await import("../../src/report/forecast-text.js");
  const { projects, capacity } = forecastInput(1000, DEFAULT_CAPACITY);
  const f = forecast({ projects, capacity, nowMs: NOW });
  const text = `${JSON.stringify(forecastJson(f))}${forecastMarkdown(f)}${forecastText(f)}`;
  const judged = judgeFindings(f, RULE);
  // The run is the real one: pauses at the cap, quiet hours and named zones in its text.
  expect(f.projects.some((p) => p.pause !== null)).toBe(true);
  expect(f.projects.some((p) => p.quietHours !== null)).toBe(true);
  expect(text).toMatch(/ PST/);
  expect(text).toMatch(/ EST/);
  expect(judged.findings.length).toBeGreaterThan(0);
  expect(made).toEqual([]);
});
