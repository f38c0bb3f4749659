/**
 * A process of campaignctl's own reads its environment once (cli/lifecycle/environment.ts; issue 36:
 * the `yaml` package reads `process.env.LOG_TOKENS` once a token, a call into C++ each time):
 * `process.env` is a plain copy in the bin's process, for the code-cached bundle (`validate`) and
 * the ES modules (`version`) alike, holding the values the process started with; a child process
 * and a worker thread started after it are given the same values; an in-process run (the tests'
 * `run`) leaves `process.env` as Node made it. Node's own `process.env` turns every value set on it
 * into a string, a plain object does not: that tells them apart.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { binSpy } from "../helpers/bin-spy.js";
import { runCli } from "../helpers/run-cli.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const ENVIRONMENT = join(ROOT, "dist/cli/lifecycle/environment.js");
const PROBE = "CAMPAIGNCTL_ENV_PROBE";

/** Whether `env` is a plain object (a number set on it stays a number), and what it says of PROBE. */
function lookAt(env: Record<string, unknown>): { readonly plain: boolean; readonly probe: unknown } {
  const probe = env[PROBE];
  env.CAMPAIGNCTL_ENV_KIND = 1;
  const plain = typeof env.CAMPAIGNCTL_ENV_KIND === "number";
  delete env.CAMPAIGNCTL_ENV_KIND;
  return { plain, probe };
}

const lookedAtByTheBin = binSpy<unknown>(`const lookAt = ${lookAt.toString()};
const PROBE = ${JSON.stringify(PROBE)};
report(() => lookAt(process.env));
`);

function node(args: readonly string[], env: Record<string, string>): Promise<string> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      args,
      { cwd: ROOT, env: { ...process.env, NO_COLOR: "1", ...env } },
      (error, stdout, stderr) => {
        if (error !== null && error.code !== 1) fail(new Error(`${error.message}\n${stderr}`));
        else done(`${stdout}${stderr}`);
      },
    );
  });
}

async function seenByTheBin(argv: readonly string[]): Promise<unknown> {
  return (await lookedAtByTheBin(argv, { [PROBE]: "as started" })).seen;
}

describe("the environment, read once", () => {
  test.each([
    [
      "validate (the code-cached bundle)",
      ["validate", "examples/gotv.yaml", "--now", "2026-11-01T00:00:00Z"],
    ],
    ["version (the ES modules)", ["version"]],
  ])("the bin's process: a plain copy with the values it started with: %s", async (_name, argv) => {
    expect(await seenByTheBin(argv)).toEqual({ plain: true, probe: "as started" });
  });

  test("a child process and a worker thread started after it are given the same values", async () => {
    const script = `
      import { execFileSync } from "node:child_process";
      import { Worker } from "node:worker_threads";
      import { readEnvironmentOnce } from ${JSON.stringify(ENVIRONMENT)};
      readEnvironmentOnce();
      const child = execFileSync(process.execPath, ["-e", "process.stdout.write(process.env.${PROBE})"], { encoding: "utf8" });
      const worker = await new Promise((done) => {
        new Worker("import('node:worker_threads').then((w) => w.parentPort.postMessage(process.env.${PROBE}))", { eval: true })
          .once("message", done);
      });
      console.log(JSON.stringify({ child, worker }));
    `;
    const output = await node(["--input-type=module", "-e", script], { [PROBE]: "passed on" });
    expect(JSON.parse(output)).toEqual({ child: "passed on", worker: "passed on" });
  });

  test("on Windows, whose names have no case, Node's process.env is kept", async () => {
    const script = `
      import { readEnvironmentOnce } from ${JSON.stringify(ENVIRONMENT)};
      readEnvironmentOnce("win32");
      process.env.CAMPAIGNCTL_ENV_KIND = 1;
      console.log(typeof process.env.CAMPAIGNCTL_ENV_KIND);
    `;
    expect((await node(["--input-type=module", "-e", script], {})).trim()).toBe("string");
  });

  test("an in-process run leaves process.env as Node made it", async () => {
    const result = await runCli(["version"]);
    expect(result.code).toBe(0);
    expect(lookAt(process.env).plain).toBe(false);
  });
});
