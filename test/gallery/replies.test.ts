/**
 * The gallery shows each project's reply rules (issue 28 item 1: "shown by validate, preview and the
 * gallery"): in order, what each matches, its answer as sent, its encoding and segments; escaped
 * like every user text; nothing for a project without rules.
 */
import { describe, expect, it } from "vitest";
import { buildGalleryModel } from "../../src/report/gallery/model.js";
import { renderGalleryHtml } from "../../src/report/gallery/page.js";
import { loadProjects, UCS2_YAML } from "./fixtures.js";

const REPLIES_YAML = `version: 1
projects:
  gotv:
    id: 9a000000-0000-4000-8000-0000000000c1
    message: "Polls are open today 7am-7pm. Reply STOP to opt out"
    phone_numbers: ["+15035550102"]
    contact_lists: [List]
    replies:
      rules:
        - name: where
          keywords:
            en: [where do i vote]
            es: [dónde voto]
          answer: "Find your polling place at vote.example.org <b>ward 3</b>."
        - name: who
          pattern: "\\\\bwho is this\\\\b"
          answer: "Esta es la campaña de Ana Núñez — Ward 3."
`;

function section(html: string): string {
  const start = html.indexOf('<section class="replies"');
  expect(start).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf("</section>", start) + "</section>".length);
}

describe("gallery: reply rules", () => {
  it("lists each rule in order with what it matches, the answer, the encoding and the segments", () => {
    const model = buildGalleryModel({ projects: loadProjects({ "gotv.yaml": REPLIES_YAML }), plan: null });
    expect(model.projects[0]?.replies.map((r) => [r.rule, r.sms.encoding, r.sms.segments])).toEqual([
      ["where", "GSM-7", 1],
      ["who", "UCS-2", 1],
    ]);
    const html = section(renderGalleryHtml(model));
    const rows = [...html.matchAll(/<tr><th scope="row">(.*?)<\/tr>/g)].map((m) =>
      (m[1] ?? "").replace(/<[^>]+>/g, "|").replace(/\|+/g, "|"),
    );
    expect(rows).toEqual([
      "|where|en: where do i vote; es: dónde voto|Find your polling place at vote.example.org &lt;b&gt;ward 3&lt;/b&gt;.|GSM-7, 58 characters, |1 segment|",
      "|who|pattern /\\bwho is this\\b/|Esta es la campaña de Ana Núñez — Ward 3.|UCS-2, 41 characters, |1 segment| |(not GSM: ú —)|",
    ]);
    expect(html).toContain('<h3 id="project-1-replies">Reply rules</h3>');
    expect(html).not.toContain("<b>");
  });

  it("shows no reply rules section for a project without rules", () => {
    const html = renderGalleryHtml(
      buildGalleryModel({ projects: loadProjects({ "ucs2.yaml": UCS2_YAML }), plan: null }),
    );
    expect(html).not.toContain('<section class="replies"');
  });
});
