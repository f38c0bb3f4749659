/**
 * The gallery's only stylesheet, inlined in the page (no external fonts, files or requests). Fonts
 * are a fixed stack of fonts Debian ships (DejaVu, Liberation), so screenshots are reproducible.
 * Colours meet WCAG AA: body text at least 7:1 on its background, every highlight keeps the text
 * dark and is also told in words (tables, labels), never by colour alone.
 */

export const GALLERY_CSS = `
:root {
  color-scheme: light;
  --ink: #1a1a1a;
  --muted: #4a4a4a;
  --line: #c9ccd1;
  --paper: #ffffff;
  --panel: #f4f5f7;
  --link: #1a4fb8;
  --bubble: #e9e9eb;
  --src-contact: #cfe3ff;
  --src-fallback: #ffe9b0;
  --src-default: #e6dcff;
  --src-platform: #ffffff;
  --footer: #d7f0dc;
  --ucs2: #ffc9c9;
  --ucs2-edge: #a40000;
  --ok: #1d5e2c;
  --bad: #a40000;
  --wait: #7a4a00;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0;
  background: var(--paper);
  color: var(--ink);
  font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif;
  font-size: 15px;
  line-height: 1.45;
}
a { color: var(--link); }
a:focus-visible, summary:focus-visible { outline: 3px solid var(--link); outline-offset: 2px; }
.skip {
  position: absolute; left: -10000px; top: 0;
  background: var(--paper); padding: 8px; z-index: 1;
}
.skip:focus { left: 8px; }
.visually-hidden {
  position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap;
}
.page { max-width: 1240px; margin: 0 auto; padding: 16px; }
.page-header h1 { font-size: 1.6rem; margin: 0 0 4px; }
.page-header p { margin: 4px 0; color: var(--muted); }
.legend { display: flex; flex-wrap: wrap; gap: 6px 14px; padding: 0; margin: 10px 0 0; list-style: none; font-size: 0.9rem; }
.legend li { display: flex; align-items: center; gap: 6px; }
.swatch { display: inline-block; min-width: 2.2em; padding: 0 4px; border-radius: 4px; border: 1px solid var(--line); text-align: center; }
.overview { margin: 14px 0 8px; }
.overview h2 { font-size: 1.25rem; margin: 0 0 6px; }
.overview .facts { margin: 6px 0 10px; }
.table-wrap { overflow-x: auto; }
table.overview { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
table.overview th, table.overview td { border: 1px solid var(--line); padding: 4px 6px; text-align: left; vertical-align: top; }
table.overview thead th { background: var(--panel); }
table.overview tbody th { font-weight: normal; overflow-wrap: break-word; }
.nowrap { white-space: nowrap; }
table.overview tbody th a { font-weight: bold; }
table.overview td.number { text-align: right; }
table.overview tr.not-sending td, table.overview tr.not-sending th { color: var(--muted); background: var(--panel); }
table.overview tfoot th, table.overview tfoot td { font-weight: bold; background: var(--panel); }
table.overview tfoot tr.subtotal th, table.overview tfoot tr.subtotal td { font-weight: normal; background: var(--paper); }
ul.lists { margin: 0; padding-left: 1.1em; }
table.replies { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
table.replies th, table.replies td { border: 1px solid var(--line); padding: 4px 6px; text-align: left; vertical-align: top; }
table.replies thead th { background: var(--panel); }
@media (max-width: 480px) {
  table.replies, table.replies tbody, table.replies tr, table.replies th, table.replies td { display: block; width: auto; }
  table.replies thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  table.replies tr { border: 1px solid var(--line); border-radius: 8px; margin: 0 0 10px; padding: 4px 0; }
  table.replies th, table.replies td { border: none; padding: 2px 10px; }
  table.replies td::before { content: attr(data-label) ": "; font-weight: bold; }
}
.zone, .unknown, .id { color: var(--muted); font-size: 0.9em; }
.overview .note { color: var(--muted); font-size: 0.85rem; margin: 6px 0 0; }
.legend-intro { margin: 14px 0 0; color: var(--muted); }
article.project { border-top: 2px solid var(--line); padding: 18px 0 8px; }
article.project > header h2 { font-size: 1.35rem; margin: 0; overflow-wrap: anywhere; }
article.project > header p { margin: 2px 0 0; color: var(--muted); overflow-wrap: anywhere; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; margin: 12px 0; }
.facts dt { font-weight: bold; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.send { background: var(--panel); border-radius: 8px; padding: 10px 14px; margin: 12px 0; }
.send h3 { font-size: 1.05rem; margin: 0 0 4px; }
.send ul { margin: 4px 0; padding-left: 20px; }
.status-planned { color: var(--ok); font-weight: bold; }
.status-blocked { color: var(--bad); font-weight: bold; }
.status-deferred { color: var(--wait); font-weight: bold; }
.status-none { color: var(--muted); font-weight: bold; }
.flag { white-space: nowrap; }
.problems { border-left: 4px solid var(--line); padding: 2px 12px; margin: 12px 0; }
.problems h2, .problems h3 { font-size: 1.05rem; margin: 4px 0; }
.problems ul { margin: 4px 0; padding-left: 18px; }
.problems li { margin: 4px 0; overflow-wrap: anywhere; }
.problems .severity { font-weight: bold; text-transform: uppercase; font-size: 0.8rem; }
.problem-error .severity { color: var(--bad); }
.problem-warning .severity { color: var(--wait); }
.problem-info .severity { color: var(--muted); }
.problems .hint { color: var(--muted); }
.notes { margin: 8px 0; padding-left: 20px; color: var(--muted); }
.cases { display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: 18px; margin-top: 12px; }
section.case { min-width: 0; }
section.case h3 { font-size: 1rem; margin: 0 0 2px; }
section.case .who { margin: 0 0 8px; color: var(--muted); font-size: 0.9rem; overflow-wrap: anywhere; }
.phone {
  width: 100%; max-width: 340px; margin: 0 auto;
  border: 10px solid #22262b; border-radius: 30px; background: var(--paper);
  box-shadow: 0 2px 6px rgba(0, 0, 0, 0.25); overflow: hidden;
}
.phone-top { background: var(--panel); border-bottom: 1px solid var(--line); padding: 10px 12px 8px; text-align: center; }
.phone-top .sender { font-weight: bold; display: block; overflow-wrap: anywhere; }
.phone-top .kind { font-size: 0.8rem; color: var(--muted); }
.thread { padding: 14px 12px 18px; min-height: 120px; }
.media {
  display: flex; flex-direction: column; justify-content: center; align-items: center;
  width: 78%; aspect-ratio: 4 / 3; margin: 0 0 6px; border-radius: 16px;
  border: 2px dashed #6b6f76; background: var(--panel); text-align: center; padding: 8px;
}
.media .media-kind { font-weight: bold; text-transform: uppercase; letter-spacing: 0.05em; font-size: 0.8rem; }
.media .media-name { overflow-wrap: anywhere; }
.bubble {
  margin: 0; width: fit-content; max-width: 88%;
  background: var(--bubble); border-radius: 18px 18px 18px 4px; padding: 8px 12px;
  white-space: pre-wrap; overflow-wrap: anywhere;
}
.tag { border-radius: 3px; padding: 0 1px; box-decoration-break: clone; -webkit-box-decoration-break: clone; }
.src-contact { background: var(--src-contact); }
.src-fallback { background: var(--src-fallback); }
.src-default { background: var(--src-default); }
.src-platform { background: var(--src-platform); border: 1px dashed #6b6f76; }
.tag.empty { display: inline-block; width: 1.4em; height: 1em; vertical-align: -0.1em; }
.footer-text { background: var(--footer); border-radius: 3px; }
mark.ucs2 {
  background: var(--ucs2); color: var(--ink); border-bottom: 2px solid var(--ucs2-edge);
  border-radius: 2px; padding: 0 1px;
}
.sms-facts { margin: 10px 0 0; font-size: 0.9rem; }
.sms-facts p { margin: 2px 0; }
.sms-facts .ucs2-why { color: var(--bad); }
table.tags { border-collapse: collapse; margin-top: 8px; font-size: 0.9rem; width: 100%; }
table.tags caption { text-align: left; font-weight: bold; }
table.tags th, table.tags td { border: 1px solid var(--line); padding: 3px 6px; text-align: left; vertical-align: top; }
table.tags td.value { overflow-wrap: anywhere; width: 100%; }
table.tags th[scope="row"], table.tags td.source { white-space: nowrap; }
table.tags th { background: var(--panel); }
.empty-value { color: var(--muted); font-style: italic; }
.page-footer { margin-top: 24px; border-top: 1px solid var(--line); padding-top: 8px; color: var(--muted); font-size: 0.85rem; }
@media (max-width: 480px) {
  .page { padding: 10px; }
  table.overview, table.overview tbody, table.overview tfoot, table.overview tr,
  table.overview th, table.overview td { display: block; width: auto; }
  table.overview thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  table.overview tr {
    display: flex; flex-direction: column;
    border: 1px solid var(--line); border-radius: 8px; margin: 0 0 10px; padding: 4px 0;
  }
  table.overview tbody th { order: -1; }
  table.overview th, table.overview td { border: none; padding: 2px 10px; }
  table.overview td.number { text-align: left; }
  table.overview td::before { content: attr(data-label) ": "; font-weight: bold; }
  table.overview td:empty { display: none; }
  .facts { grid-template-columns: 1fr; gap: 0 0; }
  .facts dd { margin-bottom: 6px; }
  .cases { grid-template-columns: 1fr; }
}
@media print {
  body { font-size: 10pt; }
  .skip { display: none; }
  .table-wrap { overflow: visible; }
  table.overview tr { break-inside: avoid; }
  .page { max-width: none; padding: 0; }
  a { color: var(--ink); text-decoration: none; }
  article.project { break-before: page; border-top: none; }
  article.project:first-of-type { break-before: auto; }
  section.case, .send, table.tags { break-inside: avoid; }
  .phone { box-shadow: none; border-width: 3px; border-color: #000; }
  .cases { grid-template-columns: repeat(2, 1fr); }
  .tag, mark.ucs2, .footer-text, .swatch, .bubble {
    -webkit-print-color-adjust: exact; print-color-adjust: exact;
  }
}
`;

/**
 * The forecast timeline's styles (timeline.ts), added to the page only when it has a timeline, so
 * that a gallery without a forecast is the same bytes as before there was one. Non-text marks keep
 * at least 3:1 against the paper; each is also told in words (legend, row text, table).
 */
export const TIMELINE_CSS = `
:root {
  --bar: #1a4fb8;
  --quiet: #ffd27a;
  --midnight: #6b6f76;
}
section.timeline { margin: 18px 0 8px; }
section.timeline h2 { font-size: 1.25rem; margin: 0 0 6px; }
section.timeline .note { color: var(--muted); font-size: 0.85rem; margin: 6px 0; }
.tl-legend { display: flex; flex-wrap: wrap; gap: 4px 14px; padding: 0; margin: 6px 0 8px; list-style: none; font-size: 0.85rem; }
.tl-legend li { display: flex; align-items: center; gap: 6px; }
.tl-swatch { display: inline-block; width: 26px; height: 12px; position: relative; }
.tl-scroll { overflow-x: auto; }
.tl-brand { margin: 8px 0 14px; }
.tl-brand h3 { font-size: 1.05rem; margin: 4px 0; overflow-wrap: anywhere; }
.tl-cap { font-weight: normal; }
ol.tl-days { display: flex; list-style: none; margin: 0; padding: 0; font-size: 0.8rem; line-height: 1.3; }
.tl-days li { min-width: 0; padding: 2px 6px 4px; border-left: 1px solid var(--midnight); overflow-wrap: anywhere; }
.tl-days li:last-child { border-right: 1px solid var(--midnight); }
.tl-day-name { font-weight: bold; }
.tl-day-from { color: var(--muted); }
.tl-count { display: block; }
.tl-count.tl-full, .tl-pause-text { color: var(--bad); }
.tl-gap { background: var(--panel); color: var(--muted); font-style: italic; }
ul.tl-rows { list-style: none; margin: 0; padding: 0; }
.tl-row { border-top: 1px solid var(--line); padding: 4px 0 6px; }
.tl-label { margin: 0 0 3px; font-size: 0.9rem; overflow-wrap: anywhere; }
.tl-track { position: relative; height: 46px; background: var(--paper); border: 1px solid var(--line); }
.tl-track > span { position: absolute; top: 0; bottom: 0; }
.tl-midnight, .tl-swatch-midnight::after { width: 0; border-left: 1px solid var(--midnight); }
.tl-gapfill { background: var(--panel); }
.tl-bar, .tl-swatch-bar { background: var(--bar); min-width: 6px; }
.tl-track > .tl-bar, .tl-track > .tl-quiet, .tl-track > .tl-paused { top: 15px; bottom: 15px; }
.tl-quiet, .tl-swatch-quiet {
  min-width: 6px; border-top: 3px solid var(--wait); border-bottom: 3px solid var(--wait);
  background: repeating-linear-gradient(90deg, var(--quiet) 0 3px, var(--bar) 3px 6px);
}
.tl-paused, .tl-swatch-paused {
  min-width: 3px; border: 1px solid var(--bad);
  background: repeating-linear-gradient(135deg, var(--bad) 0 2px, var(--paper) 2px 6px);
}
.tl-track > .tl-pause { width: 3px; background: var(--bad); }
.tl-deadline, .tl-swatch-deadline::after { width: 0; border-left: 2px dashed var(--ink); }
.tl-pause > span, .tl-deadline > span {
  position: absolute; left: 4px; font-size: 0.7rem; line-height: 1.2;
  background: var(--paper); padding: 0 2px; white-space: nowrap;
}
.tl-deadline > span { top: 0; }
.tl-pause > span { bottom: 0; color: var(--bad); font-weight: bold; }
.tl-label-left > span { left: auto; right: 4px; }
.tl-swatch-midnight::after, .tl-swatch-deadline::after { content: ""; position: absolute; left: 12px; top: -2px; bottom: -2px; }
table.forecast { border-collapse: collapse; width: 100%; font-size: 0.9rem; margin-top: 6px; }
table.forecast caption { text-align: left; font-weight: bold; }
table.forecast th, table.forecast td { border: 1px solid var(--line); padding: 4px 6px; text-align: left; vertical-align: top; }
table.forecast thead th { background: var(--panel); }
table.forecast tbody th { font-weight: normal; white-space: nowrap; }
ul.tl-brand-days { margin: 6px 0; padding-left: 20px; font-size: 0.9rem; }
@media (max-width: 480px) {
  table.forecast, table.forecast tbody, table.forecast tr, table.forecast th, table.forecast td { display: block; width: auto; }
  table.forecast thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  table.forecast tr { border: 1px solid var(--line); border-radius: 8px; margin: 0 0 10px; padding: 4px 0; }
  table.forecast th, table.forecast td { border: none; padding: 2px 10px; }
  table.forecast td::before { content: attr(data-label) ": "; font-weight: bold; }
  table.forecast caption { display: block; }
  table.forecast tbody th { white-space: normal; overflow-wrap: anywhere; }
}
@media print {
  .tl-scroll { overflow: visible; }
  .tl { min-width: 0 !important; }
  .tl-row, .tl-days, table.forecast tr { break-inside: avoid; }
  .tl-brand h3 { break-after: avoid; }
  table.forecast .nowrap, table.forecast tbody th { white-space: normal; overflow-wrap: anywhere; }
  .tl-track span, .tl-swatch, .tl-swatch::after, .tl-gap {
    -webkit-print-color-adjust: exact; print-color-adjust: exact;
  }
}
`;
