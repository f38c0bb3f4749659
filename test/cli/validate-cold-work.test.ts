/**
 * What a cold `validate` of one small file does beyond Node's own start (issue 36: its goal is at
 * most twice `node -e 0`). Its schedule checks read the US zones' offsets from the build's table of
 * ICU's own (src/text/zone-offsets.ts), so the run makes no `Intl` formatter: the first costs about
 * 13 ms of ICU set-up. Its text output names no file digest, so it loads no `crypto` from the
 * code-cached bundle (about 4 ms); `--json` prints each file's sha256, the hash of its bytes. A
 * preload wraps the `Intl` constructors and reads `process.moduleLoadList` at exit.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { binSpy } from "../helpers/bin-spy.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const spied = binSpy<{ intl: string[]; crypto: boolean }>(`const made = [];
for (const name of ["DateTimeFormat", "NumberFormat", "Collator", "PluralRules", "Segmenter", "RelativeTimeFormat", "ListFormat", "DisplayNames"]) {
  const Made = Intl[name];
  Intl[name] = new Proxy(Made, {
    construct(target, args) { made.push(name); return Reflect.construct(target, args); },
    apply(target, self, args) { made.push(name); return Reflect.apply(target, self, args); },
  });
}
report(() => ({ intl: made, crypto: process.moduleLoadList.includes("NativeModule crypto") }));
`);

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly cached: boolean;
  readonly intl: readonly string[];
  readonly crypto: boolean;
}

async function run(argv: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  const { code, stdout, stderr, seen } = await spied(argv, { CAMPAIGNCTL_DEBUG: "1", ...env });
  return { code, stdout, cached: /code cache accepted/.test(stderr), ...seen };
}

// `--now` before every schedule of the examples: the runs judge the same whatever the date.
const NOW = ["--now", "2026-11-01T00:00:00Z"];

describe("a cold validate of a small file", () => {
  test.each([
    ["examples/gotv.yaml", {}],
    ["examples/gotv.yaml", { NODE_DISABLE_COMPILE_CACHE: "1" }],
    ["examples/early-vote.yaml", {}],
    ["examples/volunteers.yaml", {}],
    ["examples/runoff-notice.yaml", {}],
  ])("%s %o: no Intl formatter, no crypto for the text output", async (file, env) => {
    const result = await run(["validate", file, ...NOW], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/0 errors/);
    expect(result.intl).toEqual([]);
    // The ES modules import `crypto` with the hashing module; the code-cached bundle (Node 20)
    // loads it on first use, and the text output uses none.
    if (result.cached) expect(result.crypto).toBe(false);
  });

  test("--json names each file's sha256, the hash of its bytes", async () => {
    const result = await run(["validate", "examples/gotv.yaml", "--json", ...NOW]);
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout) as { files: { path: string; sha256: string }[] };
    const bytes = readFileSync(join(ROOT, "examples/gotv.yaml"));
    expect(document.files).toEqual([
      { path: "examples/gotv.yaml", sha256: createHash("sha256").update(bytes).digest("hex") },
    ]);
    expect(result.crypto).toBe(true);
  });
});
