/**
 * The kept `npm pack` tarball (./pack-cache.ts) is taken only for the very tree, npm and Node that
 * made it: any change to a file npm can pack (content, mode, name, a new or removed one, a link's
 * target), to npm's version or to Node's is another key; what is outside the pack's reach (`.git`,
 * `node_modules`, a file neither at the root nor under what the manifest names) is not. Kept packs are copied out whole, and the store keeps the newest three.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import {
  inScope,
  KEEP,
  keep,
  npmVersion,
  type PackEntry,
  packKey,
  packScope,
  storeOf,
  takeKept,
} from "./pack-cache.js";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** The pid of a process that has ended (a child that ran and was reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  if (child.pid === undefined) throw new Error("no child started");
  return child.pid;
}

function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A small package tree: package.json, a script, docs, and what npm never packs. */
function tree(): string {
  const root = temp("campaignctl-pack-key-");
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "p", version: "1.0.0", files: ["docs"] }));
  mkdirSync(join(root, "docs", "deep"), { recursive: true });
  writeFileSync(join(root, "docs", "a.md"), "a\n");
  writeFileSync(join(root, "docs", "deep", "b.md"), "b\n");
  writeFileSync(join(root, "docs", "run.sh"), "echo\n", { mode: 0o644 });
  mkdirSync(join(root, "node_modules", "dep"), { recursive: true });
  writeFileSync(join(root, "node_modules", "dep", "index.js"), "1\n");
  mkdirSync(join(root, ".git"));
  writeFileSync(join(root, ".git", "HEAD"), "ref: refs/heads/main\n");
  return root;
}

describe("packKey", () => {
  test("is the same for the same tree, npm and Node; another for any change npm could pack", () => {
    const root = tree();
    const key = packKey(root, "11.0.0", "20.0.0");
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(packKey(root, "11.0.0", "20.0.0")).toBe(key);
    expect(packKey(root, "11.0.1", "20.0.0")).not.toBe(key);
    expect(packKey(root, "11.0.0", "20.0.1")).not.toBe(key);
    const changes: [string, () => void, () => void][] = [
      [
        "a file's content",
        () => writeFileSync(join(root, "docs", "a.md"), "A\n"),
        () => writeFileSync(join(root, "docs", "a.md"), "a\n"),
      ],
      [
        "a file's mode",
        () => chmodSync(join(root, "docs", "run.sh"), 0o755),
        () => chmodSync(join(root, "docs", "run.sh"), 0o644),
      ],
      [
        "a new file deep down",
        () => writeFileSync(join(root, "docs", "deep", "c.md"), ""),
        () => rmSync(join(root, "docs", "deep", "c.md")),
      ],
      [
        "a new empty directory",
        () => mkdirSync(join(root, "docs", "empty")),
        () => rmSync(join(root, "docs", "empty"), { recursive: true }),
      ],
      [
        "a removed file",
        () => rmSync(join(root, "docs", "deep", "b.md")),
        () => writeFileSync(join(root, "docs", "deep", "b.md"), "b\n"),
      ],
      [
        "a link",
        () => symlinkSync("a.md", join(root, "docs", "l.md")),
        () => rmSync(join(root, "docs", "l.md")),
      ],
      [
        "the manifest",
        () => writeFileSync(join(root, "package.json"), "{}"),
        () =>
          writeFileSync(
            join(root, "package.json"),
            JSON.stringify({ name: "p", version: "1.0.0", files: ["docs"] }),
          ),
      ],
    ];
    for (const [what, change, undo] of changes) {
      change();
      expect(packKey(root, "11.0.0", "20.0.0"), what).not.toBe(key);
      undo();
      expect(packKey(root, "11.0.0", "20.0.0"), `${what}, undone`).toBe(key);
    }
    // A link's target, not only its name.
    symlinkSync("a.md", join(root, "docs", "l.md"));
    const linked = packKey(root, "11.0.0", "20.0.0");
    rmSync(join(root, "docs", "l.md"));
    symlinkSync("deep/b.md", join(root, "docs", "l.md"));
    expect(packKey(root, "11.0.0", "20.0.0")).not.toBe(linked);
    rmSync(join(root, "docs", "l.md"));
    // What npm never packs from here: the repository and the dependencies.
    writeFileSync(join(root, ".git", "HEAD"), "ref: refs/heads/other\n");
    writeFileSync(join(root, "node_modules", "dep", "index.js"), "2\n");
    expect(packKey(root, "11.0.0", "20.0.0")).toBe(key);
  });

  test("covers the root's own files and the directories the manifest names; not the rest", () => {
    const root = tree();
    mkdirSync(join(root, "test"));
    writeFileSync(join(root, "test", "t.js"), "1\n");
    const key = packKey(root, "11.0.0", "20.0.0");
    // What npm cannot pack from here: a directory no path of the manifest starts with, a root file
    // that is not npm's own (README, LICENSE...).
    writeFileSync(join(root, "test", "t.js"), "2\n");
    writeFileSync(join(root, "test", "u.js"), "");
    writeFileSync(join(root, "vitest.local.config.ts"), "");
    expect(packKey(root, "11.0.0", "20.0.0")).toBe(key);
    // What it can: the root's README, LICENSE, NOTICE... and the named directories, in any case.
    for (const path of ["NOTICE", "license", "README.md", "Docs/c.md", "DOCS"]) {
      if (path === "DOCS") mkdirSync(join(root, path));
      else {
        mkdirSync(join(root, path, ".."), { recursive: true });
        writeFileSync(join(root, path), "n\n");
      }
      expect(packKey(root, "11.0.0", "20.0.0"), path).not.toBe(key);
      rmSync(join(root, path.split("/")[0] as string), { recursive: true });
      expect(packKey(root, "11.0.0", "20.0.0"), `${path}, removed`).toBe(key);
    }
    // `main`, `bin` and deeper `files` paths, and a name without a slash in a directory npm walks
    // (one of those paths goes through it): npm packs dist/changelog.md for `CHANGELOG.md`, not
    // dist/x/changelog.md, lib/other.js or bin/q (npm pack --dry-run, npm 11.19).
    const manifest = {
      name: "p",
      version: "1.0.0",
      files: ["docs", "dist/cli", "CHANGELOG.md"],
      main: "lib/i.js",
      bin: { p: "bin/p" },
    };
    writeFileSync(join(root, "package.json"), JSON.stringify(manifest));
    const reached = [
      "lib/i.js",
      "bin/p",
      "dist/cli/m.js",
      "dist/cli/deep/n.js",
      "dist/changelog.md",
      "CHANGELOG.md",
    ];
    const outside = [
      "lib/other.js",
      "bin/q",
      "dist/x/changelog.md",
      "dist/bundle-meta.json",
      "src/docs/a.md",
    ];
    for (const file of [...reached, ...outside]) mkdirSync(join(root, file, ".."), { recursive: true });
    const named = packKey(root, "11.0.0", "20.0.0");
    for (const file of [...reached, ...outside]) {
      writeFileSync(join(root, file), "x\n");
      expect(packKey(root, "11.0.0", "20.0.0") === named, file).toBe(outside.includes(file));
      rmSync(join(root, file));
      expect(packKey(root, "11.0.0", "20.0.0"), `${file}, removed`).toBe(named);
    }
  });

  test("the reach of a manifest: its plain names and paths; every entry for any other", () => {
    const manifest = {
      files: ["docs", "./dist/cli/", "!dist/**/*.map", "bench/README.md", "Action.yml"],
      bin: "dist/cli/main.js",
    };
    expect(packScope(manifest)).toEqual({
      names: new Set(["docs", "action.yml"]),
      paths: ["dist/cli", "bench/readme.md", "dist/cli/main.js"],
    });
    for (const other of [
      {},
      { files: "docs" },
      { files: ["*.md"] },
      { files: ["{docs,lib}"] },
      { files: ["dist/**/*.js"] },
      { files: ["**/x"] },
      { files: ["../elsewhere"] },
      { files: ["/etc"] },
      { files: ["."] },
      { files: [3] },
      { files: ["docs"], man: "man/p.1" },
      { files: ["docs"], directories: { man: "man" } },
    ])
      expect(packScope(other), JSON.stringify(other)).toBeUndefined();
    // Every entry then: a change anywhere but .git and node_modules is another key.
    const root = tree();
    mkdirSync(join(root, "test"));
    writeFileSync(join(root, "test", "t.js"), "1\n");
    writeFileSync(
      join(root, "package.json"),
      JSON.stringify({ name: "p", version: "1.0.0", files: ["*.md"] }),
    );
    const key = packKey(root, "11.0.0", "20.0.0");
    writeFileSync(join(root, "test", "t.js"), "2\n");
    expect(packKey(root, "11.0.0", "20.0.0")).not.toBe(key);
    expect(inScope(undefined, "test/t.js")).toBe(true);
    expect(inScope(undefined, "node_modules/dep/index.js")).toBe(false);
  });

  test("keeps nothing without npm's version, or for a package that bundles dependencies", () => {
    const root = tree();
    expect(packKey(root, undefined)).toBeUndefined();
    writeFileSync(join(root, "package.json"), JSON.stringify({ name: "p", bundleDependencies: ["dep"] }));
    expect(packKey(root, "11.0.0")).toBeUndefined();
    writeFileSync(join(root, "package.json"), JSON.stringify({ name: "p", bundledDependencies: true }));
    expect(packKey(root, "11.0.0")).toBeUndefined();
  });
});

describe("npmVersion", () => {
  test("reads the version of the npm first on PATH from its package; none without one", () => {
    const base = temp("campaignctl-npm-path-");
    const pkg = join(base, "lib", "npm");
    mkdirSync(join(pkg, "bin"), { recursive: true });
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "npm", version: "9.8.7" }));
    writeFileSync(join(pkg, "bin", "npm-cli.js"), "", { mode: 0o755 });
    mkdirSync(join(base, "bin"));
    symlinkSync(join(pkg, "bin", "npm-cli.js"), join(base, "bin", "npm"));
    const empty = temp("campaignctl-no-npm-");
    expect(npmVersion([empty, join(base, "bin")].join(delimiter))).toBe("9.8.7");
    expect(npmVersion(empty)).toBeUndefined();
    // The real one, which the suite's `npm pack` runs.
    expect(npmVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe("the store", () => {
  /** What npm says of a tarball `name`.tgz holding `bytes`. */
  const entry = (name: string, bytes: string): PackEntry => ({
    filename: `${name}.tgz`,
    integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
    files: [{ path: "package.json" }],
  });

  test("gives back a kept pack, copied whole, and nothing for a key it does not hold", () => {
    const root = tree();
    const packedIn = temp("campaignctl-packed-");
    writeFileSync(join(packedIn, "p-1.0.0.tgz"), "the tarball's bytes");
    const key = "a".repeat(64);
    keep(root, key, packedIn, entry("p-1.0.0", "the tarball's bytes"));
    const out = temp("campaignctl-taken-");
    expect(takeKept(root, key, out)).toEqual(entry("p-1.0.0", "the tarball's bytes"));
    expect(readFileSync(join(out, "p-1.0.0.tgz"), "utf8")).toBe("the tarball's bytes");
    expect(takeKept(root, "b".repeat(64), temp("campaignctl-taken-"))).toBeUndefined();
    // No temporary directory is left behind.
    expect(readdirSync(storeOf(root))).toEqual([key]);
    // A kept tarball whose bytes are not the ones npm described is not given, and is dropped.
    writeFileSync(join(storeOf(root), key, "p-1.0.0.tgz"), "other bytes");
    const again = temp("campaignctl-taken-");
    expect(takeKept(root, key, again)).toBeUndefined();
    expect(readdirSync(again)).toEqual([]);
    expect(readdirSync(storeOf(root))).toEqual([]);
  });

  test(`keeps the newest ${KEEP} keys`, () => {
    const root = tree();
    const packedIn = temp("campaignctl-packed-");
    writeFileSync(join(packedIn, "x.tgz"), "x");
    const keys = ["1", "2", "3", "4", "5"].map((c) => c.repeat(64));
    keys.forEach((key, i) => {
      keep(root, key, packedIn, entry("x", "x"));
      // Written a minute apart (the store orders its keys by the time each was written).
      const at = new Date(Date.UTC(2000, 0, 1, 0, i));
      utimesSync(join(storeOf(root), key), at, at);
    });
    // A half-made copy of a killed run (no such process) goes; one of a live run stays.
    const dead = join(storeOf(root), `${"d".repeat(64)}.${deadPid()}.tmp`);
    const live = join(storeOf(root), `${"e".repeat(64)}.${process.pid}.tmp`);
    mkdirSync(dead);
    mkdirSync(live);
    keep(root, keys[4] as string, packedIn, entry("x", "x"));
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
    rmSync(live, { recursive: true });
    expect(readdirSync(storeOf(root)).sort()).toEqual(keys.slice(5 - KEEP).sort());
    expect(existsSync(join(storeOf(root), keys[0] as string))).toBe(false);
  });
});
