/** `mergeGitignore`: what init appends to an existing .gitignore, and what it leaves alone. */
import { describe, expect, it } from "vitest";
import { mergeGitignore } from "../../cli/init/gitignore.js";
import { GITIGNORE } from "../../cli/init/templates.js";

const HEAD = "# campaignctl (added by campaignctl init): its cache, journals, saved plans and reports";

describe("mergeGitignore", () => {
  it("appends the missing patterns under one comment, after a blank line", () => {
    expect(mergeGitignore("node_modules/\n", ".campaignctl/\nplan.json\n")).toEqual({
      text: `node_modules/\n\n${HEAD}\n.campaignctl/\nplan.json\n`,
      added: [".campaignctl/", "plan.json"],
    });
  });

  it("ends a last line without a newline first, and keeps CRLF files CRLF", () => {
    expect(mergeGitignore("dist", "plan.md\n")?.text).toBe(`dist\n\n${HEAD}\nplan.md\n`);
    expect(mergeGitignore("dist\r\n", "plan.md\n")?.text).toBe(`dist\r\n\r\n${HEAD}\r\nplan.md\r\n`);
  });

  it("an empty file gets the block alone", () => {
    expect(mergeGitignore("", "plan.md\n")?.text).toBe(`${HEAD}\nplan.md\n`);
  });

  it("a pattern written with or without the leading or trailing slash is present", () => {
    expect(
      mergeGitignore("/.campaignctl\ngallery\n/plan.json\n", ".campaignctl/\ngallery/\nplan.json\n"),
    ).toBe(undefined);
  });

  it("comments are not patterns, and nothing is missing from our own file", () => {
    expect(mergeGitignore("# plan.md\n", "plan.md\n")?.added).toEqual(["plan.md"]);
    expect(mergeGitignore(GITIGNORE, GITIGNORE)).toBe(undefined);
  });
});
