/**
 * What `import` and `import --template` decide from their flags and reads, as data
 * (src/import/import-usage.ts, template-usage.ts). The commands' tests show the same through them.
 */
import { describe, expect, test } from "vitest";
import { importSelection, importUsage, wouldChange } from "../../src/import/import-usage.js";
import { alreadyDescribed, templateUsage, templateWouldChange } from "../../src/import/template-usage.js";

const ID = "9a000000-0000-4000-8000-000000000001";

describe("import's flags", () => {
  test("nothing selected, a status that is none, --language without --template: one usage error, in that order", () => {
    expect(importUsage(importSelection([], {}), {}).map((d) => d.code)).toEqual(["import.no-selection"]);
    expect(importUsage(importSelection([ID], { status: "sent" }), { status: "sent" })[0]?.message).toBe(
      "--status sent is not a project status",
    );
    expect(importUsage(importSelection([ID], {}), { language: [`${ID}=es`] })[0]?.message).toBe(
      "--language is for --template only",
    );
    expect(importUsage(importSelection([ID], {}), { template: "t", language: [`${ID}=es`] })).toEqual([]);
    expect(importUsage(importSelection([], { all: true }), { all: true })).toEqual([]);
  });

  test("--check: the files that would change, named; none when none would", () => {
    expect(wouldChange([])).toEqual([]);
    expect(wouldChange([{ path: "a.yaml" }, { path: "b.yaml" }])[0]?.message).toBe(
      "2 files would change: a.yaml, b.yaml",
    );
    expect(templateWouldChange("t.yaml", false)).toEqual([]);
    expect(templateWouldChange("t.yaml", true)[0]?.message).toBe("1 file would change: t.yaml");
  });
});

describe("import --template's flags and reads", () => {
  test("a bad name and each bad --language are errors; good languages are kept by project id", () => {
    expect(templateUsage("gotv", [`${ID}=es`])).toEqual({
      languages: new Map([[ID, "es"]]),
      diagnostics: [],
    });
    const bad = templateUsage("Bad Name", ["nolang", `${ID}=es`, `${ID}=pt-BR`]);
    expect(bad.diagnostics.map((d) => d.message)).toEqual([
      '--template "Bad Name" is not a valid template name',
      "--language nolang: expected PROJECT_ID=TAG with a language tag such as en, es or pt-BR",
      `--language ${ID}=pt-BR: ${ID} is given twice`,
    ]);
  });

  test("a selected project another file describes is refused, naming the file", () => {
    expect(alreadyDescribed([ID], new Map())).toEqual([]);
    expect(
      alreadyDescribed([ID, "x"], new Map([[ID, { path: "a.yaml", address: "gotv" }]]))[0]?.message,
    ).toBe(`already described: ${ID} (a.yaml: gotv)`);
  });
});
