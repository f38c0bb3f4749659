// Hostile input stays cheap: the timings that the robustness tests used to assert (an alias bomb
// refused, a 50 MB file refused without being read, 20,000 diagnostics rendered under a
// 20,000-line file). Tests assert what is reported; this script measures how long it takes and
// exits 1 when a target is missed. Run against the build: `npm run build && node bench/robustness.mjs`.
import { createHash } from "node:crypto";
import { truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadCampaign } from "../dist/cli/adapters/load-campaign.js";
import { assembleCampaign } from "../dist/src/campaign/assemble.js";
import { renderDiagnosticsText } from "../dist/src/report/diagnostics-text.js";
import { inTempDir, median, printMachine } from "./lib.mjs";

const RUNS = Number(process.argv[2] ?? 5);

const file = (path, text) => ({ path, text, sha256: createHash("sha256").update(text).digest("hex") });

/** 9 levels of 9 aliases each: 9^9 (387 million) nodes if expanded naively. */
const aliasBomb = [
  "version: 1",
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...["b", "c", "d", "e", "f", "g", "h", "i"].map(
    (name, i) => `${name}: &${name} [${Array(9).fill(`*${"abcdefghi"[i]}`).join(",")}]`,
  ),
  "projects: {}",
].join("\n");

function timed(fn) {
  const walls = [];
  let last;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    last = fn();
    walls.push(performance.now() - started);
  }
  return { ms: median(walls), last };
}

const cases = [
  {
    name: "alias bomb refused",
    targetMs: 2000,
    run: () => assembleCampaign([file("c.yaml", aliasBomb)]).diagnostics.map((d) => d.code),
    expect: (codes) => codes.includes("campaign.yaml-too-complex"),
  },
  {
    name: "50 MB file refused unread",
    targetMs: 1000,
    run: () => {
      let codes = [];
      inTempDir("cc-bench-robust-", (dir) => {
        const big = join(dir, "big.yaml");
        writeFileSync(big, "");
        truncateSync(big, 50 * 1024 * 1024);
        codes = loadCampaign(["."], dir).diagnostics.map((d) => d.code);
      });
      return codes;
    },
    expect: (codes) => codes.includes("campaign.file-too-large"),
  },
  {
    name: "20,000 diagnostics under a 20,000-line file",
    targetMs: 2000,
    run: () => {
      const text = Array.from({ length: 20_000 }, (_, i) => `    key${i}: value`).join("\n");
      const ds = Array.from({ length: 20_000 }, (_, i) => ({
        severity: "error",
        code: "campaign.unknown-key",
        message: "unknown key",
        range: {
          file: "c.yaml",
          start: { line: 20_000 - i, column: 5, offset: 0 },
          end: { line: 20_000 - i, column: 9, offset: 0 },
        },
      }));
      return renderDiagnosticsText(ds, { sources: new Map([["c.yaml", text]]), color: false });
    },
    expect: (out) => out.includes("  20000 |     key19999: value\n"),
  },
];

printMachine(0);
let ok = true;
for (const c of cases) {
  const { ms, last } = timed(c.run);
  const right = c.expect(last);
  const met = right && ms < c.targetMs;
  ok &&= met;
  console.log(
    `${c.name}: ${ms.toFixed(0)} ms median of ${RUNS} (target < ${c.targetMs} ms)${right ? "" : ", WRONG RESULT"} ${met ? "ok" : "MISSED"}`,
  );
}
process.exitCode = ok ? 0 : 1;
