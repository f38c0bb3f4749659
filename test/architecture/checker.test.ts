/**
 * The architecture checker (checker.ts) on synthetic trees, and on the real tree with one mutation
 * each: every kind of break the layout forbids is found, and what it allows is not. The mutations
 * of issue 33's acceptance (a circle inside one folder, a circle in cli/, `node:fs` in
 * src/plan/judge.ts) each fail the check of the real tree (imports.test.ts).
 */
import { describe, expect, test } from "vitest";
import { type ArchitectureRules, checkArchitecture, circles, type Finding, importEdges } from "./checker.js";
import { RULES } from "./rules.js";
import { readTree } from "./tree.js";

const rules: ArchitectureRules = {
  layers: [["cli"], ["plan"], ["campaign", "api"], ["text"]],
  sameLayer: [{ from: "campaign", to: "api", why: "a test allowance" }],
  only: { api: ["text"] },
  allowedUp: [],
  ioPlaces: [{ place: "src/api/", why: "the client" }],
  pureNodeModules: [
    { module: "path", why: "strings" },
    { module: "crypto", why: "hashes" },
  ],
  allowedIo: [],
};

const tree = (files: Record<string, string>) => new Map(Object.entries(files));

/** A tree that keeps every rule: cli -> plan -> campaign -> text, plan -> api, IO in cli/ and api/. */
const CLEAN: Record<string, string> = {
  "cli/main.ts": 'import { run } from "./program.js";\nimport { readFileSync } from "node:fs";\nrun();',
  "cli/program.ts":
    'import { judge } from "../src/plan/judge.js";\nexport async function run() { await import("./commands/plan.js"); }',
  "cli/commands/plan.ts": 'import type { Plan } from "../../src/plan/types.js";\nexport const x = 1;',
  "src/plan/judge.ts":
    'import type { Plan } from "./types.js";\nimport { load } from "../campaign/load.js";\nimport { posix } from "node:path";\nimport { client } from "../api/index.js";',
  "src/plan/types.ts": 'import type { Spec } from "../campaign/load.js";\nexport interface Plan {}',
  "src/campaign/load.ts":
    'import { createHash } from "node:crypto";\nimport { words } from "../text/words.js";\nimport { client } from "../api/index.js";',
  "src/api/index.ts":
    'import { request } from "node:http";\nimport { setTimeout } from "node:timers/promises";\nimport { words } from "../text/words.js";\nimport { fetch } from "undici";',
  "src/text/words.ts": "export const words = [];",
};

const check = (files: Record<string, string>, given: ArchitectureRules = rules) =>
  checkArchitecture(tree(files), given);
const texts = (findings: readonly Finding[]) => findings.map((f) => `${f.kind}: ${f.text}`);

describe("the checker on synthetic trees", () => {
  test("a tree that keeps the rules gives nothing; it reads static, type-only and lazy imports", () => {
    expect(texts(check(CLEAN))).toEqual([]);
    const edges = importEdges(tree(CLEAN));
    expect(edges.find((e) => e.file === "cli/program.ts" && e.specifier === "./commands/plan.js")?.to).toBe(
      "cli/commands/plan.ts",
    );
    expect(edges.find((e) => e.file === "src/plan/judge.ts" && e.specifier === "./types.js")?.to).toBe(
      "src/plan/types.ts",
    );
    expect(edges.find((e) => e.specifier === "node:timers/promises")?.node).toBe("timers/promises");
    expect(edges.find((e) => e.specifier === "undici")).toMatchObject({ to: null, node: null });
  });

  test("a circle inside one folder of src/, by type-only imports too", () => {
    const found = check({
      ...CLEAN,
      "src/plan/types.ts": `${CLEAN["src/plan/types.ts"]}\nimport type { J } from "./judge.js";`,
    });
    expect(texts(found)).toEqual([
      "circle: circle: src/plan/judge.ts -> src/plan/types.ts -> src/plan/judge.ts",
    ]);
  });

  test("a circle in cli/, through a lazy import() (a registration and its command)", () => {
    const found = check({
      ...CLEAN,
      "cli/commands/plan.ts": `${CLEAN["cli/commands/plan.ts"]}\nimport { DEFAULT } from "../program.js";`,
    });
    expect(texts(found)).toEqual([
      "circle: circle: cli/commands/plan.ts -> cli/program.ts -> cli/commands/plan.ts",
    ]);
  });

  test("a circle across folders is a circle and an import against the layers", () => {
    const found = check({ ...CLEAN, "src/text/words.ts": 'import { load } from "../campaign/load.js";' });
    expect(texts(found)).toEqual([
      "circle: circle: src/api/index.ts -> src/text/words.ts -> src/campaign/load.ts -> src/api/index.ts",
      "layer: src/text/words.ts:1 imports ../campaign/load.js (text -> campaign): a folder of a higher layer",
    ]);
  });

  test("a file importing itself, and a long loop, are circles; every file of a larger one is named", () => {
    expect(circles(importEdges(tree({ "cli/a.ts": 'import "./a.js";' })))).toEqual([
      ["cli/a.ts", "cli/a.ts"],
    ]);
    const loop = circles(
      importEdges(
        tree({
          "cli/a.ts": 'import "./b.js";',
          "cli/b.ts": 'import "./c.js";\nimport "./a.js";',
          "cli/c.ts": 'import "./a.js";',
        }),
      ),
    );
    expect(loop).toEqual([["cli/a.ts", "cli/b.ts", "cli/a.ts", "(and 1 more files: cli/c.ts)"]]);
  });

  test("node:fs in src/plan/judge.ts is IO in a pure place; so are fs without node:, its subpaths and a type import", () => {
    const judge = CLEAN["src/plan/judge.ts"];
    expect(
      texts(check({ ...CLEAN, "src/plan/judge.ts": `import { readFileSync } from "node:fs";\n${judge}` })),
    ).toEqual([
      "io: src/plan/judge.ts:1 imports node:fs: IO in a pure place (pass it in through a port, or move the code to cli/adapters/)",
    ]);
    for (const specifier of [
      "fs",
      "node:fs/promises",
      "node:os",
      "node:timers/promises",
      "node:child_process",
    ]) {
      const found = check({
        ...CLEAN,
        "src/plan/judge.ts": `import type { X } from "${specifier}";\n${judge}`,
      });
      expect(
        found.map((f) => f.kind),
        specifier,
      ).toEqual(["io"]);
    }
  });

  test("IO is allowed in cli/ and in an IO place, and a pure module (path, crypto) anywhere", () => {
    const found = check({
      ...CLEAN,
      "cli/x.ts": 'import { spawn } from "node:child_process";',
      "src/api/more.ts": 'import { readFile } from "node:fs/promises";',
      "src/text/hash.ts": 'import { createHash } from "crypto";\nimport { join } from "node:path";',
    });
    expect(texts(found)).toEqual([]);
  });

  test("an allowance of IO lets one file import one module, and fails once nothing needs it", () => {
    const withFs = {
      ...CLEAN,
      "src/plan/judge.ts": `import { readFileSync } from "node:fs";\n${CLEAN["src/plan/judge.ts"]}`,
    };
    const allowing = { ...rules, allowedIo: [{ file: "src/plan/judge.ts", module: "fs", why: "debt" }] };
    expect(texts(check(withFs, allowing))).toEqual([]);
    expect(texts(check(CLEAN, allowing))).toEqual([
      "unused: allowed IO, no longer needed: src/plan/judge.ts -> node:fs",
    ]);
  });

  test("imports against the layers: up, same layer without an allowance, outside `only`; an allowance up lets one file through", () => {
    const broken = {
      ...CLEAN,
      "src/campaign/up.ts": 'import type { Plan } from "../plan/types.js";',
      "src/api/side.ts": 'import { load } from "../campaign/load.js";',
      "src/plan/up.ts": 'import { run } from "../../cli/program.js";',
    };
    expect(texts(check(broken))).toEqual([
      "layer: src/api/side.ts:1 imports ../campaign/load.js (api -> campaign): api may import only text",
      "layer: src/campaign/up.ts:1 imports ../plan/types.js (campaign -> plan): a folder of a higher layer",
      "layer: src/plan/up.ts:1 imports ../../cli/program.js (plan -> cli): a folder of a higher layer",
    ]);
    const allowing = { ...rules, allowedUp: [{ file: "src/campaign/up.ts", to: "plan", why: "debt" }] };
    expect(check(broken, allowing).map((f) => f.text.split(":")[0])).toEqual([
      "src/api/side.ts",
      "src/plan/up.ts",
    ]);
    expect(texts(check(CLEAN, allowing))).toEqual([
      "unused: allowed up, no longer needed: src/campaign/up.ts -> plan",
    ]);
  });

  test("an allowance between folders of one layer that nothing needs is found", () => {
    const found = check({ ...CLEAN, "src/campaign/load.ts": 'import { words } from "../text/words.js";' });
    expect(texts(found)).toEqual(["unused: allowed same layer, no longer needed: campaign -> api"]);
  });

  test("a folder without a layer, and a relative import that names no file, are found", () => {
    const found = check({ ...CLEAN, "src/extra/a.ts": 'import { b } from "./missing.js";' });
    expect(texts(found)).toEqual([
      "no-layer: extra has no layer in the rules (nor in design.md)",
      "unresolved: src/extra/a.ts:1 imports ./missing.js, which is no file of the tree",
    ]);
  });
});

describe("the real tree with one mutation each fails the check", () => {
  const real = readTree();
  const mutated = (file: string, edit: (text: string) => string) => {
    const text = real.get(file);
    if (text === undefined) throw new Error(`${file} is not in the tree`);
    return texts(checkArchitecture(new Map([...real, [file, edit(text)]]), RULES));
  };

  test("as it stands, nothing is found", () => {
    expect(texts(checkArchitecture(real, RULES))).toEqual([]);
  });

  test("a circle inside one folder: src/plan/summary.ts importing organizations.ts, which imports it", () => {
    expect(
      mutated(
        "src/plan/summary.ts",
        (t) => `${t}\nimport type { organizationSections } from "./organizations.js";\n`,
      ),
    ).toEqual([
      "circle: circle: src/plan/organizations.ts -> src/plan/summary.ts -> src/plan/organizations.ts",
    ]);
  });

  test("a circle in cli/: a command importing a constant from its registration", () => {
    const found = mutated(
      "cli/commands/status.ts",
      (t) => `${t}\nimport { registerStatus } from "../register/status.js";\n`,
    );
    expect(found).toEqual([
      "circle: circle: cli/commands/status.ts -> cli/register/status.ts -> cli/commands/status.ts",
    ]);
  });

  test("node:fs in src/plan/judge.ts", () => {
    expect(mutated("src/plan/judge.ts", (t) => `import { readFileSync } from "node:fs";\n${t}`)).toEqual([
      "io: src/plan/judge.ts:1 imports node:fs: IO in a pure place (pass it in through a port, or move the code to cli/adapters/)",
    ]);
  });
});
