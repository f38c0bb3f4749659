/**
 * The forecast's views: JSON valid against schemas/forecast.schema.json, the Markdown table and a
 * Mermaid `gantt` block that a checker of the gantt grammar (below) accepts, and the terminal text.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_CAPACITY, type Forecast, type ForecastProject, forecast } from "../../src/forecast/index.js";
import { forecastJson } from "../../src/forecast/json.js";
import { forecastGantt, forecastMarkdown } from "../../src/report/forecast-markdown.js";
import { forecastText } from "../../src/report/forecast-text.js";
import { validator } from "../helpers/schemas.js";

const NOW = Date.parse("2026-11-03T23:00:00Z"); // 15:00 PST, election day
const MIN = 60_000;
const range = {
  file: "gotv.yaml",
  start: { line: 5, column: 9, offset: 40 },
  end: { line: 5, column: 20, offset: 51 },
};

const project = (over: Partial<ForecastProject> & { address: string }): ForecastProject => ({
  organization: "Riverside Democrats",
  brand: "Riverside Democrats",
  channel: "10dlc",
  recipients: 3000,
  segmentsPerMessage: 2,
  startMs: NOW,
  timezone: "America/Los_Angeles",
  dailyCapBypass: false,
  estimatedCostCents: 6000,
  ranges: { at: range },
  ...over,
});

function sample(): Forecast {
  return forecast({
    nowMs: NOW,
    capacity: { ...DEFAULT_CAPACITY, brands: { "Riverside Democrats": 2500 } },
    projects: [
      project({ address: "gotv-reminder", deadlineMs: Date.parse("2026-11-04T04:00:00Z") }),
      project({
        address: "gotv: last call; #2",
        startMs: NOW + 30 * MIN,
        recipients: 400,
        dailyCapBypass: true,
      }),
      project({
        address: "volunteers",
        brand: "Youth",
        organization: "Young Dems",
        channel: "toll-free",
        recipients: 100,
      }),
      project({
        address: "late-night",
        brand: "Youth",
        startMs: Date.parse("2026-11-04T07:50:00Z"),
        recipients: 5000,
        segmentsPerMessage: 1,
      }),
    ],
  });
}

/**
 * A checker of the Mermaid gantt grammar this renderer uses: `gantt`, then `title`, `dateFormat`,
 * `axisFormat` and `section` statements and task lines `name :[tags, ][id, ]YYYY-MM-DD HH:mm, <n>m`
 * (tags crit, active, done, milestone; a name free of `:`, `;` and `#`; ids unique; every task in a
 * section). Returns the problems, [] when well formed.
 */
function ganttProblems(source: string): string[] {
  const problems: string[] = [];
  const lines = source.split("\n");
  if (lines[0] !== "gantt") problems.push(`first line is not "gantt": ${lines[0]}`);
  let inSection = false;
  const ids = new Set<string>();
  const task =
    /^ {2}([^:;#\s][^:;#]*?) :((?:(?:crit|active|done|milestone), )*)(?:([A-Za-z][\w-]*), )?(\d{4}-\d{2}-\d{2} \d{2}:\d{2}), (\d+)m$/;
  for (const line of lines.slice(1)) {
    if (
      /^ {2}title [^;#]+$/.test(line) ||
      line === "  dateFormat YYYY-MM-DD HH:mm" ||
      /^ {2}axisFormat [%\w :-]+$/.test(line)
    )
      continue;
    if (/^ {2}section [^:;#]+$/.test(line)) {
      inSection = true;
      continue;
    }
    const m = task.exec(line);
    if (m === null) {
      problems.push(`not a gantt statement: ${JSON.stringify(line)}`);
      continue;
    }
    if (!inSection) problems.push(`task outside a section: ${line}`);
    const id = m[3];
    if (id !== undefined) {
      if (ids.has(id)) problems.push(`duplicate id ${id}`);
      ids.add(id);
    }
    if (Number.isNaN(Date.parse(`${(m[4] as string).replace(" ", "T")}:00Z`)))
      problems.push(`bad date: ${m[4]}`);
    if ((m[2] ?? "").includes("milestone") ? m[5] !== "0" : m[5] === "0")
      problems.push(`bad duration: ${line}`);
  }
  return problems;
}

describe("forecast views", () => {
  it("JSON is valid against its schema", () => {
    // schemas/forecast.schema.json compiled as every report schema (compileReportSchema's ajv),
    // loaded from the tests' validator cache.
    const validate = validator("forecast");
    const doc = JSON.parse(JSON.stringify(forecastJson(sample())));
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
    const empty = forecastJson(forecast({ nowMs: NOW, capacity: DEFAULT_CAPACITY, projects: [] }));
    expect(validate(JSON.parse(JSON.stringify(empty))) ? [] : validate.errors).toEqual([]);
  });

  it("JSON says which project pauses, with how many left and that restarting is a dashboard step", () => {
    const doc = forecastJson(sample());
    const paused = doc.projects.find((p) => p.pause !== null);
    expect(paused?.address).toBe("gotv-reminder");
    expect(paused?.pause).toMatchObject({ pacific_day: "2026-11-03", restart: "dashboard" });
    expect(paused?.pause?.recipients_left).toBeGreaterThan(0);
    expect(doc.diagnostics.map((d) => d.code)).toContain("forecast.cap-pause");
  });

  it("the Mermaid gantt block is well formed", () => {
    const gantt = forecastGantt(sample());
    expect(ganttProblems(gantt)).toEqual([]);
    expect(gantt).toContain("section Riverside Democrats");
    expect(gantt).toMatch(/gotv-reminder \(pauses, \d+ left\) :crit, p1, 2026-11-03 23:00, \d+m/);
    expect(gantt).toContain("gotv last call 2 :p2,");
    expect(gantt).toContain("Pacific midnight 2026-11-04 :milestone, 2026-11-04 08:00, 0m");
    expect(gantt).toContain("deadline gotv-reminder :milestone, 2026-11-04 04:00, 0m");
  });

  it("the checker refuses what Mermaid would refuse", () => {
    expect(ganttProblems("gantt\n  a: b :p1, 2026-11-03 23:00, 5m")).not.toEqual([]);
    expect(ganttProblems("gantt\n  x :p1, 2026-11-03 23:00, 5m")).toEqual([
      "task outside a section:   x :p1, 2026-11-03 23:00, 5m",
    ]);
    expect(
      ganttProblems("gantt\n  section s\n  x :p1, 2026-11-03 23:00, 5m\n  y :p1, 2026-11-03 23:00, 5m"),
    ).toEqual(["duplicate id p1"]);
  });

  it("the Markdown has the table and the fenced block", () => {
    const md = forecastMarkdown(sample());
    expect(md).toContain(
      "| project | recipients | starts | finishes or pauses | deadline | projected cost |",
    );
    expect(md).toMatch(
      /\| `gotv-reminder` \| 3,000 \| 2026-11-03 15:00 PST \| pauses at the daily cap .* left: restart in the dashboard \| \*\*not met \(paused\)\*\* \|/,
    );
    const block = /```mermaid\n([\s\S]*?)\n```/.exec(md)?.[1];
    expect(block).toBe(forecastGantt(sample()));
  });

  it("the terminal text names pauses, shares and costs", () => {
    const text = forecastText(sample());
    expect(text).toContain("Forecast (throughput: 10dlc 75, toll-free 180 segments a minute)");
    expect(text).toMatch(
      /gotv-reminder +3,000 recipients, starts 2026-11-03 15:00 PST, pauses at the daily cap/,
    );
    expect(text).toMatch(
      /brand Riverside Democrats, Pacific day 2026-11-03 \(2,500 a Pacific day\): 2,500 of 2,500: gotv-reminder \d/,
    );
    expect(text).toMatch(/late-night .*\d+ in quiet hours/);
    expect(text).toContain("cost: projected $");
  });
});
