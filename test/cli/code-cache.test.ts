/**
 * The bin's code-cached bundles (cli/lifecycle/code-cache.ts; issue 36 for `validate`, issue 35
 * for `replies`): on the Node that built them, a run of a cached command compiles from
 * V8's cache made at build time, says so with CAMPAIGNCTL_DEBUG=1, and prints and exits exactly as
 * the same run of the sources does (in-process, `run` of cli/lifecycle/run.ts). A cache that is not
 * this bundle's (corrupt, truncated, for another bundle or another Node, rejected by V8, missing)
 * is not used and changes nothing else. The build makes the same caches byte for byte (remade once
 * per build: a pass after one that remade these very caches says so), and each
 * bundle holds its own commands' code only. `plan` and `apply` share one bundle, its cache made
 * from runs of `plan`: an apply against the embedded sandbox runs from it, with its cache.
 *
 * The process is the point only where the bin chooses how to load a run (a run of each cached
 * command, and the two ways a cache can fail: its header refused, V8 refusing it); which cache is
 * refused and why (cachedData), and which runs never go through a bundle (cachedRun), are read
 * in-process, from the built module.
 */
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import vm from "node:vm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { checkCliDocuments } from "../helpers/documents.js";
import { runCli } from "../helpers/run-cli.js";

type CodeCache = typeof import("../../cli/lifecycle/code-cache.js");

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const NOW = "2026-06-01T12:00:00Z";
/** The code-cached bundles (CACHED_BUNDLES) and the commands each runs, as the build made them. */
const BUNDLES: Readonly<Record<string, readonly string[]>> = {
  validate: ["validate"],
  replies: ["replies"],
  plan: ["plan", "apply"],
};
const COMMANDS = Object.values(BUNDLES).flat();
/** The bundle that runs `command`. */
const bundleOf = (command: string): string =>
  Object.keys(BUNDLES).find((bundle) => BUNDLES[bundle]?.includes(command)) ?? command;

/** Validate's arguments: a valid example, and a file with a YAML error and lint findings, in text and JSON. */
const CASES: readonly (readonly string[])[] = [
  ["validate", join(ROOT, "examples/gotv.yaml"), "--now", NOW],
  ["validate", join(ROOT, "examples/gotv.yaml"), "--json", "--now", NOW],
  ["validate", "broken.yaml", "--now", NOW],
  ["validate", "broken.yaml", "--json", "--now", NOW],
];
/** A run of each other cached command that needs no API: its help, through its bundle. */
const HELP_CASES: readonly (readonly string[])[] = [
  ["replies", "run", "--help"],
  ["plan", "--help"],
];
/**
 * A usage error of each cached command, through its bundle: the error boundary's path in a bundle
 * run from its cache (where a module it would import at that moment is not there to import).
 */
const USAGE_CASES: readonly (readonly string[])[] = [
  ["validate", "--sandbox"],
  ["plan", "--auto-approve"],
  ["replies", "run", "-once"],
];
/**
 * An apply against the embedded sandbox (the README's quick start, then its apply): the bundle's
 * code of the sandbox, the session and the plan (compiled from the cache, made by runs of `plan`),
 * and of apply's execution (compiled from the source).
 */
const SANDBOX_CASE: readonly string[] = ["apply", "--sandbox", "--auto-approve", "--json", "examples/"];

const BROKEN = `version: 1
organization: Riverside Democrats
projects:
  early-vote-push:
    id: 9a000000-0000-4000-8000-000000000004
    name: Early Vote Push
    channel: 10dlc
    brand: Riverside Democrats
    campaign: GOTV 2026
    phone_numbers:
      - "+15035550101"
    message: "Hi {{first_name|friend}}, early voting is open now"
    contact_lists:
      - Ward 3 Likely Voters
    schedule:
      at: "2026-03-08T02:30:00-08:00"
      timezone: America/Los_Angeles
    state: draft
  broken: [unclosed
`;

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The environment of the bin's runs, and of the in-process runs they are compared with: nothing
 * from this process's that could change an output (GITHUB_ACTIONS, COLUMNS, FORCE_COLOR...).
 */
const ENV = { NO_COLOR: "1", CAMPAIGNCTL_DEBUG: "1" } as const;

let dir = "";
/** A copy of dist/ (and package.json, node_modules linked) whose validate cache a test may spoil. */
let copy = "";
let codeCache: CodeCache;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "campaignctl-code-cache-"));
  writeFileSync(join(dir, "broken.yaml"), BROKEN);
  codeCache = (await import(pathToFileURL(join(ROOT, "dist/cli/lifecycle/code-cache.js")).href)) as CodeCache;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the build whose validate bundle and cache a test may spoil (the others left out). */
function buildCopy(): string {
  if (copy !== "") return copy;
  copy = join(dir, "package");
  const others = /\/code-cache\/(?!validate\.)[a-z-]+\.(js|cache)$/;
  cpSync(join(ROOT, "dist"), join(copy, "dist"), { recursive: true, filter: (p) => !others.test(p) });
  cpSync(join(ROOT, "package.json"), join(copy, "package.json"));
  // The bin needs the packages it does not bundle where Node looks for them.
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
  return copy;
}

function runBin(root: string, argv: readonly string[], cwd = dir): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(root, "dist/cli/main.js"), ...argv],
      { cwd, env: { PATH: process.env.PATH ?? "", ...ENV } },
      (error, stdout, stderr) => {
        const code = error && typeof error.code === "number" ? error.code : error ? 1 : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** The run of `argv` from the sources, in this process: what every way of loading it must print. */
async function reference(argv: readonly string[]): Promise<Run> {
  return runCli(argv, { cwd: dir, env: { ...ENV } });
}

/** The code-cache line of a run's stderr, and the rest. */
function split(run: Run, command: string): { cache: string | undefined; rest: Run } {
  const line = new RegExp(
    `^campaignctl: ${command} from .*/code-cache/${bundleOf(command)}\\.js, code cache (.+)\\n`,
    "m",
  ).exec(run.stderr);
  return {
    cache: line?.[1],
    rest: { ...run, stderr: line === null ? run.stderr : run.stderr.replace(line[0], "") },
  };
}

describe("a command from its code-cached bundle", () => {
  test("compiles from the cache and prints and exits as the sources do", async () => {
    const cases = [...CASES, ...HELP_CASES, ...USAGE_CASES];
    const [references, runs] = await Promise.all([
      Promise.all(cases.map(reference)),
      Promise.all(cases.map((argv) => runBin(ROOT, argv))),
    ]);
    expect(references.map((r) => r.code)).toEqual([0, 0, 1, 1, 0, 0, 1, 1, 1]);
    for (const usage of references.slice(6))
      expect(usage.stderr).toMatch(/^error\[cli\.usage\]: unknown option/);
    expect(references[2]?.stdout).toMatch(/broken\.yaml:\d+:\d+/);
    expect(references[4]?.stdout).toMatch(/^Usage: campaignctl replies run/);
    expect(references[5]?.stdout).toMatch(/^Usage: campaignctl plan/);
    for (const [i, argv] of cases.entries()) {
      const { cache, rest } = split(runs[i] as Run, argv[0] as string);
      expect(cache, argv.join(" ")).toBe("accepted");
      expect(rest, argv.join(" ")).toEqual(references[i]);
    }
  }, 60_000);

  test("an apply against the embedded sandbox runs from the plan bundle and its cache", async () => {
    // The same apply from the sources is what every test that spawns the bin's apply or plan
    // checks against (test/apply/sigkill.test.ts, test/cli/closed-stdout.test.ts...): here, that the
    // run went through the bundle, with its cache, to a whole apply whose documents are valid.
    const argv = SANDBOX_CASE;
    const cwd = join(dir, "apply");
    cpSync(join(ROOT, "examples"), join(cwd, "examples"), { recursive: true });
    const { cache, rest } = split(await runBin(ROOT, argv, cwd), "apply");
    expect(cache).toBe("accepted");
    expect(rest.code, rest.stderr).toBe(0);
    checkCliDocuments(argv, rest.stdout, cwd);
    expect(JSON.parse(rest.stdout)).toMatchObject({ summary: { done: 6, failed: 0 } });
  }, 60_000);

  test("another command, Node's own compile cache or NODE_DISABLE_COMPILE_CACHE=1: no bundle", () => {
    expect(codeCache.CACHED_BUNDLES).toEqual(BUNDLES);
    expect(codeCache.CACHED_COMMANDS).toEqual(COMMANDS);
    for (const argv of [["--version"], ["help", "replies"], ["status", "x.yaml"], ["webhooks", "listen"], []])
      expect(codeCache.cachedRun(argv, {}), argv.join(" ")).toBeUndefined();
    for (const command of COMMANDS)
      expect(codeCache.cachedRun([command, "--help"], { NODE_DISABLE_COMPILE_CACHE: "1" })).toBeUndefined();
  });
});

describe("a cache not made for this bundle and this Node", () => {
  const cacheFile = (root: string): string => join(root, "dist/cli/code-cache/validate.cache");
  const bundleFile = (root: string): string => join(root, "dist/cli/code-cache/validate.js");

  test("is refused by its header, for what it is", () => {
    const good = readFileSync(cacheFile(ROOT));
    const source = readFileSync(bundleFile(ROOT), "latin1");
    const headerEnd = good.indexOf(10) + 1;
    const data = codeCache.cachedData(source, good);
    // (Buffer.equals: a deep equality of 1.4 MB takes seconds.)
    expect(Buffer.isBuffer(data) && data.equals(good.subarray(headerEnd))).toBe(true);
    const spoiled: [string, string, Buffer | undefined, string][] = [
      ["a byte of the data flipped", source, flipped(good, headerEnd + 5000), "corrupt"],
      ["truncated", source, good.subarray(0, good.length >> 1), "corrupt"],
      ["random bytes", source, Buffer.alloc(4096, 7), "corrupt"],
      [
        "another Node's",
        source,
        Buffer.from(good.toString("latin1").replace(process.version, "v20.0.0"), "latin1"),
        "foreign",
      ],
      [
        "another bundle's (the bundle's id changed)",
        source.replace(/^\/\/ [0-9a-f]/, "// x"),
        good,
        "foreign",
      ],
      ["missing", source, undefined, "absent"],
    ];
    for (const [what, text, file, expected] of spoiled)
      expect(codeCache.cachedData(text, file), what).toBe(expected);
  });

  test("is refused by V8 when its header is right and the source another", () => {
    const data = codeCache.cachedData(
      readFileSync(bundleFile(ROOT), "latin1"),
      readFileSync(cacheFile(ROOT)),
    ) as Buffer;
    const other = `${readFileSync(bundleFile(ROOT), "latin1")}// another build\n`;
    // Compiled only (not run): V8 reads the cache when it compiles.
    expect(new vm.Script(other, { cachedData: data }).cachedDataRejected).toBe(true);
  });

  test("either way, the bin compiles the source and the run is the same", async () => {
    const root = buildCopy();
    const good = readFileSync(cacheFile(root));
    const source = readFileSync(bundleFile(root), "latin1");
    const argv = CASES[3] ?? [];
    const expected = await reference(argv);
    // Refused by its header (any of the ways above: the bin then compiles without it).
    writeFileSync(cacheFile(root), flipped(good, good.indexOf(10) + 5000));
    const corrupt = split(await runBin(root, argv), "validate");
    expect(corrupt.cache).toBe("corrupt");
    expect(corrupt.rest).toEqual(expected);
    // Refused by V8.
    writeFileSync(cacheFile(root), good);
    writeFileSync(bundleFile(root), `${source}// another build\n`);
    const rejected = split(await runBin(root, argv), "validate");
    expect(rejected.cache).toBe("rejected by V8");
    expect(rejected.rest).toEqual(expected);
  }, 60_000);
});

describe("the build", () => {
  test("makes the same caches, byte for byte", () => {
    // Remade once per build: a pass after one that remade these very caches from the same inputs
    // (remakeKey) does not make them again (3 Node processes, about 2.5 s of CPU and 10 s of wall).
    const key = remakeKey(ROOT);
    if (remadeBefore(key)) {
      console.info(`code caches remade byte for byte by an earlier pass of this build (${key.slice(0, 12)})`);
      return;
    }
    // Made as the build makes them: without the pass's NODE_OPTIONS (CI's second pass preloads a
    // shifted clock, which the build never runs with: its cache then differs from the build's).
    const { NODE_OPTIONS: _preload, ...env } = process.env;
    for (const bundle of Object.keys(BUNDLES)) {
      const out = join(dir, `${bundle}.cache`);
      execFileSync(process.execPath, ["--predictable", "scripts/make-code-cache.mjs", bundle, out], {
        cwd: ROOT,
        stdio: "pipe",
        env,
      });
      const built = readFileSync(join(ROOT, `dist/cli/code-cache/${bundle}.cache`));
      const remade = readFileSync(out);
      // Where they part, and how large each is, so a difference says what it is.
      expect(remade.equals(built), `${bundle}: ${cacheDifference(built, remade)}`).toBe(true);
    }
    recordRemade(key);
  }, 120_000);

  test("a remade verdict is kept for the very caches, bundles, build inputs and Node only", () => {
    // A copy of what the key reads: the stamp, the bundles and their caches.
    const root = join(dir, "remake-key");
    cpSync(join(ROOT, "dist/.build-stamp.json"), join(root, "dist/.build-stamp.json"));
    cpSync(join(ROOT, "dist/cli/code-cache"), join(root, "dist/cli/code-cache"), { recursive: true });
    const key = remakeKey(root);
    expect(remakeKey(root)).toBe(key);
    const cache = join(root, "dist/cli/code-cache/validate.cache");
    const good = readFileSync(cache);
    const stamp = join(root, "dist/.build-stamp.json");
    const built = readFileSync(stamp, "utf8");
    const changes: [string, () => void, () => void][] = [
      ["a byte of a cache", () => writeFileSync(cache, flipped(good, 100)), () => writeFileSync(cache, good)],
      [
        "a bundle",
        () =>
          writeFileSync(join(root, "dist/cli/code-cache/validate.js"), "// another build\n", { flag: "a" }),
        () =>
          cpSync(
            join(ROOT, "dist/cli/code-cache/validate.js"),
            join(root, "dist/cli/code-cache/validate.js"),
          ),
      ],
      [
        "the build's inputs (its stamp's fingerprint)",
        () => writeFileSync(stamp, built.replace(/"fingerprint":"[0-9a-f]/, '"fingerprint":"x')),
        () => writeFileSync(stamp, built),
      ],
    ];
    for (const [what, change, undo] of changes) {
      change();
      expect(remakeKey(root), what).not.toBe(key);
      undo();
      expect(remakeKey(root), `${what}, undone`).toBe(key);
    }
    expect(remakeKey(root, { ...process.versions, v8: "0" })).not.toBe(key);
  });

  test("each bundle holds its own commands' code only: no other command or registration", () => {
    const meta = JSON.parse(readFileSync(join(ROOT, "dist/bundle-meta.json"), "utf8")) as {
      outputs: Record<string, { inputs: Record<string, unknown> }>;
    };
    const inputsOf = (bundle: string): string[] =>
      Object.keys(meta.outputs[`dist/cli/code-cache/${bundle}.js`]?.inputs ?? {});
    // Its own implementations (and the webhook flags `replies run` shares with `webhooks listen`).
    const own: Record<string, string[]> = {
      validate: ["validate"],
      replies: ["replies-plan", "replies-run", "webhooks-flags"],
      plan: ["plan", "apply", "apply-run", "apply-saved"],
    };
    for (const [bundle, commands] of Object.entries(BUNDLES)) {
      const inputs = inputsOf(bundle);
      const implementations = inputs.filter((p) => /^dist\/cli\/commands\/[a-z-]+\.js$/.test(p));
      expect(implementations.sort(), bundle).toEqual(
        (own[bundle] ?? []).map((c) => `dist/cli/commands/${c}.js`).sort(),
      );
      expect(inputs.filter((p) => p.startsWith("dist/cli/register/")).sort(), bundle).toEqual(
        [...commands.map((c) => `dist/cli/register/${c}.js`), "dist/cli/register/help.js"].sort(),
      );
      expect(
        inputs.filter((p) => /node_modules\/(pg|vscode-languageserver)\//.test(p)),
        bundle,
      ).toEqual([]);
    }
    // undici is in the bundle of a command that talks to the API (a run requires none of its files).
    for (const bundle of ["replies", "plan"])
      expect(
        inputsOf(bundle).some((p) => p.startsWith("node_modules/undici/")),
        bundle,
      ).toBe(true);
    const validate = inputsOf("validate");
    const heavy =
      /^dist\/src\/(plan|import|sandbox|report\/gallery|api\/client)\/|^dist\/src\/apply\/(?!port\.js$)/;
    expect(validate.filter((p) => heavy.test(p))).toEqual([]);
    expect(validate.filter((p) => /node_modules\/(undici|pg|vscode-languageserver)\//.test(p))).toEqual([]);
    expect(validate.filter((p) => /node_modules\/ajv\/(?!dist\/runtime\/)/.test(p))).toEqual([]);
  });
});

/** Where a pass records the caches it remade byte for byte (the key of the last). */
const REMADE = join(ROOT, "node_modules/.cache/campaignctl-test-code-cache/remade");

/**
 * The key of a remake of `root`'s code caches: everything scripts/make-code-cache.mjs reads and
 * writes. The build's stamp (dist/.build-stamp.json, current before any test runs:
 * test/support/fresh-dist.ts) holds the fingerprint of every input of the build (cli/, src/,
 * scripts/ with make-code-cache.mjs, examples/ the runs read, the lockfile, Node, V8...) and the size
 * of every file it made; then each bundle and cache as they are, and this Node's versions.
 */
function remakeKey(root: string, versions: object = process.versions): string {
  const hash = createHash("sha256");
  hash.update(`${JSON.stringify(versions)}\0${readFileSync(join(root, "dist/.build-stamp.json"))}\0`);
  for (const bundle of Object.keys(BUNDLES))
    for (const file of [`${bundle}.js`, `${bundle}.cache`]) {
      hash.update(`${file}\0`);
      hash.update(readFileSync(join(root, "dist/cli/code-cache", file)));
      hash.update("\0");
    }
  return hash.digest("hex");
}

/** Whether a pass remade the caches of `key` byte for byte. */
function remadeBefore(key: string): boolean {
  return existsSync(REMADE) && readFileSync(REMADE, "utf8") === key;
}

/** Records that the caches of `key` were remade byte for byte (written whole, by rename). */
function recordRemade(key: string): void {
  mkdirSync(dirname(REMADE), { recursive: true });
  writeFileSync(`${REMADE}.${process.pid}`, key);
  renameSync(`${REMADE}.${process.pid}`, REMADE);
}

/** `bytes` with the byte at `at` inverted. */
function flipped(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[at] = (copy[at] ?? 0) ^ 0xff;
  return copy;
}

/** Where two caches first differ (byte offset) and their sizes; "" when they are the same. */
function cacheDifference(built: Buffer, remade: Buffer): string {
  if (built.equals(remade)) return "";
  let at = 0;
  while (at < built.length && at < remade.length && built[at] === remade[at]) at++;
  return `the remade cache (${remade.length} bytes) differs from the build's (${built.length} bytes) from byte ${at}`;
}
