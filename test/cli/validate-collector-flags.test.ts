/**
 * A `validate` process of its own sets V8's collector flags (allocation-site pretenuring off) when
 * it checks several files, before it parses them; one file, another command and an in-process run
 * (the tests' `run`) leave the VM as it is (cli/validate/collector-flags.ts; issue 36: over 100 files
 * pretenuring off cut the promoted bytes from about 100 MB to about 32 and the mark-compacts from 3
 * to 1; on one 10 MiB file it cost about 6 % of the CPU, bench/README.md).
 * The flags change no output, so the test watches the call: a preload records every
 * `v8.setFlagsFromString` (for the code-cached bundle, which requires `node:v8`, and for the ES
 * modules, whose named import it re-syncs) and prints them at exit; in process, a spy that sets nothing watches the same call.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test, vi } from "vitest";
import { VALIDATE_COLLECTOR_FLAGS } from "../../cli/validate/collector-flags.js";
import { binSpy } from "../helpers/bin-spy.js";
import { runCli } from "../helpers/run-cli.js";

afterEach(() => {
  vi.restoreAllMocks();
});

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const flagsRun = binSpy<readonly string[]>(`const v8 = require("node:v8");
const set = v8.setFlagsFromString;
const flags = [];
v8.setFlagsFromString = (flag) => { flags.push(flag); return set(flag); };
require("node:module").syncBuiltinESMExports();
report(() => flags);
`);

async function flagsSet(
  argv: readonly string[],
  env: Record<string, string> = {},
): Promise<readonly string[]> {
  return (await flagsRun(argv, env)).seen;
}

const NOW = ["--now", "2026-11-01T00:00:00Z"];
const EXPECTED = ["--no-allocation-site-pretenuring"];

test("the flags the bin sets are these", () => {
  expect(VALIDATE_COLLECTOR_FLAGS).toEqual(EXPECTED);
});

describe("validate and V8's collector flags", () => {
  test.each([[{}], [{ NODE_DISABLE_COMPILE_CACHE: "1" }]])("the bin, several files: set %o", async (env) => {
    const flags = await flagsSet(["validate", "examples/gotv.yaml", "examples/early-vote.yaml", ...NOW], env);
    expect(flags).toEqual(EXPECTED);
  });

  test("the bin, one file: left alone, named or alone in its directory", async () => {
    expect(await flagsSet(["validate", "examples/gotv.yaml", ...NOW])).toEqual([]);
    const dir = mkdtempSync(join(tmpdir(), "campaignctl-collector-one-"));
    writeFileSync(join(dir, "gotv.yaml"), readFileSync(join(ROOT, "examples/gotv.yaml")));
    expect(await flagsSet(["validate", dir, ...NOW])).toEqual([]);
  });

  test("the bin, several files in one directory: set", async () => {
    expect(await flagsSet(["validate", "examples/", ...NOW])).toEqual(EXPECTED);
  });

  test("the bin, another command: left alone", async () => {
    expect(await flagsSet(["version"])).toEqual([]);
  });

  test("in process: left alone", async () => {
    // The module object the code reads at the call (process.getBuiltinModule): set nothing here.
    const set = vi
      .spyOn(process.getBuiltinModule("node:v8"), "setFlagsFromString")
      .mockImplementation(() => {});
    const result = await runCli(["validate", "examples/gotv.yaml", "examples/early-vote.yaml", ...NOW]);
    expect(result.code).toBe(0);
    expect(set).not.toHaveBeenCalled();
  });
});
