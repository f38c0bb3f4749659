/**
 * `processIo` asks whether stdin is a terminal of descriptor 0, without opening `process.stdin`
 * (issue 36: start-up), and gets the answer `process.stdin.isTTY` gives, for a pipe and /dev/null.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, test } from "vitest";
import { processIo } from "../../cli/output/io.js";

describe("processIo", () => {
  test("stdinIsTTY is process.stdin.isTTY", () => {
    expect(processIo().stdinIsTTY).toBe(process.stdin.isTTY === true);
    const script = `import { processIo } from ${JSON.stringify(new URL("../../dist/cli/output/io.js", import.meta.url).href)};
console.log(JSON.stringify({ tty: processIo().stdinIsTTY, isTTY: process.stdin.isTTY === true }));`;
    for (const stdin of ["pipe", "ignore"] as const) {
      const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
        stdio: [stdin, "pipe", "pipe"],
        encoding: "utf8",
      });
      expect(JSON.parse(out)).toEqual({ tty: false, isTTY: false });
    }
  });
});
