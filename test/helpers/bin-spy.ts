/**
 * Runs the built bin with a spy preloaded (`node --require spy.cjs dist/cli/main.js ...`), for what a
 * process of its own does that its output does not show: the V8 flags it sets, the modules it
 * loads, what its `process.env` is. The spy is CommonJS source given `report(read)`, which it calls
 * once: `read()` runs at the process's exit, and the run's answer is what it returns, read from
 * stderr (`SPY <json>`).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUILT_CLI } from "./run-cli.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const REPORT = `const report = (read) => process.on("exit", () => process._rawDebug("SPY " + JSON.stringify(read())));\n`;

/** A spied run: its exit code, stdout, stderr, and what the spy reported. */
export interface SpiedRun<T> {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly seen: T;
}

/** A bin run with `spy` (see above) preloaded: `run(argv, env)` from the repository's root. */
export function binSpy<T>(
  spy: string,
): (argv: readonly string[], env?: Record<string, string>) => Promise<SpiedRun<T>> {
  let file: string | undefined;
  return (argv, env = {}) => {
    if (file === undefined) {
      file = join(mkdtempSync(join(tmpdir(), "campaignctl-bin-spy-")), "spy.cjs");
      writeFileSync(file, REPORT + spy);
    }
    const preload = file;
    return new Promise((done, fail) => {
      execFile(
        process.execPath,
        ["--require", preload, BUILT_CLI, ...argv],
        { cwd: ROOT, env: { ...process.env, NO_COLOR: "1", ...env } },
        (error, stdout, stderr) => {
          const code = error && typeof error.code === "number" ? error.code : error ? 1 : 0;
          const line = /^SPY (.*)$/m.exec(stderr)?.[1];
          if (line === undefined) fail(new Error(`no spy line: ${stderr}`));
          else done({ code, stdout, stderr, seen: JSON.parse(line) as T });
        },
      );
    });
  };
}
