/**
 * The gallery page: one self-contained HTML document (inline CSS, no script, no external resource;
 * a Content-Security-Policy forbids loading anything). It opens with the overview (the plan, the
 * policy in force, what sends when, to how many, for how much, with links to the projects), then
 * the forecast's timeline when the plan has a forecast, then the legend of the phones, the files'
 * diagnostics, and one article per project. Pure: model in, HTML string out.
 */
import type { ValueSource } from "../../message/render.js";
import { escapeHtml } from "../html-escape.js";
import { sourceExplanation, sourceLabel } from "./labels.js";
import type { GalleryModel } from "./model.js";
import { overviewHtml } from "./overview-html.js";
import { problemsHtml } from "./problems.js";
import { projectHtml } from "./project.js";
import { GALLERY_CSS, TIMELINE_CSS } from "./styles.js";
import { timelineHtml } from "./timeline.js";

/** Nothing may be fetched: no scripts, no images, no fonts, no connections; inline styles only. */
export const GALLERY_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const SOURCES: readonly ValueSource[] = ["contact", "fallback", "default", "platform"];

function legendHtml(): string {
  const items = SOURCES.map(
    (s) =>
      `<li><span class="swatch src-${s}">${s === "platform" ? "&nbsp;" : "abc"}</span>${escapeHtml(`${sourceLabel(s)}: ${sourceExplanation(s)}`)}</li>`,
  );
  items.push(`<li><span class="swatch footer-text">STOP</span>opt-out footer</li>`);
  items.push(`<li><span class="swatch"><mark class="ucs2">ặ</mark></span>character that forces UCS-2</li>`);
  return `<ul class="legend" aria-label="Legend">${items.join("")}</ul>`;
}

export function renderGalleryHtml(model: GalleryModel): string {
  const count = model.projects.length;
  const body =
    count === 0 ? "<p>No projects in the given files.</p>" : model.projects.map(projectHtml).join("\n");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${GALLERY_CSP}">
<title>${escapeHtml(model.title)}</title>
<style>${GALLERY_CSS}${model.timeline === null ? "" : TIMELINE_CSS}</style>
</head>
<body>
<a class="skip" href="#messages">Skip to the messages</a>
<div class="page">
<header class="page-header" aria-label="Gallery">
<h1>Message previews</h1>
<p>${count} ${count === 1 ? "project" : "projects"}: what sends when, to whom and for how much, then each message as it will arrive on a phone, for every test contact and fallback case.</p>
</header>
<main id="previews" aria-label="Message previews">
${overviewHtml(model.plan, model.overview)}
${model.timeline === null ? "" : `${timelineHtml(model.timeline)}\n`}<div id="messages">
<h2 class="visually-hidden">Messages</h2>
<p class="legend-intro">Highlights in the phones show where each merge tag's value came from:</p>
${legendHtml()}
${problemsHtml(model.problems, "campaign-problems", 2, " in the files")}
${body}
</div>
</main>
<footer class="page-footer">Written by campaignctl preview --html. Static page: no scripts, nothing loaded from the network; media are shown by name.</footer>
</div>
</body>
</html>
`;
}
