import { describe, expect, it } from "vitest";
import {
  buildGalleryModel,
  type GalleryPiece,
  NOT_PLANNED,
  spansOf,
} from "../../src/report/gallery/model.js";
import { fullPlan } from "../report/fixtures.js";
import { loadProjects, MMS_YAML, UCS2_YAML } from "./fixtures.js";

/** A piece as `text<origin>` for compact assertions. */
function show(piece: GalleryPiece): string {
  switch (piece.origin.kind) {
    case "literal":
      return piece.text;
    case "footer":
      return `[footer:${JSON.stringify(piece.text)}]`;
    case "tag":
      return `[${piece.origin.name}=${piece.text}:${piece.origin.source}]`;
  }
}

describe("buildGalleryModel", () => {
  const projects = loadProjects({ "ucs2.yaml": UCS2_YAML, "mms.yaml": MMS_YAML });
  const model = buildGalleryModel({ projects, plan: null });
  const ucs2 = model.projects.find((p) => p.address === "ucs2-welcome");
  const mms = model.projects.find((p) => p.address === "flyer-blast");

  it("cuts each case into pieces that say where every tag's value came from", () => {
    expect(ucs2?.cases.map((c) => c.contact.kind)).toEqual(["test-contact", "no-values"]);
    expect(ucs2?.cases[0]?.pieces.map(show).join("")).toBe(
      'Chào [first_name=Đặng:contact]! Meet [team=the team:fallback] at [place=the library:contact] in [county=Riverside:default] county <b>today</b>.[footer:"\\nSTOP=END"]',
    );
    expect(ucs2?.cases[1]?.pieces.map(show).join("")).toBe(
      'Chào [first_name=bạn:fallback]! Meet [team=the team:fallback] at [place=:platform] in [county=Riverside:default] county <b>today</b>.[footer:"\\nSTOP=END"]',
    );
    for (const c of ucs2?.cases ?? []) expect(c.pieces.map((p) => p.text).join("")).toBe(c.text);
  });

  it("marks each character that forces UCS-2, and only those", () => {
    const first = ucs2?.cases[0];
    const marked = first?.pieces.flatMap((p) => p.spans.filter((s) => s.ucs2).map((s) => s.text));
    expect(marked).toEqual(["Đ", "ặ"]);
    expect(first?.sms?.encoding).toBe("UCS-2");
    expect(first?.sms?.non_gsm_characters).toEqual(["Đ", "ặ"]);
    expect(spansOf("Hi 👋 Zoë")).toEqual([
      { text: "Hi ", ucs2: false },
      { text: "👋", ucs2: true },
      { text: " Zo", ucs2: false },
      { text: "ë", ucs2: true },
    ]);
    expect(spansOf("à é ñ €")).toEqual([{ text: "à é ñ €", ucs2: false }]);
  });

  it("shows the schedule in the recipients' zone", () => {
    expect(ucs2?.schedule).toEqual({
      at: "2036-12-08T09:30:00-08:00",
      timezone: "America/Los_Angeles",
      local: "Mon, Dec 8, 2036, 9:30 AM PST",
      utc: "2036-12-08 17:30 UTC",
      dailyCapBypass: false,
    });
  });

  it("describes MMS media by name without segments", () => {
    expect(mms?.protocol).toBe("MMS");
    expect(mms?.media).toEqual([
      { name: "rally-flyer.png", kind: "image" },
      { name: "d1000000-0000-4000-8000-000000000009", kind: "unknown" },
    ]);
    expect(mms?.cases.every((c) => c.sms === null)).toBe(true);
  });

  it("says a project was not planned without a plan, and gives the plan's project with one", () => {
    expect(ucs2?.plan).toEqual({ kind: "not-planned", reason: NOT_PLANNED });
    const plan = fullPlan();
    const withPlan = buildGalleryModel({ projects, plan });
    const flyer = withPlan.projects.find((p) => p.address === "flyer-blast")?.plan;
    expect(flyer?.kind).toBe("planned");
    if (flyer?.kind === "planned") {
      expect(flyer.plan).toBe(plan.projects.find((p) => p.address === "flyer-blast"));
      expect(flyer.baseUrl).toBe(plan.base_url);
    }
    expect(withPlan.projects.find((p) => p.address === "ucs2-welcome")?.plan).toEqual({
      kind: "not-covered",
    });
  });

  it("puts each file problem with the project it is about, and the others at the top", () => {
    const range = {
      file: "ucs2.yaml",
      start: { line: 3, column: 5, offset: 40 },
      end: { line: 3, column: 9, offset: 44 },
    };
    const mine = {
      severity: "warning",
      code: "lint.schedule-in-past",
      message: "ucs2-welcome: in the past",
      range,
    } as const;
    const other = {
      severity: "error",
      code: "cli.usage",
      message: "ucs2-welcome-2: not a project here",
    } as const;
    const withProblems = buildGalleryModel({ projects, plan: null, diagnostics: [other, mine] });
    expect(withProblems.projects.find((p) => p.address === "ucs2-welcome")?.problems).toEqual([mine]);
    expect(withProblems.projects.find((p) => p.address === "flyer-blast")?.problems).toEqual([]);
    expect(withProblems.problems).toEqual([other]);
  });

  it("gives every project and case a unique id", () => {
    const ids = model.projects.flatMap((p) => [p.id, ...p.cases.map((c) => c.id)]);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
