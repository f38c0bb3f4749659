#!/usr/bin/env node
/**
 * The floor of `campaignctl validate` (issue 36; not a test): the `yaml` package's own
 * `parseAllDocuments` of the same files with the same options as validate's parser
 * (src/campaign/parse-yaml.ts: a LineCounter, `prettyErrors: false`, `uniqueKeys: false`), and
 * nothing else. Reads the `.yaml` files of each directory named (not recursively) and each file
 * named, in name order, as UTF-8. Prints one JSON line: files, documents, errors, and its own CPU
 * time (user + system) and peak RSS as the process saw them at the end (node's start included, as
 * for validate). Used by validate-floor.mjs; run alone to look at the floor:
 *
 *   node bench/yaml-floor.mjs DIR_OR_FILE...
 *
 * BENCH_FLOOR_ENV_ONCE=1: the floor reads its environment once, as campaignctl's own process does
 * (cli/lifecycle/environment.ts; the `yaml` package reads `process.env.LOG_TOKENS` once a token):
 * not the floor, but the parse as validate pays it, so that the ratio against it is what
 * validate's own checks cost (`BENCH_FLOOR_ENV_ONCE=1 node bench/validate-floor.mjs one-file`).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { LineCounter, parseAllDocuments } from "yaml";

if (process.env.BENCH_FLOOR_ENV_ONCE === "1") {
  const { readEnvironmentOnce } = await import("../dist/cli/lifecycle/environment.js");
  readEnvironmentOnce();
}

const files = process.argv.slice(2).flatMap((path) =>
  statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((name) => name.endsWith(".yaml"))
        .sort()
        .map((name) => join(path, name))
    : [path],
);
let documents = 0;
let errors = 0;
for (const file of files) {
  const text = readFileSync(file, "utf8");
  const docs = parseAllDocuments(text, {
    lineCounter: new LineCounter(),
    prettyErrors: false,
    uniqueKeys: false,
  });
  const list = Array.isArray(docs) ? docs : [];
  documents += list.length;
  for (const doc of list) errors += doc.errors.length;
}
const usage = process.resourceUsage();
console.log(
  JSON.stringify({
    files: files.length,
    documents,
    errors,
    cpu_ms: Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000),
    peak_bytes: usage.maxRSS * 1024,
  }),
);
