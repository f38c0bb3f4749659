/**
 * The built CLI loads only the command being run (cli/register/ at start-up, cli/commands/<name> when
 * it runs): `--version` loads no command implementation, and `validate` none of plan, apply, import,
 * the gallery or ajv's compiler. The bin is a bundle split at every `import()`
 * (scripts/after-build.mjs): a chunk loaded stands for the modules esbuild put in it
 * (dist/bundle-meta.json), so the modules named here are those of the compiled tree, as before.
 * What a run loaded is recorded by a preload (`--import`): every ES module of the bin (its entry and
 * each chunk) begins by calling `createRequire(import.meta.url)` (the bundle's banner, checked
 * below), which the preload wraps to note the URL; CommonJS modules are read from `require.cache`
 * on exit. (A module-load hook, `module.register`, saw the same files, but its thread cost about
 * 100 ms of CPU per run: more than the run.)
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { beforeAll, describe, expect, test } from "vitest";
import { BUILT_CLI } from "../helpers/run-cli.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DIST = join(ROOT, "dist/");

/** The modules each output file of the bundle holds (absolute paths), from esbuild's metafile. */
function bundleInputs(): Map<string, string[]> {
  const meta = JSON.parse(readFileSync(join(DIST, "bundle-meta.json"), "utf8")) as {
    outputs: Record<string, { inputs: Record<string, unknown> }>;
  };
  return new Map(
    Object.entries(meta.outputs).map(([out, o]) => [
      join(ROOT, out),
      Object.keys(o.inputs).map((input) => join(ROOT, input)),
    ]),
  );
}

/** The small defining modules the registrations read defaults and flag parsers from. */
const REGISTRATION_SRC = [
  "src/api/config.js",
  "src/api/organization-keys.js", // the redactor redacts every key per organization (cli/output/output-redaction.ts)
  "src/apply/port.js",
  "src/contract/key-shaped.js", // every output masks key-shaped text (cli/output/output-redaction.ts)
  "src/contract/limits.js",
  "src/message/memo.js",
  "src/message/merge-tags.js",
  "src/policy/model.js",
  "src/text/did-you-mean.js", // the nearest command to an unknown one (register/help.ts)
  "src/text/parse-duration.js",
  "src/text/redact.js", // every output goes through the redactor of the run's secrets (cli/output/output-redaction.ts)
  "src/text/word-list.js", // the commands an unknown flag belongs to, listed (cli/flags/flag-spelling.ts)
];

const CAMPAIGN = `version: 1
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
    message: "Hi {{first_name|friend}}, early voting is open now. Reply STOP to opt out"
    contact_lists:
      - Ward 3 Likely Voters
    state: draft
`;

interface Loaded {
  readonly code: number;
  readonly stdout: string;
  /** ES modules under dist/, relative to it (`cli/main.js`). */
  readonly dist: readonly string[];
  /** Every module file loaded, ES (URLs) and CommonJS (paths). */
  readonly all: readonly string[];
  /** The files read under dist/ (bundle chunks counted as files). */
  readonly distFiles: number;
}

let dir = "";

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "campaignctl-lazy-"));
  const log = join(dir, "loads.log");
  writeFileSync(
    join(dir, "preload.mjs"),
    `import { appendFileSync } from "node:fs";
import module from "node:module";
const loaded = [];
const createRequire = module.createRequire;
module.createRequire = (from) => {
  loaded.push(String(from));
  return createRequire(from);
};
module.syncBuiltinESMExports();
const cache = createRequire(import.meta.url).cache;
process.on("exit", () => appendFileSync(${JSON.stringify(log)}, [...loaded, ...Object.keys(cache)].join("\\n") + "\\n"));
`,
  );
  writeFileSync(join(dir, "campaign.yaml"), CAMPAIGN);
});

/** Each argv's run, once per file: two tests that read the same run (`completion bash`) share it. */
const runs = new Map<string, Promise<Loaded>>();

function runLogged(argv: readonly string[]): Promise<Loaded> {
  const key = JSON.stringify(argv);
  const known = runs.get(key);
  if (known !== undefined) return known;
  const started = runLoggedOnce(argv);
  runs.set(key, started);
  return started;
}

function runLoggedOnce(argv: readonly string[]): Promise<Loaded> {
  const log = join(dir, "loads.log");
  writeFileSync(log, "");
  const preload = pathToFileURL(join(dir, "preload.mjs")).href;
  return new Promise((done) => {
    execFile(
      process.execPath,
      ["--import", preload, BUILT_CLI, ...argv],
      // The ES modules, whose loads the hook sees: on Node 20 `validate` otherwise runs from its
      // code-cached bundle (test/cli/code-cache.test.ts checks what that bundle holds).
      { cwd: dir, env: { ...process.env, NO_COLOR: "1", NODE_DISABLE_COMPILE_CACHE: "1" } },
      (error, stdout) => {
        const code = error && typeof error.code === "number" ? error.code : error ? 1 : 0;
        const inputs = bundleInputs();
        const files = readFileSync(log, "utf8")
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => (line.startsWith("file:") ? fileURLToPath(line) : line));
        const all = files.flatMap((path) => inputs.get(path) ?? [path]);
        const dist = all.filter((p) => p.startsWith(DIST)).map((p) => relative(DIST, p));
        done({ code, stdout, dist, all, distFiles: files.filter((p) => p.startsWith(DIST)).length });
      },
    );
  });
}

describe("the built CLI loads only the command being run", () => {
  test("every ES module of the bin notes itself to the preload: each begins with the banner's createRequire", () => {
    const modules = readdirSync(join(DIST, "cli")).filter((f) => /^(main|chunk-[A-Z0-9]+)\.js$/.test(f));
    expect(modules.length).toBeGreaterThan(10);
    const banner =
      /^(#!.*\n)?\/\/ campaignctl bundle\nimport \{ createRequire as __campaignctlRequire \} from "node:module"; const require = __campaignctlRequire\(import\.meta\.url\);/;
    for (const file of modules) expect(readFileSync(join(DIST, "cli", file), "utf8"), file).toMatch(banner);
  });

  test("--version loads the registrations and no command implementation", async () => {
    const run = await runLogged(["--version"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(run.dist).toContain("cli/register/plan.js");
    expect(run.dist.filter((p) => p.startsWith("cli/commands/"))).toEqual([]);
    // Only these (the bundle may hold fewer: a module whose constants esbuild inlined is in no chunk).
    const src = run.dist.filter((p) => p.startsWith("src/"));
    expect(src.filter((p) => !REGISTRATION_SRC.includes(p))).toEqual([]);
    expect(src).toContain("src/text/redact.js");
    expect(run.all.filter((p) => /node_modules\/(ajv|yaml|undici|luxon)\//.test(p))).toEqual([]);
  });

  test.each([
    [["help", "plan"], []],
    [["version"], ["cli/commands/version.js"]],
    [["completion", "bash"], ["cli/commands/completion.js"]],
  ])("%j loads no command implementation but its own", async (argv, own) => {
    const run = await runLogged(argv);
    expect(run.code).toBe(0);
    expect(run.dist.filter((p) => p.startsWith("cli/commands/"))).toEqual(own);
    expect(run.all.filter((p) => /node_modules\/(ajv|yaml|undici|luxon)\//.test(p))).toEqual([]);
  });

  test("validate loads validate, and nothing of plan, apply, import, the gallery or ajv's compiler", async () => {
    const run = await runLogged(["validate", "campaign.yaml", "--json"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ summary: { errors: 0 } });
    expect(run.dist).toContain("cli/commands/validate.js");
    // The bin is the bundle (scripts/after-build.mjs): its 150-odd modules come in a few dozen chunks.
    expect(run.distFiles).toBeLessThan(run.dist.length / 2);
    expect(run.dist.filter((p) => p.startsWith("cli/commands/") && p !== "cli/commands/validate.js")).toEqual(
      [],
    );
    const heavy = /^src\/(plan|import|sandbox|report\/gallery)\/|^src\/apply\/(?!port\.js$)/;
    expect(run.dist.filter((p) => heavy.test(p))).toEqual([]);
    // The key configuration (config.js, organization-keys.js: the redactor's secrets) but no client.
    const keyConfig = ["src/api/config.js", "src/api/organization-keys.js"];
    expect(run.dist.filter((p) => p.startsWith("src/api/") && !keyConfig.includes(p))).toEqual([]);
    // Generated validators may use ajv's small runtime helpers; the compiler must not load.
    expect(run.all.filter((p) => /node_modules\/ajv\/(?!dist\/runtime\/)/.test(p))).toEqual([]);
    // Only its own registration (and help's), and no CSV reader for a file without email lists.
    expect(run.dist.filter((p) => p.startsWith("cli/register/")).sort()).toEqual([
      "cli/register/help.js",
      "cli/register/validate.js",
    ]);
    expect(run.all.filter((p) => /node_modules\/csv-parse\//.test(p))).toEqual([]);
    expect(run.dist.filter((p) => p.startsWith("cli/email/") && p !== "cli/email/validate-email.js")).toEqual(
      [],
    );
  });

  test.each([[["--help"]], [["help", "validate"]], [["completion", "bash"]], [["plna"]]])(
    "%j builds the whole tree: every command's registration loads",
    async (argv) => {
      const run = await runLogged(argv);
      expect(run.code === 0).toBe(argv[0] !== "plna"); // an unknown command is a usage error, with the nearest name
      const registered = run.dist.filter((p) => p.startsWith("cli/register/"));
      expect(registered).toEqual(
        expect.arrayContaining(["cli/register/plan.js", "cli/register/webhooks.js"]),
      );
      expect(registered.length).toBeGreaterThanOrEqual(15);
    },
  );

  test("the code-cached bundles take undici's Agent and request, not its index (which loads all of undici)", () => {
    const undici = [...bundleInputs().values()]
      .flat()
      .map((p) => relative(ROOT, p))
      .filter((p) => p.startsWith("node_modules/undici/"));
    expect(undici).toContain("node_modules/undici/lib/dispatcher/agent.js");
    expect(undici).toContain("node_modules/undici/lib/api/api-request.js");
    expect(undici).not.toContain("node_modules/undici/index.js");
    // What the index alone brings: fetch's client, WebSocket, cookies (and through them Node's own
    // undici), the mocks, the caches.
    expect(
      undici.filter((p) => /\/lib\/(web\/(websocket|cookies|eventsource)|mock|cache)\//.test(p)),
    ).toEqual([]);
  });
});
