/**
 * A build whose inputs have not changed is skipped (scripts/build-stamp.mjs, scripts/build.mjs):
 * `npm test` builds first, right after `npm ci` built the same tree. Every change that can make
 * dist/ differ builds again: a source edited, added, removed or renamed, the lockfile, another
 * runtime, an output removed or cut, and a type-checked build asked for after one without the
 * check. The real tree's stamp serves the suite (test/support/fresh-dist.ts built or found it).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { fingerprint, makeStamp, STAMP, staleReason } from "../../scripts/build-stamp.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** A tree with one file of each kind of input and output, built (its stamp written). */
function builtTree(checked = true): string {
  const root = mkdtempSync(join(tmpdir(), "campaignctl-stamp-"));
  const files: Record<string, string> = {
    "cli/main.ts": "export {};\n",
    "src/a.ts": "export const a = 1;\n",
    "src/campaign/generated/validate.ts": "export const v = 1;\n",
    "schemas/x.schema.json": "{}\n",
    "scripts/after-build.mjs": "\n",
    "examples/campaign.yaml": "projects: {}\n",
    "package.json": "{}\n",
    "package-lock.json": "{}\n",
    "tsconfig.json": "{}\n",
    "tsconfig.build.json": "{}\n",
    "dist/cli/main.js": "export {};\n",
    "dist/src/a.js": "export const a = 1;\n",
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  writeFileSync(join(root, STAMP), JSON.stringify(makeStamp(root, checked)));
  return root;
}

describe("the build stamp", () => {
  test("serves while nothing changed, for a build with or without the type check", () => {
    const root = builtTree();
    expect(staleReason(root, true)).toBeUndefined();
    expect(staleReason(root, false)).toBeUndefined();
    rmSync(root, { recursive: true });
  });

  test.each([
    ["a source edited", (r: string) => writeFileSync(join(r, "src/a.ts"), "export const a = 2;\n")],
    ["a source added", (r: string) => writeFileSync(join(r, "cli/extra.ts"), "export {};\n")],
    ["a source removed", (r: string) => rmSync(join(r, "src/a.ts"))],
    ["a source renamed", (r: string) => renameSync(join(r, "src/a.ts"), join(r, "src/b.ts"))],
    ["a schema edited", (r: string) => writeFileSync(join(r, "schemas/x.schema.json"), "{ }\n")],
    ["a build script edited", (r: string) => writeFileSync(join(r, "scripts/after-build.mjs"), "//\n")],
    ["an example edited", (r: string) => writeFileSync(join(r, "examples/campaign.yaml"), "projects: []\n")],
    ["the lockfile changed", (r: string) => writeFileSync(join(r, "package-lock.json"), '{"v":2}\n')],
  ])("builds again when %s", (_what, change) => {
    const root = builtTree();
    change(root);
    expect(staleReason(root, false)).toBe("sources, lockfile or Node changed since the last build");
    rmSync(root, { recursive: true });
  });

  test("serves still when the tool's own state beside the examples changed (a plan of examples/ writes it)", () => {
    const root = builtTree();
    mkdirSync(join(root, "examples/.campaignctl"));
    writeFileSync(join(root, "examples/.campaignctl/snapshot.json"), "{}\n");
    expect(staleReason(root, false)).toBeUndefined();
    rmSync(root, { recursive: true });
  });

  test("builds again when an output is missing or cut, generated sources included", () => {
    const root = builtTree();
    rmSync(join(root, "dist/cli/main.js"));
    expect(staleReason(root, false)).toBe("dist/cli/main.js is missing");
    const again = builtTree();
    writeFileSync(join(again, "src/campaign/generated/validate.ts"), "");
    expect(staleReason(again, false)).toBe("src/campaign/generated/validate.ts changed since the build");
    rmSync(join(again, "dist"), { recursive: true });
    expect(staleReason(again, false)).toBe("no build recorded in dist/");
    rmSync(root, { recursive: true });
    rmSync(again, { recursive: true });
  });

  test("a build without the type check does not serve a type-checked one", () => {
    const root = builtTree(false);
    expect(staleReason(root, false)).toBeUndefined();
    expect(staleReason(root, true)).toBe("the last build did not type-check");
    rmSync(root, { recursive: true });
  });

  test("another Node, V8, ICU or tz version is another fingerprint", () => {
    const root = builtTree();
    expect(fingerprint(root)).toBe(fingerprint(root, process.versions));
    for (const key of ["node", "v8", "icu", "tz"])
      expect(fingerprint(root, { ...process.versions, [key]: "0.0.0" }), key).not.toBe(fingerprint(root));
    rmSync(root, { recursive: true });
  });
});

describe("scripts/build.mjs on this tree", () => {
  test("finds dist/ current and leaves it as it is; an unknown option is a usage error", () => {
    expect(staleReason(ROOT, false)).toBeUndefined();
    const before = statSync(join(ROOT, STAMP)).mtimeMs;
    const run = spawnSync(process.execPath, ["scripts/build.mjs", "--no-check"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(run.stderr).toBe(
      "build: dist/ is current (same sources, lockfile and Node as its build): nothing to do\n",
    );
    expect(run.status).toBe(0);
    expect(statSync(join(ROOT, STAMP)).mtimeMs).toBe(before);
    const typo = spawnSync(process.execPath, ["scripts/build.mjs", "-force"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(typo.stderr).toBe("build: unknown option -force (known: --force, --no-check)\n");
    expect(typo.status).toBe(2);
  });
});
