/**
 * A complete package: what `npm pack` publishes (offline: npm can reach no registry; packed once a
 * pass and shared with test/ci/setup-action.test.ts, test/ci/packed.ts) holds docs/, and every relative link in README.md and docs/, and every page that
 * `campaignctl init` names (in its next steps and the files it writes), resolves within it. So the
 * links work from an installed package, not only from a clone. scripts/install-check.sh follows the
 * same links in a real install.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { linkTargets } from "../helpers/markdown-links.js";
import { runCli } from "../helpers/run-cli.js";
import { inScope, packScope } from "./pack-cache.js";
import { packedPackage } from "./packed.js";

let packed = new Set<string>();

beforeAll(async () => {
  packed = new Set((await packedPackage()).files);
}, 200_000);

/** Whether `path` (relative to the package root, POSIX) is a packed file or a directory of some. */
function inPackage(path: string): boolean {
  const clean = posix.normalize(path).replace(/\/$/, "");
  return packed.has(clean) || [...packed].some((f) => f.startsWith(`${clean}/`));
}

/** The relative links of a packed Markdown file that do not resolve within the package. */
function deadLinks(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return linkTargets(text)
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t))
    .map((t) => decodeURIComponent(t.split("#")[0] ?? ""))
    .filter((path) => path !== "")
    .filter((path) => !inPackage(posix.join(posix.dirname(file), path)))
    .map((path) => `${file}: ${path}`);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe("the npm package", () => {
  test("holds every page of docs/, the README, the LICENSE and the CLI", () => {
    const docs = readdirSync("docs").filter((f) => f.endsWith(".md"));
    expect(docs.length).toBeGreaterThan(5);
    for (const page of docs) expect(packed.has(`docs/${page}`), `docs/${page}`).toBe(true);
    for (const file of ["README.md", "LICENSE", "package.json", "dist/cli/main.js"])
      expect(packed.has(file), file).toBe(true);
  });

  test("every packed file is within the reach of the kept pack's key (test/ci/pack-cache.ts)", () => {
    // The key hashes only what packScope says npm can pack: a packed file outside it could change
    // without changing the key, and a kept tarball would then be an old one.
    const scope = packScope(JSON.parse(readFileSync("package.json", "utf8")) as Record<string, unknown>);
    expect(scope).toBeDefined();
    expect([...packed].filter((file) => !inScope(scope, file))).toEqual([]);
    expect(packed.size).toBeGreaterThan(100);
  });

  test("every relative link in README.md and docs/ resolves within the package", () => {
    const markdown = ["README.md", ...[...packed].filter((f) => /^docs\/.*\.md$/.test(f))];
    expect(markdown.flatMap(deadLinks)).toEqual([]);
  });

  test("every page campaignctl init names resolves within the package", async () => {
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-init-links-"));
    const run = await runCli(["init", dir]);
    expect(run.code, run.stderr).toBe(0);
    const texts = [run.stdout, ...filesUnder(dir).map((f) => readFileSync(f, "utf8"))].join("\n");
    const named = [...new Set([...texts.matchAll(/\bdocs\/[\w./-]+?\.md\b/g)].map((m) => m[0]))];
    // The next steps do name pages (the policy and the CI pipelines).
    expect(run.stdout).toMatch(/docs\/policy\.md/);
    expect(named.length).toBeGreaterThan(1);
    expect(named.filter((page) => !packed.has(page))).toEqual([]);
  });

  test("the checker finds a dead link", () => {
    const saved = packed;
    packed = new Set(["README.md"]);
    try {
      expect(deadLinks("README.md").length).toBeGreaterThan(0);
    } finally {
      packed = saved;
    }
  });
});
