/**
 * The gallery's forecast timeline (src/report/gallery/timeline*.ts), from forecasts made by the real
 * core (`forecast`, then `forecastJson`, the form a plan document carries): rows grouped by brand,
 * the cap pause and its words, Pacific midnights (a DST day among them), gaps, deadlines, quiet
 * hours, over the cap, escaping, and the page showing it only when the plan has a forecast.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_CAPACITY, type ForecastProject, forecast } from "../../src/forecast/index.js";
import { type ForecastJson, forecastJson } from "../../src/forecast/json.js";
import { buildGalleryModel } from "../../src/report/gallery/model.js";
import { renderGalleryHtml } from "../../src/report/gallery/page.js";
import { forecastTimelineHtml } from "../../src/report/gallery/timeline.js";
import { buildTimeline } from "../../src/report/gallery/timeline-model.js";
import { TCPA_BOUNDARIES } from "../fixtures/send-window-boundaries.js";
import { fullPlan } from "../report/fixtures.js";
import { loadProjects, UCS2_YAML } from "./fixtures.js";

const project = (over: Partial<ForecastProject> & { address: string }): ForecastProject => ({
  organization: "Org",
  brand: "Riverside Democrats",
  channel: "10dlc",
  recipients: 38,
  segmentsPerMessage: 1,
  startMs: Date.parse("2026-12-07T16:00:00Z"),
  timezone: "America/Chicago",
  dailyCapBypass: false,
  ...over,
});

/** The examples' GOTV sends under a cap of 30: both pause with 8 of 38 left. */
function gotv(sendWindow?: { readonly from: string; readonly to: string }): ForecastJson {
  return forecastJson(
    forecast({
      projects: [
        project({ address: "gotv-reminder" }),
        project({
          address: "gotv-followup",
          startMs: Date.parse("2026-12-08T21:00:00Z"),
          deadlineMs: Date.parse("2026-12-09T01:00:00Z"),
        }),
      ],
      capacity: { ...DEFAULT_CAPACITY, brands: { "Riverside Democrats": 30 } },
      nowMs: Date.parse("2026-12-01T15:00:00Z"),
      ...(sendWindow === undefined ? {} : { sendWindow }),
    }),
  );
}

/**
 * Two brands over the DST day of 2027-03-14 (a 23-hour Pacific day): a long send from the evening
 * before (quiet hours in New York), a bypass send past a small cap, a project of no brand, and a
 * deadline days later (a gap).
 */
function dst(): ForecastJson {
  return forecastJson(
    forecast({
      projects: [
        project({
          address: "overnight",
          brand: "Spring <b>Brand</b> & Co",
          recipients: 75 * 60 * 12,
          startMs: Date.parse("2027-03-14T02:00:00Z"),
          timezone: "America/New_York",
          deadlineMs: Date.parse("2027-03-20T17:00:00Z"),
        }),
        project({
          address: "bypass",
          brand: "Small",
          recipients: 150,
          startMs: Date.parse("2027-03-14T17:00:00Z"),
          dailyCapBypass: true,
        }),
        project({ address: "unbranded", brand: undefined, startMs: Date.parse("2027-03-14T18:00:00Z") }),
      ],
      capacity: { ...DEFAULT_CAPACITY, brands: { "Spring <b>Brand</b> & Co": 100_000, Small: 100 } },
      nowMs: Date.parse("2027-03-01T15:00:00Z"),
    }),
  );
}

/** The HTML of the brand section whose heading contains `text`. */
function brandSection(html: string, text: string): string {
  const sections = html.split(`<section class="tl-brand"`).slice(1);
  const found = sections.find((s) => s.slice(0, s.indexOf("</h3>")).includes(text));
  expect(found, `no brand section with ${text}`).toBeDefined();
  return found ?? "";
}

describe("the forecast timeline", () => {
  it("has one row per project under its brand's heading with the daily cap, and the cap pause in words", () => {
    const html = forecastTimelineHtml(gotv());
    expect(html.match(/<section class="tl-brand"/g)).toHaveLength(1);
    const brand = brandSection(html, "Riverside Democrats");
    expect(brand).toContain("daily cap 30 messages a Pacific day");
    expect(brand.match(/<li class="tl-row/g)).toHaveLength(2);
    expect(brand.indexOf("<code>gotv-reminder</code>")).toBeLessThan(
      brand.indexOf("<code>gotv-followup</code>"),
    );
    // The pause: a distinct mark and the words, in the row, in the track's text and in the table.
    expect(html.match(/<span class="tl-pause( tl-label-left)?"/g)).toHaveLength(2);
    expect(html.match(/paused at the cap, 8 of 38 left, restart is a dashboard step/g)).toHaveLength(6);
    expect(html).toContain(
      `aria-label="gotv-reminder: 38 recipients at 75 a minute; starts 2026-12-07 10:00 CST (2026-12-07 16:00 UTC); paused at the cap, 8 of 38 left, restart is a dashboard step (at 2026-12-07 10:00 CST, 2026-12-07 16:00 UTC; the cap of 30 of Pacific day 2026-12-07; it can send again from 2026-12-08 02:00 CST, 2026-12-08 08:00 UTC)."`,
    );
    // Each Pacific day's count of the cap.
    expect(brand.match(/<strong class="tl-count tl-full">30 of 30<\/strong>/g)).toHaveLength(2);
    expect(html).toContain(
      "Riverside Democrats, Pacific day 2026-12-08 (from 00:00 PST, 08:00 UTC): <strong>30 of 30</strong>: gotv-followup 30",
    );
  });

  it("draws the Pacific days the sends and deadlines fall on, at their midnights", () => {
    const t = buildTimeline(gotv());
    expect(
      t.columns.map((c) => (c.kind === "day" ? [c.day, c.label, c.midnightPacific, c.midnightUtc] : c.kind)),
    ).toEqual([
      ["2026-12-07", "Mon, Dec 7", "00:00 PST", "08:00 UTC"],
      ["2026-12-08", "Tue, Dec 8", "00:00 PST", "08:00 UTC"],
    ]);
    const [reminder, followup] = t.brands[0]?.rows ?? [];
    // 16:00 UTC is 08:00 Pacific: a third into the first of two days.
    expect(reminder?.bar.fromPct).toBeCloseTo(100 / 6, 3);
    expect(reminder?.pause?.paused.toPct).toBe(50);
    expect(reminder?.pause?.restartFrom.utc).toBe("2026-12-08 08:00 UTC");
    // The deadline, 01:00 UTC on Dec 9, is 17:00 Pacific on Dec 8.
    expect(followup?.deadline?.atPct).toBeCloseTo(50 + (17 / 24) * 50, 3);
    expect(followup?.deadline?.met).toBe(false);
    expect(followup?.deadline?.at.local).toBe("2026-12-08 19:00 CST");
    const html = forecastTimelineHtml(gotv());
    expect(html).toContain(`<span class="tl-midnight" style="left:50%"></span>`);
    expect(html.match(/<span class="tl-deadline[^"]*"/g)).toHaveLength(1);
    expect(html).toContain(`deadline <time datetime="2026-12-09T01:00:00.000Z">2026-12-08 19:00 CST</time>`);
  });

  it("splits a DST day at its own midnights (23 hours), collapses days with nothing, and marks quiet hours", () => {
    const f = dst();
    const t = buildTimeline(f);
    const days = t.columns.map((c) =>
      c.kind === "day"
        ? `${c.day} ${new Date(c.startMs).toISOString()} ${c.hours}h ${c.midnightPacific}`
        : `gap ${c.days}`,
    );
    expect(days).toEqual([
      "2027-03-13 2027-03-13T08:00:00.000Z 24h 00:00 PST",
      "2027-03-14 2027-03-14T08:00:00.000Z 23h 00:00 PST",
      "gap 5",
      "2027-03-20 2027-03-20T07:00:00.000Z 24h 00:00 PDT",
    ]);
    const html = forecastTimelineHtml(f);
    expect(html).toContain("from 00:00 PST, 08:00 UTC, 23 hours");
    expect(html).toContain("from 00:00 PDT, 07:00 UTC</span>");
    expect(html).toContain("5 days without sends");
    // Three groups, in the forecast's order: the two brands, then the projects of no brand.
    expect(html.match(/<h3 id="tl-brand-\d">[^<]*/g)).toEqual([
      `<h3 id="tl-brand-1">Brand Spring &lt;b&gt;Brand&lt;/b&gt; &amp; Co: `,
      `<h3 id="tl-brand-2">Brand Small: `,
      `<h3 id="tl-brand-3">No brand: `,
    ]);
    // 21:00 to 08:00 in New York: the send from 21:00 EST on the 13th is in quiet hours until 08:00 EDT.
    const overnight = t.brands[0]?.rows[0];
    expect(overnight?.quietHours?.from.local).toBe("2027-03-13 21:00 EST");
    expect(overnight?.quiet).toHaveLength(1);
    // Drawn from the forecast's own stretch outside the window (the gallery computes none again).
    expect(f.projects[0]?.quiet_hours?.spans).toEqual([
      { from: "2027-03-14T02:00:00.000Z", to: "2027-03-14T12:00:00.000Z" },
    ]);
    expect(brandSection(html, "Spring")).toContain(`<span class="tl-quiet"`);
    expect(html).toContain("about 45,000 in quiet hours from");
    // Bypass: past the cap, counted and said.
    const small = brandSection(html, "Small");
    expect(small).toContain("150 of 100, 50 over the cap");
    expect(small).toContain("50 over the cap</strong> (daily_cap_bypass)");
    const unbranded = brandSection(html, "No brand");
    expect(unbranded).toContain("no daily cap counts these projects");
    expect(unbranded).not.toContain("tl-count");
  });

  it("escapes every piece of user text", () => {
    const f = dst();
    const hostile: ForecastJson = {
      ...f,
      projects: f.projects.map((p) => ({ ...p, address: `${p.address}"><script>alert(1)</script>` })),
    };
    const html = forecastTimelineHtml(hostile);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>");
    expect(html).toContain("<code>overnight&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</code>");
    expect(html).toContain(`aria-label="overnight&quot;&gt;&lt;script&gt;`);
  });

  it("says so when nothing is scheduled", () => {
    const empty = forecastJson(forecast({ projects: [], capacity: DEFAULT_CAPACITY, nowMs: 0 }));
    expect(forecastTimelineHtml(empty)).toContain("Nothing is or will be scheduled");
  });
});

describe("quiet hours at the send window's boundaries (the shared table)", () => {
  // The one send window always holds the federal hours: windows past midnight are the rows of
  // test/fixtures/send-rules-boundaries.ts (test/jurisdictions/boundaries.test.ts).
  it.each(TCPA_BOUNDARIES)("$name", (row) => {
    const at = Date.parse(row.at);
    // A send of one recipient (under a second) starting at the row's instant, drawn against its window.
    const f = forecastJson(
      forecast({
        projects: [project({ address: "edge", recipients: 1, startMs: at, timezone: row.zone })],
        capacity: DEFAULT_CAPACITY,
        nowMs: at - 86_400_000,
        sendWindow: row.window,
      }),
    );
    const r = buildTimeline(f).brands[0]?.rows[0];
    expect(r?.quiet.length ?? -1).toBe(row.inside ? 0 : 1);
    expect(r?.quietHours?.from.iso ?? null).toBe(row.inside ? null : new Date(at).toISOString());
    const html = forecastTimelineHtml(f);
    expect(html).toContain(`quiet hours are outside ${row.window.from}-${row.window.to} in every zone`);
    expect(html.includes(`<span class="tl-quiet"`)).toBe(!row.inside);
  });
});

describe("the gallery page", () => {
  const projects = loadProjects({ "ucs2.yaml": UCS2_YAML });

  it("shows the timeline after the overview when its plan has a forecast, with the send window the forecast judged", () => {
    // The judge forecasts under the policy's send window (09:00-20:00); the forecast carries it.
    const plan = { ...fullPlan(), forecast: gotv({ from: "09:00", to: "20:00" }) };
    const html = renderGalleryHtml(buildGalleryModel({ projects, plan }));
    const overview = html.indexOf(`<section class="overview"`);
    const timeline = html.indexOf(`<section class="timeline"`);
    expect(overview).toBeGreaterThanOrEqual(0);
    expect(timeline).toBeGreaterThan(overview);
    expect(timeline).toBeLessThan(html.indexOf(`<div id="messages">`));
    expect(fullPlan().policy?.rules.send_window).toEqual({ from: "09:00", to: "20:00" });
    expect(html).toContain(
      "quiet hours are outside 09:00-20:00 and the federal hours 08:00-21:00 in every zone the recipients live in",
    );
  });

  it("has no timeline without a forecast", () => {
    expect(renderGalleryHtml(buildGalleryModel({ projects, plan: fullPlan() }))).not.toContain(
      `class="timeline"`,
    );
    expect(renderGalleryHtml(buildGalleryModel({ projects, plan: null }))).not.toContain(`class="timeline"`);
  });
});
