import { describe, expect, it } from "vitest";
import { renderPlanMarkdown } from "../../src/report/plan-markdown.js";
import { fullPlan } from "../report/fixtures.js";

describe("renderPlanMarkdown with galleryUrl", () => {
  it("links the gallery in the head, and changes nothing else", () => {
    const without = renderPlanMarkdown(fullPlan());
    const withLink = renderPlanMarkdown(fullPlan(), { galleryUrl: "gallery/index.html" });
    const line = "\nMessage previews: [the gallery of phone mock-ups](<gallery/index.html>).\n";
    expect(withLink).toContain(line);
    expect(withLink.replace(`\n${line}`, "\n")).toBe(without);
    expect(withLink.indexOf(line)).toBeLessThan(withLink.indexOf("| Project |"));
  });

  it("keeps a hostile URL inside the link destination", () => {
    const md = renderPlanMarkdown(fullPlan(), { galleryUrl: "https://x.test/a b>)<script>\n# h" });
    expect(md).toContain("(<https://x.test/a%20b%3E)%3Cscript%3E%0A#%20h>)");
  });
});
