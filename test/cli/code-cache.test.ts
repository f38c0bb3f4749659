/**
 * The bin's code-cached bundle of `validate` (cli/lifecycle/code-cache.ts, issue 36): on the Node
 * that built it, a run of `validate` compiles from V8's cache made at build time, and says so with
 * CAMPAIGNCTL_DEBUG=1; it prints and exits exactly as the same run imported as ES modules
 * (NODE_DISABLE_COMPILE_CACHE=1). A cache that is not this bundle's (corrupt, truncated, for another
 * bundle or another Node, rejected by V8, missing) is not used and changes nothing else. The build
 * makes the same cache byte for byte, and the bundle holds validate's code only.
 */
import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const NOW = "2026-06-01T12:00:00Z";

/** Validate's arguments: a valid example, and a file with a YAML error and lint findings, in text and JSON. */
const CASES: readonly (readonly string[])[] = [
  ["validate", join(ROOT, "examples/gotv.yaml"), "--now", NOW],
  ["validate", join(ROOT, "examples/gotv.yaml"), "--json", "--now", NOW],
  ["validate", "broken.yaml", "--now", NOW],
  ["validate", "broken.yaml", "--json", "--now", NOW],
];

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

let dir = "";
/** A copy of dist/ (and package.json, node_modules linked) whose cache files a test may spoil. */
let copy = "";

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "campaignctl-code-cache-"));
  writeFileSync(join(dir, "broken.yaml"), BROKEN);
  copy = join(dir, "package");
  cpSync(join(ROOT, "dist"), join(copy, "dist"), { recursive: true });
  cpSync(join(ROOT, "package.json"), join(copy, "package.json"));
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runBin(root: string, argv: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(root, "dist/cli/main.js"), ...argv],
      { cwd: dir, env: { ...process.env, NO_COLOR: "1", CAMPAIGNCTL_DEBUG: "1", ...env } },
      (error, stdout, stderr) => {
        const code = error && typeof error.code === "number" ? error.code : error ? 1 : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** The code-cache line of a run's stderr, and the rest. */
function split(run: Run): { cache: string | undefined; rest: Run } {
  const line = /^campaignctl: validate from .*, code cache (.+)\n/m.exec(run.stderr);
  return {
    cache: line?.[1],
    rest: { ...run, stderr: line === null ? run.stderr : run.stderr.replace(line[0], "") },
  };
}

/** The runs of CASES imported as ES modules (no code cache), the reference. */
async function referenceRuns(): Promise<Run[]> {
  return Promise.all(CASES.map((argv) => runBin(ROOT, argv, { NODE_DISABLE_COMPILE_CACHE: "1" })));
}

const cacheFile = (): string => join(copy, "dist/cli/code-cache/validate.cache");
const bundleFile = (): string => join(copy, "dist/cli/code-cache/validate.js");

describe("validate from its code-cached bundle", () => {
  test("compiles from the cache and prints and exits as the ES modules do", async () => {
    const reference = await referenceRuns();
    expect(reference.map((r) => r.code)).toEqual([0, 0, 1, 1]);
    expect(reference[2]?.stdout).toMatch(/broken\.yaml:\d+:\d+/);
    for (const [i, argv] of CASES.entries()) {
      const { cache, rest } = split(await runBin(ROOT, argv));
      expect(cache, argv.join(" ")).toBe("accepted");
      expect(rest).toEqual(reference[i]);
    }
    // The reference did not go through the bundle; another command never does.
    expect(reference.map((r) => split(r).cache)).toEqual([undefined, undefined, undefined, undefined]);
    expect(split(await runBin(ROOT, ["--version"])).cache).toBeUndefined();
  }, 60_000);

  test("a cache not made for this bundle and this Node is not used, and nothing else changes", async () => {
    const reference = await referenceRuns();
    const good = readFileSync(cacheFile());
    const source = readFileSync(bundleFile(), "latin1");
    const headerEnd = good.indexOf(10) + 1;
    const spoiled: [string, () => void, string][] = [
      [
        "a byte of the data flipped",
        () => writeFileSync(cacheFile(), flipped(good, headerEnd + 5000)),
        "corrupt",
      ],
      ["truncated", () => writeFileSync(cacheFile(), good.subarray(0, good.length >> 1)), "corrupt"],
      ["random bytes", () => writeFileSync(cacheFile(), Buffer.alloc(4096, 7)), "corrupt"],
      [
        "another Node's",
        () =>
          writeFileSync(
            cacheFile(),
            Buffer.from(good.toString("latin1").replace(process.version, "v20.0.0"), "latin1"),
          ),
        "foreign",
      ],
      [
        "another bundle's (the bundle's id changed)",
        () => writeFileSync(bundleFile(), source.replace(/^\/\/ [0-9a-f]/, "// x")),
        "foreign",
      ],
      [
        "rejected by V8 (its header right, the source another)",
        () => writeFileSync(bundleFile(), `${source}// another build\n`),
        "rejected by V8",
      ],
      ["missing", () => rmSync(cacheFile()), "absent"],
    ];
    for (const [what, spoil, expected] of spoiled) {
      writeFileSync(cacheFile(), good);
      writeFileSync(bundleFile(), source, "latin1");
      spoil();
      // The valid file in text, the broken one in JSON: 2 runs each, the machine being shared.
      for (const i of [0, 3]) {
        const argv = CASES[i] ?? [];
        const { cache, rest } = split(await runBin(copy, argv));
        expect(cache, `${what}: ${argv.join(" ")}`).toBe(expected);
        expect(rest, `${what}: ${argv.join(" ")}`).toEqual(reference[i]);
      }
    }
  }, 180_000);

  test("the build makes the same cache, byte for byte", () => {
    const outs = [join(dir, "one.cache"), join(dir, "two.cache")];
    // Made as the build makes it: without the pass's NODE_OPTIONS (CI's second pass preloads a
    // shifted clock, which the build never runs with: its cache then differs from the build's).
    const { NODE_OPTIONS: _preload, ...env } = process.env;
    for (const out of outs)
      execFileSync(process.execPath, ["--predictable", "scripts/make-code-cache.mjs", "validate", out], {
        cwd: ROOT,
        stdio: "pipe",
        env,
      });
    const [one, two] = outs.map((out) => readFileSync(out));
    expect(one?.equals(two as Buffer)).toBe(true);
    expect(one?.equals(readFileSync(join(ROOT, "dist/cli/code-cache/validate.cache")))).toBe(true);
  }, 60_000);

  test("the bundle holds validate's code only: no other command, registration or client", () => {
    const meta = JSON.parse(readFileSync(join(ROOT, "dist/bundle-meta.json"), "utf8")) as {
      outputs: Record<string, { inputs: Record<string, unknown> }>;
    };
    const inputs = Object.keys(meta.outputs["dist/cli/code-cache/validate.js"]?.inputs ?? {});
    expect(inputs).toContain("dist/cli/commands/validate.js");
    expect(inputs.filter((p) => p.startsWith("dist/cli/commands/") && !p.endsWith("/validate.js"))).toEqual(
      [],
    );
    expect(inputs.filter((p) => p.startsWith("dist/cli/register/")).sort()).toEqual([
      "dist/cli/register/help.js",
      "dist/cli/register/validate.js",
    ]);
    const heavy =
      /^dist\/src\/(plan|import|sandbox|report\/gallery|api\/client)\/|^dist\/src\/apply\/(?!port\.js$)/;
    expect(inputs.filter((p) => heavy.test(p))).toEqual([]);
    expect(inputs.filter((p) => /node_modules\/(undici|pg|vscode-languageserver)\//.test(p))).toEqual([]);
    expect(inputs.filter((p) => /node_modules\/ajv\/(?!dist\/runtime\/)/.test(p))).toEqual([]);
  });
});

/** `bytes` with the byte at `at` inverted. */
function flipped(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[at] = (copy[at] ?? 0) ^ 0xff;
  return copy;
}
