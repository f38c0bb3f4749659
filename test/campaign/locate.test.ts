import { describe, expect, it } from "vitest";
import { assembleCampaign } from "../../src/campaign/assemble.js";
import type { ProjectSpec } from "../../src/campaign/model.js";
import type { SourceRange } from "../../src/diagnostics/diagnostic.js";
import { campaignFile } from "./helpers.js";

function only(text: string): { project: ProjectSpec; text: string } {
  const { campaign, diagnostics } = assembleCampaign([campaignFile("c.yaml", text)]);
  expect(diagnostics).toEqual([]);
  const project = campaign.projects[0];
  if (project === undefined) throw new Error("no project");
  return { project, text };
}

/** The source text a range covers. */
const cover = (text: string, r: SourceRange) => text.slice(r.start.offset, r.end.offset);
const at = (r: SourceRange) => `${r.start.line}:${r.start.column}`;

describe("defaults and locate", () => {
  const text = [
    "version: 1",
    "defaults:",
    "  state: tested",
    "  test:",
    "    contacts:",
    '      - phone: "+15035550150"',
    "  contact_lists: [Ward 3]",
    "projects:",
    "  a:",
    "    id: x",
    "    contact_lists: [Volunteers]",
    "    message: Vote! Reply STOP to opt out",
    "",
  ].join("\n");

  it("merges per top-level key; the project's own value wins", () => {
    const { project } = only(text);
    expect(project.state).toBe("tested");
    expect(project.contactLists).toEqual(["Volunteers"]);
    expect(project.test?.contacts).toEqual([{ phone: "+15035550150", mergeValues: undefined }]);
    expect(project.type).toBe("broadcast");
    expect(project.after).toEqual([]);
  });

  it("points into `defaults` for inherited values, into the project for its own", () => {
    const { project } = only(text);
    expect(at(project.locate(["state"]))).toBe("3:10");
    expect(at(project.locate(["test", "contacts", 0, "phone"]))).toBe("6:16");
    expect(at(project.locate(["contact_lists", 0]))).toBe("11:21");
    expect(at(project.locate(["id"]))).toBe("10:9");
  });

  it("falls back to the closest written ancestor, then to the project's key", () => {
    const { project } = only(text);
    expect(at(project.locate(["test", "contacts", 3, "phone"]))).toBe("6:7");
    expect(at(project.locate(["schedule", "at"]))).toBe("9:3");
    expect(at(project.locate([]))).toBe("9:3");
    expect(at(project.range)).toBe("9:3");
  });
});

describe("locateInMessage", () => {
  const tag = "{{first_name|friend}}";
  const cases: readonly (readonly [string, string, string])[] = [
    ["plain", `    message: Hi ${tag}, vote today`, "5:17"],
    ["single-quoted with an escaped quote", `    message: 'It''s Election Day, ${tag}!'`, "5:35"],
    ["double-quoted without escapes", `    message: "Hi ${tag}, vote"`, "5:18"],
    ["block literal", `    message: |\n      Polls are open.\n      Hi ${tag}, vote`, "7:10"],
    ["block folded", `    message: >-\n      Polls are\n      open. Hi ${tag}, vote`, "7:16"],
    ["plain over two lines", `    message: Polls are\n      open. Hi ${tag}, vote`, "6:16"],
  ];

  it.each(cases)("%s", (_name, messageLines, expected) => {
    const { project, text } = only(`version: 1\nprojects:\n  a:\n    id: x\n${messageLines}\n`);
    const message = project.message ?? "";
    const start = message.indexOf(tag);
    const range = project.locateInMessage(start, start + tag.length);
    expect(cover(text, range)).toBe(tag);
    expect(at(range)).toBe(expected);
  });

  it("maps exactly through escapes of a one-line double-quoted string (an escape maps whole)", () => {
    const { project, text } = only(
      `version: 1\nprojects:\n  a:\n    id: x\n    message: "Vote\\n${tag}\\u200B"\n`,
    );
    const start = (project.message ?? "").indexOf(tag);
    expect(cover(text, project.locateInMessage(start, start + tag.length))).toBe(tag);
    expect(cover(text, project.locateInMessage(4, 5))).toBe("\\n");
    const zwsp = (project.message ?? "").indexOf("\u200B");
    expect(cover(text, project.locateInMessage(zwsp, zwsp + 1))).toBe("\\u200B");
  });

  it("widens to the whole scalar for a multi-line double-quoted string with escapes", () => {
    const { project, text } = only(
      `version: 1\nprojects:\n  a:\n    id: x\n    message: "Vote\\n\n      ${tag}"\n`,
    );
    const start = (project.message ?? "").indexOf(tag);
    const range = project.locateInMessage(start, start + tag.length);
    expect(cover(text, range)).toBe(`"Vote\\n\n      ${tag}"`);
  });

  it("maps inherited messages into `defaults` and never throws on odd indexes", () => {
    const { project, text } = only(`version: 1\ndefaults:\n  message: Hi ${tag}\nprojects:\n  a: {id: x}\n`);
    expect(cover(text, project.locateInMessage(3, 3 + tag.length))).toBe(tag);
    expect(() => project.locateInMessage(-5, 1e9)).not.toThrow();
    expect(() => project.locateInMessage(Number.NaN, 2)).not.toThrow();
  });
});
