// Preloaded into the measured process (node --import): on exit, writes its peak resident set size
// (bytes) and the CPU time it used (ms, user + system, all threads) to the file named by
// BENCH_RSS_FILE, as `<rss bytes> <cpu ms>`. CPU time is what a loaded, shared machine distorts
// least. Used by validate-scale.mjs and validate-one-file.mjs; not part of campaignctl.
import { writeFileSync } from "node:fs";

const target = process.env.BENCH_RSS_FILE;
if (target) {
  process.on("exit", () => {
    const usage = process.resourceUsage();
    writeFileSync(
      target,
      `${usage.maxRSS * 1024} ${Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000)}`,
    );
  });
}
