/**
 * The gallery's forecast timeline (docs/preview-gallery.md "The timeline"): from a plan's forecast
 * in its JSON form, a picture in HTML and CSS (no script, no image, nothing loaded): per brand a
 * heading with its daily cap, a strip of the Pacific days drawn (each boundary a Pacific midnight,
 * labelled with the day, its midnight in Pacific time and in UTC, and the brand's count of the cap
 * that day, `30 of 30`), and one row per project: its bar from start to finish or to the cap pause
 * (then hatched, with a pause mark and the words "paused at the cap, N of M left, restart is a
 * dashboard step"), its quiet-hours portions, its deadline as a dashed line. Each track carries its
 * row in words (`role="img"` with a label) and each row says it in text; a plain table follows the
 * picture. Colour is never the only signal. Pure; all user text is escaped.
 */

import type { ForecastJson } from "../../forecast/json.js";
import { count } from "../forecast-words.js";
import { escapeHtml } from "../html-escape.js";
import {
  buildTimeline,
  type Timeline,
  type TimelineBrand,
  type TimelineColumn,
  type TimelineRow,
  type TimelineSpan,
  type TimelineTime,
} from "./timeline-model.js";

/** The HTML section of the forecast `f` (what a plan document's `forecast` holds). */
export function forecastTimelineHtml(f: ForecastJson): string {
  return timelineHtml(buildTimeline(f));
}

/** Width of the narrowest bar, so that a send of seconds still shows (px; the stylesheet agrees). */
const MIN_BAR_PX = 6;
const num = (n: number): string => String(Math.round(n * 10_000) / 10_000);
/** `left` at `pct`, but at most so far right that a mark `px` wide stays inside its track. */
const leftAt = (pct: number, px: number): string => `left:min(${num(pct)}%, calc(100% - ${px}px))`;
/** From `s.fromPct` (kept inside the track) to `s.toPct`; the stylesheet's min-width keeps it visible. */
const spanStyle = (s: TimelineSpan): string =>
  `${leftAt(s.fromPct, MIN_BAR_PX)};right:${num(100 - s.toPct)}%`;
/** Just after the bar that starts at `barPct`: a send of seconds has its pause beside its bar, not over it. */
const afterBar = (pct: number, barPct: number): string =>
  `max(${num(pct)}%, calc(min(${num(barPct)}%, calc(100% - ${MIN_BAR_PX}px)) + ${MIN_BAR_PX}px))`;

function timeHtml(t: TimelineTime): string {
  return `<time datetime="${escapeHtml(t.iso)}">${escapeHtml(t.local)}</time> <span class="zone nowrap">(${escapeHtml(t.utc)})</span>`;
}

function legendHtml(): string {
  const item = (swatch: string, words: string): string =>
    `<li><span class="tl-swatch ${swatch}" aria-hidden="true"></span>${words}</li>`;
  return `<ul class="tl-legend" aria-label="Legend of the timeline">${[
    item("tl-swatch-bar", "sending"),
    item("tl-swatch-paused", "paused at the brand's daily cap (a restart is a dashboard step)"),
    item("tl-swatch-quiet", "sending in quiet hours"),
    item("tl-swatch-deadline", "deadline"),
    item("tl-swatch-midnight", "Pacific midnight: the cap's count starts again"),
  ].join("")}</ul>`;
}

function dayStripHtml(brand: TimelineBrand, columns: readonly TimelineColumn[], n: number): string {
  const cells = columns.map((c, i) => {
    const flex = `flex:${c.weight} 1 0`;
    if (c.kind === "gap")
      return `<li class="tl-gap" style="${flex}"><span>${count(c.days)} ${c.days === 1 ? "day" : "days"} without sends</span></li>`;
    const d = brand.days[i];
    const hours = c.hours === 24 ? "" : `, ${c.hours} hours`;
    const counted =
      d === null || d === undefined || brand.brand === null
        ? ""
        : `<strong class="tl-count${d.full ? " tl-full" : ""}">${escapeHtml(d.text)}</strong>`;
    return `<li class="tl-day" style="${flex}"><span class="tl-day-name">${escapeHtml(c.label)}</span> <span class="tl-day-from">from ${escapeHtml(c.midnightPacific)}, ${escapeHtml(c.midnightUtc)}${hours}</span> ${counted}</li>`;
  });
  return `<ol class="tl-days" aria-label="Pacific days of brand ${n}: the day, its midnight, and the brand's count of its cap">${cells.join("")}</ol>`;
}

function trackHtml(row: TimelineRow, columns: readonly TimelineColumn[]): string {
  const marks: string[] = [];
  for (const c of columns) {
    if (c.kind === "gap")
      marks.push(
        `<span class="tl-gapfill" style="left:${num(c.leftPct)}%;width:${num(c.widthPct)}%"></span>`,
      );
    if (c.leftPct > 0) marks.push(`<span class="tl-midnight" style="left:${num(c.leftPct)}%"></span>`);
  }
  marks.push(`<span class="tl-bar" style="${spanStyle(row.bar)}"></span>`);
  for (const q of row.quiet) marks.push(`<span class="tl-quiet" style="${spanStyle(q)}"></span>`);
  if (row.pause !== null) {
    const at = afterBar(row.pause.atPct, row.bar.fromPct);
    const side = row.pause.atPct > 75 ? " tl-label-left" : "";
    marks.push(
      `<span class="tl-paused" style="left:min(${at}, calc(100% - 3px));right:${num(100 - row.pause.paused.toPct)}%"></span>`,
      `<span class="tl-pause${side}" style="left:min(${at}, calc(100% - 3px))"><span>paused at the cap</span></span>`,
    );
  }
  if (row.deadline !== null) {
    const side = row.deadline.atPct > 75 ? " tl-label-left" : "";
    marks.push(
      `<span class="tl-deadline${side}" style="${leftAt(row.deadline.atPct, 2)}"><span>deadline</span></span>`,
    );
  }
  return `<div class="tl-track" role="img" aria-label="${escapeHtml(row.summary)}">${marks.join("")}</div>`;
}

function rowHtml(row: TimelineRow, columns: readonly TimelineColumn[]): string {
  const parts = [
    `<code>${escapeHtml(row.address)}</code> ${count(row.recipients)} recipients`,
    `starts ${timeHtml(row.start)}`,
  ];
  if (row.finish !== null) parts.push(`finishes ${timeHtml(row.finish)}`);
  if (row.pause !== null)
    parts.push(
      `<strong class="tl-pause-text">${escapeHtml(row.pause.text)}</strong>: at ${timeHtml(row.pause.at)}, sends again from ${timeHtml(row.pause.restartFrom)} at the earliest`,
    );
  if (row.overCap > 0)
    parts.push(
      `<strong class="tl-pause-text">${count(row.overCap)} over the cap</strong> (daily_cap_bypass)`,
    );
  if (row.quietHours !== null)
    parts.push(
      `about ${count(row.quietHours.messages)} in quiet hours from ${timeHtml(row.quietHours.from)}: outside ${row.quietHours.windows.map(escapeHtml).join("; ")}; ${row.quietHours.latestStart === null ? "no start that day keeps it inside" : `latest start that fits ${timeHtml(row.quietHours.latestStart)}`}`,
    );
  if (row.deadline !== null) {
    const met =
      row.deadline.met === true
        ? ", met"
        : row.deadline.met === false
          ? `, <strong class="tl-pause-text">not met</strong>`
          : "";
    parts.push(`deadline ${timeHtml(row.deadline.at)}${met}`);
  }
  const cls = row.pause !== null ? " tl-row-paused" : "";
  return `<li class="tl-row${cls}"><p class="tl-label">${parts.join(" · ")}</p>${trackHtml(row, columns)}</li>`;
}

function brandTitle(brand: TimelineBrand): string {
  const name = brand.brand === null ? "No brand" : `Brand ${escapeHtml(brand.brand)}`;
  const cap =
    brand.brand === null
      ? "no daily cap counts these projects"
      : brand.dailyCap === null
        ? "no daily cap"
        : `daily cap ${count(brand.dailyCap)} messages a Pacific day`;
  return `${name}: <span class="tl-cap">${cap}</span>`;
}

function brandHtml(brand: TimelineBrand, t: Timeline, n: number): string {
  return [
    `<section class="tl-brand" aria-labelledby="tl-brand-${n}">`,
    `<h3 id="tl-brand-${n}">${brandTitle(brand)}</h3>`,
    dayStripHtml(brand, t.columns, n),
    `<ul class="tl-rows">${brand.rows.map((r) => rowHtml(r, t.columns)).join("")}</ul>`,
    `</section>`,
  ].join("\n");
}

/** The plain table after the picture: one row per project, then each brand's Pacific days. */
function tableHtml(t: Timeline): string {
  const head = ["Project", "Brand", "Recipients", "Starts", "Finishes or pauses", "Deadline", "Quiet hours"];
  const cell = (label: string, html: string): string => `<td data-label="${escapeHtml(label)}">${html}</td>`;
  const rows = t.brands.flatMap((b) =>
    b.rows.map((r) => {
      const outcome =
        r.pause !== null
          ? `<strong class="tl-pause-text">${escapeHtml(r.pause.text)}</strong>: ${timeHtml(r.pause.at)}`
          : r.finish !== null
            ? `finishes ${timeHtml(r.finish)}`
            : "";
      const over = r.overCap > 0 ? `; ${count(r.overCap)} over the cap` : "";
      const deadline =
        r.deadline === null
          ? "none"
          : `${timeHtml(r.deadline.at)}${r.deadline.met === true ? ": met" : r.deadline.met === false ? ": <strong>not met</strong>" : ""}`;
      const quiet =
        r.quietHours === null
          ? "none"
          : `about ${count(r.quietHours.messages)} messages from ${timeHtml(r.quietHours.from)}: outside ${r.quietHours.windows.map(escapeHtml).join("; ")}`;
      return [
        "<tr>",
        `<th scope="row" data-label="${head[0]}"><code>${escapeHtml(r.address)}</code></th>`,
        cell(head[1] ?? "", b.brand === null ? "none" : escapeHtml(b.brand)),
        cell(head[2] ?? "", count(r.recipients)),
        cell(head[3] ?? "", timeHtml(r.start)),
        cell(head[4] ?? "", `${outcome}${over}`),
        cell(head[5] ?? "", deadline),
        cell(head[6] ?? "", quiet),
        "</tr>",
      ].join("");
    }),
  );
  const days = t.brands.flatMap((b) =>
    b.brand === null
      ? []
      : b.days.flatMap((d, i) => {
          const c = t.columns[i];
          if (d === null || d === undefined || c === undefined || c.kind !== "day" || d.shares.length === 0)
            return [];
          return [
            `<li>${escapeHtml(b.brand ?? "")}, Pacific day ${escapeHtml(d.day)} (from ${escapeHtml(c.midnightPacific)}, ${escapeHtml(c.midnightUtc)}): <strong>${escapeHtml(d.text)}</strong>: ${escapeHtml(d.shares.join(", "))}</li>`,
          ];
        }),
  );
  return [
    `<div class="table-wrap">`,
    `<table class="forecast">`,
    `<caption>The forecast as a table</caption>`,
    `<thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join("")}</tr></thead>`,
    `<tbody>${rows.join("")}</tbody>`,
    `</table>`,
    `</div>`,
    days.length === 0
      ? ""
      : `<ul class="tl-brand-days" aria-label="Each brand's Pacific days">${days.join("")}</ul>`,
  ].join("\n");
}

/** The timeline section of `t`. */
export function timelineHtml(t: Timeline): string {
  const open = [
    `<section class="timeline" aria-labelledby="timeline-title">`,
    `<h2 id="timeline-title">Forecast: when each project sends, and where the daily cap stops it</h2>`,
  ];
  if (t.brands.length === 0)
    return [
      ...open,
      `<p>Nothing is or will be scheduled: the forecast has no send to draw.</p>`,
      `</section>`,
    ].join("\n");
  const gaps = t.columns.some((c) => c.kind === "gap")
    ? " Runs of days with nothing to draw are left out."
    : "";
  const intro = `From the plan's forecast (<code>plan --forecast</code>). Each bar runs from a project's start to its finish, or to where its brand's daily cap pauses it (hatched after). The vertical lines are Pacific midnights (America/Los_Angeles; 23 or 25 hours on a DST day), where each brand's count of its cap starts again; each day says its count.${gaps} Times are in the schedule's zone and in UTC; quiet hours are outside ${escapeHtml(t.sendWindow.from)}-${escapeHtml(t.sendWindow.to)}${t.sendWindow.from === "08:00" && t.sendWindow.to === "21:00" ? "" : " and the federal hours 08:00-21:00"} in every zone the recipients live in, and outside each rule in force of each state they are declared in (docs/places.md); each row names the windows it leaves. Throughput: 10DLC ${count(t.throughput["10dlc"])}, toll-free ${count(t.throughput["toll-free"])} message segments a minute per project.`;
  return [
    ...open,
    `<p class="note">${intro}</p>`,
    legendHtml(),
    `<div class="tl-scroll">`,
    `<div class="tl" style="min-width:calc(${t.weight} * 6.5rem)">`,
    t.brands.map((b, i) => brandHtml(b, t, i + 1)).join("\n"),
    `</div>`,
    `</div>`,
    tableHtml(t),
    `</section>`,
  ].join("\n");
}
