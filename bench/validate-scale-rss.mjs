// Preloaded into the measured process (node --import): on exit, writes its peak resident set size
// (bytes) to the file named by BENCH_RSS_FILE. Used by validate-scale.mjs; not part of campaignctl.
import { writeFileSync } from "node:fs";

const target = process.env.BENCH_RSS_FILE;
if (target) {
  process.on("exit", () => {
    writeFileSync(target, String(process.resourceUsage().maxRSS * 1024));
  });
}
