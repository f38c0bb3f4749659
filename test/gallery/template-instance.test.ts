/** The gallery shows a template instance as its contacts get it: template, organization, language (issue 26). */
import { describe, expect, it } from "vitest";
import { buildGalleryModel } from "../../src/report/gallery/model.js";
import { projectHtml } from "../../src/report/gallery/project.js";
import { loadProjects } from "./fixtures.js";

const TEMPLATED = `version: 1
templates:
  gotv:
    message:
      en: "Hi {{first_name|friend}}, vote Tuesday. Reply STOP to opt out"
      es: "Hola {{first_name|amigo}}, vota el martes. Responde STOP para cancelar"
    instances:
      adams-es: {organization: Adams County Democrats, id: a2, language: es}
projects:
  plain:
    id: p1
    message: "Vote Tuesday. Reply STOP to opt out"
`;

describe("gallery: template instances", () => {
  const model = buildGalleryModel({ projects: loadProjects({ "t.yaml": TEMPLATED }), plan: null });

  it("carries the instance's template, organization and language, and its variant's text", () => {
    const instance = model.projects.find((p) => p.address === "adams-es");
    expect(instance?.instance).toEqual({
      template: "gotv",
      organization: "Adams County Democrats",
      language: "es",
    });
    expect(instance?.cases.at(-1)?.text).toBe("Hola amigo, vota el martes. Responde STOP para cancelar");
    expect(model.projects.find((p) => p.address === "plain")?.instance).toBeUndefined();
  });

  it("shows it as a fact of the project", () => {
    const instance = model.projects.find((p) => p.address === "adams-es");
    if (instance === undefined) throw new Error("no instance");
    expect(projectHtml(instance)).toContain(
      "<code>gotv</code>, Adams County Democrats, language <code>es</code>",
    );
    const plain = model.projects.find((p) => p.address === "plain");
    if (plain === undefined) throw new Error("no project");
    expect(projectHtml(plain)).not.toContain("Template");
  });
});
