/**
 * The VS Code client of issue 27 (editors/vscode) is a package of its own: its dependencies are
 * pinned exactly, recorded in its own lockfile, absent from the tool's runtime dependencies, and
 * CI installs, builds and type-checks it (.ci/run). Its entry point starts `campaignctl lsp`.
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";

const read = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;

describe("editors/vscode", () => {
  const extension = read("editors/vscode/package.json") as {
    main: string;
    activationEvents: string[];
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };

  test("pins exact versions, locked in its own lockfile, none of them the tool's runtime dependencies", () => {
    const all = { ...extension.dependencies, ...extension.devDependencies };
    expect(Object.keys(all).sort()).toEqual([
      "@types/node",
      "@types/vscode",
      "typescript",
      "vscode-languageclient",
    ]);
    for (const [name, version] of Object.entries(all)) expect(version, name).toMatch(/^\d+\.\d+\.\d+$/);
    const lock = read("editors/vscode/package-lock.json") as {
      packages: Record<string, { version?: string }>;
    };
    for (const [name, version] of Object.entries(all))
      expect(lock.packages[`node_modules/${name}`]?.version, name).toBe(version);
    const root = read("package.json") as { dependencies: Record<string, string> };
    expect(Object.keys(root.dependencies)).not.toContain("vscode-languageclient");
  });

  test("CI installs, builds and type-checks it; it starts `campaignctl lsp --stdio` for YAML files", () => {
    expect(readFileSync(".ci/run", "utf8")).toContain(
      "(cd editors/vscode && npm ci --no-audit --no-fund && npm run build)",
    );
    expect(extension.main).toBe("./out/extension.js");
    expect(extension.activationEvents).toEqual(["onLanguage:yaml"]);
    const source = readFileSync("editors/vscode/src/extension.ts", "utf8");
    expect(source).toContain('"lsp", "--stdio"');
    expect(source).toContain('language: "yaml"');
  });
});
