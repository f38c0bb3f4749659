import { describe, expect, it } from "vitest";
import { codePointLabel } from "../../src/message/code-point.js";
import { buildGalleryModel } from "../../src/report/gallery/model.js";
import { GALLERY_CSP, renderGalleryHtml } from "../../src/report/gallery/page.js";
import { escapeHtml } from "../../src/report/html-escape.js";
import { fullPlan } from "../report/fixtures.js";
import { expectGolden } from "../report/golden.js";
import { loadProjects, MMS_YAML, UCS2_YAML } from "./fixtures.js";

const HOSTILE_YAML = `version: 1
merge_defaults:
  first_name: "<img src=x onerror=alert(1)>"
projects:
  hostile:
    id: 9a000000-0000-4000-8000-0000000000bb
    name: "\\"><script>alert('name')</script>"
    message: "<script>alert('message')</script> & {{first_name}} Reply STOP to opt out"
    media: ["<svg onload=alert(1)>.png"]
    contact_lists: [List]
    test:
      contacts:
        - phone: "+15035550160"
          merge_values:
            first_name: "</p><script>alert('value')</script>"
`;

function galleryOf(files: Record<string, string>): string {
  return renderGalleryHtml(buildGalleryModel({ projects: loadProjects(files), plan: null }));
}

/** The HTML of the case with this id. */
function caseHtml(html: string, id: string): string {
  const start = html.indexOf(`<section class="case" id="${id}"`);
  expect(start).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf("</section>", start));
}

describe("renderGalleryHtml", () => {
  it("renders one small project byte for byte (golden)", () => {
    expectGolden("gallery.html", galleryOf({ "ucs2.yaml": UCS2_YAML }));
  });

  it("escapes every piece of user text: a message with <script> renders as text", () => {
    const html = galleryOf({ "hostile.yaml": HOSTILE_YAML });
    expect(html).not.toMatch(/<script|<img|<svg/i);
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain("&lt;script&gt;alert(&#39;message&#39;)&lt;/script&gt; &amp; ");
    expect(html).toContain("&lt;/p&gt;&lt;script&gt;alert(&#39;value&#39;)&lt;/script&gt;");
    expect(html).toContain("&quot;&gt;&lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt;");
    expect(html).toContain("&lt;svg onload=alert(1)&gt;.png");
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });

  it("labels where each tag's value came from, in the bubble and in words", () => {
    const html = galleryOf({ "ucs2.yaml": UCS2_YAML });
    const tested = caseHtml(html, "project-1-case-1");
    expect(tested).toContain(
      `<span class="tag src-contact" data-tag="first_name" title="{{first_name}}: contact"><mark class="ucs2" title="forces UCS-2: U+0110">Đ</mark><mark class="ucs2" title="forces UCS-2: U+1EB7">ặ</mark>ng</span>`,
    );
    expect(tested).toContain(
      `<span class="tag src-fallback" data-tag="team" title="{{team}}: inline fallback">the team</span>`,
    );
    expect(tested).toContain(
      `<span class="tag src-default" data-tag="county" title="{{county}}: organization default">Riverside</span>`,
    );
    expect(tested).toMatch(
      /<th scope="row"><code>place<\/code><\/th><td class="value">the library<\/td><td class="source"><span class="swatch src-contact">contact<\/span>/,
    );
    const noValues = caseHtml(html, "project-1-case-2");
    expect(noValues).toContain(
      `<span class="tag src-platform empty" title="{{place}}: empty"><span class="visually-hidden">(place: empty)</span></span>`,
    );
    expect(noValues).toMatch(
      /<code>place<\/code><\/th><td class="value"><span class="empty-value">\(empty\)<\/span><\/td><td class="source"><span class="swatch src-platform">empty<\/span>/,
    );
    expect(noValues).toContain(`<span class="footer-text" title="opt-out footer">\nSTOP=END</span>`);
  });

  it("says which characters forced UCS-2, and the segments", () => {
    const tested = caseHtml(galleryOf({ "ucs2.yaml": UCS2_YAML }), "project-1-case-1");
    expect(tested).toContain("<strong>UCS-2</strong> · 2 segments · 82 characters");
    expect(tested).toContain(
      `UCS-2 because of <mark class="ucs2">Đ</mark> (U+0110), <mark class="ucs2">ặ</mark> (U+1EB7)`,
    );
    expect(codePointLabel("👋")).toBe("U+1F44B");
  });

  it("shows MMS media as named tiles, never as a fetched image", () => {
    const html = galleryOf({ "mms.yaml": MMS_YAML });
    expect(html).toContain(
      `<span class="media-kind">Image attachment</span><span class="media-name">rally-flyer.png</span>`,
    );
    expect(html).toContain(`<span class="media-kind">Media attachment</span>`);
    expect(html).toContain("MMS: segments do not apply");
    expect(html).not.toMatch(/<img|src=|url\(/i);
  });

  it("is self-contained: a CSP that loads nothing, no script, no external URL", () => {
    const html = galleryOf({ "ucs2.yaml": UCS2_YAML, "mms.yaml": MMS_YAML });
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${GALLERY_CSP}">`);
    expect(GALLERY_CSP).toContain("default-src 'none'");
    expect(html).not.toMatch(/<script|<link|@import|@font-face|https?:\/\//i);
  });

  it("lists the files' problems with their project, escaped, with position and hint", () => {
    const projects = loadProjects({ "mms.yaml": MMS_YAML });
    const range = {
      file: "mms.yaml",
      start: { line: 6, column: 14, offset: 90 },
      end: { line: 6, column: 20, offset: 96 },
    };
    const html = renderGalleryHtml(
      buildGalleryModel({
        projects,
        plan: null,
        diagnostics: [
          {
            severity: "warning",
            code: "lint.schedule-in-past",
            message: "flyer-blast: <b>late</b>",
            range,
            hint: "move it",
          },
        ],
      }),
    );
    expect(html).toContain(
      `<section class="problems problems-warning" aria-labelledby="project-1-problems-warning"><h3 id="project-1-problems-warning">Warnings in the file (1)</h3><ul><li class="problem-warning"><span class="severity">warning</span> <code>lint.schedule-in-past</code> <span class="code-meaning">(by the clock \`validate\` judged against (the system clock, or --now), the schedule&#39;s \`at\` is past; plan judges it by the API&#39;s clock)</span> mms.yaml:6:14: flyer-blast: &lt;b&gt;late&lt;/b&gt;<br><span class="hint">hint: move it</span></li></ul></section>`,
    );
  });

  it("heads the files' diagnostics by severity: an info note is a note, never a problem", () => {
    const projects = loadProjects({ "mms.yaml": MMS_YAML });
    const note = (severity: "error" | "warning" | "info", message: string) =>
      ({ severity, code: "lint.segment-growth", message }) as const;
    const html = renderGalleryHtml(
      buildGalleryModel({
        projects,
        plan: null,
        diagnostics: [
          note("info", "flyer-blast: grows"),
          note("info", "flyer-blast: grows again"),
          note("error", "not about a project"),
          note("warning", "neither"),
        ],
      }),
    );
    expect(html).not.toMatch(/problem(s)? in|>Problems/i);
    expect(html).toContain(`<h3 id="project-1-problems-info">Notes in the file (2)</h3>`);
    expect(html).toContain(`<h2 id="campaign-problems-error">Errors in the files (1)</h2>`);
    expect(html).toContain(`<h2 id="campaign-problems-warning">Warnings in the files (1)</h2>`);
    expect(html.indexOf("Errors in the files")).toBeLessThan(html.indexOf("Warnings in the files"));
  });

  it("has labelled landmarks and one h1, h2 per project, h3 per section", () => {
    const html = galleryOf({ "ucs2.yaml": UCS2_YAML, "mms.yaml": MMS_YAML });
    expect(html).toContain(`<html lang="en">`);
    expect(html).toContain(`<header class="page-header" aria-label="Gallery">`);
    expect(html).toContain(`<main id="previews" aria-label="Message previews">`);
    expect(html).toContain(`<section class="overview" aria-labelledby="overview-title">`);
    // The overview opens the page and links every project.
    expect(html.indexOf(`class="overview"`)).toBeLessThan(html.indexOf(`<article`));
    expect(html.match(/<th scope="row" data-label="Project"><a href="#project-\d">/g)).toHaveLength(2);
    expect(
      html.match(/<article class="project" id="project-\d" aria-labelledby="project-\d-title">/g),
    ).toHaveLength(2);
    expect(html.match(/<h1[ >]/g)).toHaveLength(1);
    expect(html.match(/<h2 id="project-\d-title">/g)).toHaveLength(2);
  });

  it("shows the plan's status and cost when planned, and says how to plan when not", () => {
    const projects = loadProjects({ "mms.yaml": MMS_YAML });
    const offline = renderGalleryHtml(buildGalleryModel({ projects, plan: null }));
    expect(offline).toContain(
      `not planned: run with <span class="flag">--sandbox</span> or <span class="flag">--base-url</span>, or give a saved plan with <span class="flag">--plan</span>`,
    );
    expect(offline).toContain("not known until planned");
    const planned = renderGalleryHtml(buildGalleryModel({ projects, plan: fullPlan() }));
    expect(planned).toMatch(
      /data-testid="plan-status">Plan against <code>[^<]+<\/code> at [A-Z][a-z]{2}, [A-Z][a-z]{2} \d+, \d{4}, \d\d:\d\d UTC: live now /,
    );
    expect(planned).toMatch(
      /<span class="status-blocked">test send: blocked \(cannot be done as the files stand\)<\/span>/,
    );
    expect(planned).toMatch(
      /Estimated cost<\/dt><dd>[\d,]+ recipients, MMS \(segments do not apply\), about \$/,
    );
  });
});
