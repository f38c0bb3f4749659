#!/usr/bin/env node
/**
 * `validate` prints the same bytes as another build (issue 36: validate was made to do less work,
 * never to say anything else; not a test: run after `npm run build`). Runs this build's
 * `dist/cli/main.js validate` and the reference build's (BENCH_REF_CLI, required: a build of the
 * code before the change, e.g. a copy of its `dist/` beside a `node_modules`) on the same inputs
 * and compares stdout, stderr and the exit code, byte for byte:
 *
 *   - the scale input (10,000 projects in 100 files) and the one-file input (bench/validate-input.mjs),
 *   - examples/ (the directory, with its policy, and each file alone), test/fixtures and test/gallery,
 *   - the language server's corpora (bench/lsp-input.mjs: projects with findings, templates),
 *   - small files built to reach every branch of the walk that builds a file's data
 *     (src/campaign/yaml-walk.ts): aliases, merge keys, complex and odd keys, repeated keys, tags,
 *     deep nesting, schema errors,
 *
 * each as `--format json` and as text. Exit 1 on the first difference (the input, the format and
 * the first differing line are printed).
 *
 *   BENCH_REF_CLI=/tmp/ref/dist/cli/main.js node bench/validate-scale-same.mjs
 *   BENCH_REF_CLI=... BENCH_QUICK=1 node bench/validate-scale-same.mjs   # without the two large inputs
 */
import { spawnSync } from "node:child_process";
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { inTempDir } from "./lib.mjs";
import { projectsText, templatesText } from "./lsp-input.mjs";
import { ONE_FILE_NOW, oneFile, SCALE_NOW, scaleFiles } from "./validate-input.mjs";

const cli = process.env.BENCH_CLI ?? fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const ref = process.env.BENCH_REF_CLI;
if (ref === undefined) throw new Error("set BENCH_REF_CLI to the reference build's dist/cli/main.js");
const repo = fileURLToPath(new URL("..", import.meta.url));

/** Small files for the walk's branches (yaml-walk.ts) and the checks around it. */
const CRAFTED = {
  "alias.yaml": `version: 1
defaults: &d
  channel: 10dlc
  brand: B
  campaign: C
  phone_numbers: ["+15035550101"]
projects:
  a:
    id: 9b000001-0000-4000-8000-000000000001
    name: A
    message: &m "Hi {{first_name|friend}}, vote Tuesday. Reply STOP to opt out"
    contact_lists: [L]
  b:
    id: 9b000001-0000-4000-8000-000000000002
    name: B
    message: *m
    contact_lists: [L]
    labels: *missing
`,
  "merge-key.yaml": `version: 1
defaults:
  channel: 10dlc
  brand: B
  campaign: C
  phone_numbers: ["+15035550101"]
base: &b {contact_lists: [L], name: Base}
projects:
  a:
    <<: *b
    id: 9b000001-0000-4000-8000-000000000003
    message: "Hi, vote Tuesday. Reply STOP to opt out"
`,
  "odd-keys.yaml": `version: 1
__proto__: {polluted: true}
constructor: x
? [complex, key]
: value
null: 1
1: one
projects:
  a:
    id: 9b000001-0000-4000-8000-000000000004
    id: 9b000001-0000-4000-8000-000000000005
    name: A
    name: A again
    message: "Hi, vote Tuesday. Reply STOP to opt out"
    contact_lists: [L]
    channel: 10dlc
    brand: B
    campaign: C
    phone_numbers: ["+15035550101"]
  "2":
    id: 9b000001-0000-4000-8000-000000000006
    name: Two
    message: "Hi, vote Tuesday. Reply STOP to opt out"
    contact_lists: [L]
    channel: 10dlc
    brand: B
    campaign: C
    phone_numbers: ["+15035550101"]
`,
  "tags.yaml": `%YAML 1.1
---
version: 1
projects:
  a:
    id: 9b000001-0000-4000-8000-000000000007
    name: !!str 12
    message: !!binary aGVsbG8=
    contact_lists: !!set {L}
    schedule: {at: 2027-01-12 10:00:00, timezone: America/Chicago}
`,
  "deep.yaml": `version: 1\nprojects: ${"[".repeat(70)}${"]".repeat(70)}\n`,
  "deep-ok.yaml": `version: 1\nlabels: ${"[".repeat(60)}1${"]".repeat(60)}\nprojects: {}\n`,
  "schema-errors.yaml": `version: 1
projects:
  a:
    id: not-a-uuid
    name: 12
    message: "Hi {{frist_name}}, vote Tuesday"
    contact_lists: L
    state: schedueld
    after: [b, nowhere]
  b:
    id: 9b000001-0000-4000-8000-000000000008
    name: B
    message: "Hi, vote Tuesday. Reply STOP to opt out"
    contact_lists: [L]
    channel: 10dlc
    brand: B
    campaign: C
    phone_numbers: ["+15035550101"]
    after: [a]
`,
  "ids.yaml": `version: 1
defaults: {channel: 10dlc, brand: B, campaign: C, phone_numbers: ["+15035550101"], contact_lists: [L]}
projects:
  a: {id: 9B000001-0000-4000-8000-00000000000A, name: A, message: "Hi. Reply STOP to opt out"}
  b: {id: 9b000001-0000-4000-8000-00000000000a, name: B, message: "Hi. Reply STOP to opt out"}
  c: {id: 9b000001-0000-4000-8000-00000000000a, name: C, message: "Hi. Reply STOP to opt out"}
  d: {id: 9B000001-0000-4000-8000-00000000000A, name: D, message: "Hi. Reply STOP to opt out"}
  e: {id: 9b000001-0000-4000-8000-00000000000A, name: E, message: "Hi. Reply STOP to opt out"}
  f: {id: 9b000001-0000-4000-8000-00000000000A, name: F, message: "Hi. Reply STOP to opt out"}
  g: {id: 9b000001-0000-4000-8000-00000000000b, name: G, message: "Hi. Reply STOP to opt out"}
  h: {id: 9b000001-0000-4000-8000-00000000000b, name: H, message: "Hi. Reply STOP to opt out"}
`,
  "empty-values.yaml": "version: 1\n: orphan\nprojects:\n  a:\n  b: ~\n  c: []\n",
  "flow-pairs.yaml": "version: 1\nlabels: [a: 1, {b: 2}, ? c]\nprojects: {}\n",
  // Issue 36 (i37-scale): a schedule and test contacts inherited from defaults (one object shared
  // by the projects), a project's own schedule and one set to nothing, \`after\` cycles, unknown
  // names and a send before the project it follows, and projects without \`after\` among them.
  "shared-defaults.yaml": `version: 1
defaults:
  channel: 10dlc
  brand: B
  campaign: C
  phone_numbers: ["+15035550101"]
  contact_lists: [L]
  state: scheduled
  schedule: {at: "2026-01-10T02:00:00-05:00", timezone: America/New_York}
  test:
    contacts:
      - {phone: "+15035550150", merge_values: {first_name: "Đặng"}}
projects:
  a: {id: 9b000001-0000-4000-8000-000000000011, name: A, message: "Hi {{first_name}}, vote Tuesday at your usual place. Reply STOP to opt out", after: [b]}
  b: {id: 9b000001-0000-4000-8000-000000000012, name: B, message: "Hi {{first_name}}, vote Tuesday at your usual place. Reply STOP to opt out", after: [a, c, nowhere]}
  c: {id: 9b000001-0000-4000-8000-000000000013, name: C, message: "Hi. Reply STOP to opt out", schedule: {at: "2027-06-01T14:00:00-04:00", timezone: America/New_York}}
  d: {id: 9b000001-0000-4000-8000-000000000014, name: D, message: "Hi. Reply STOP to opt out", after: [c], schedule: {at: "2027-05-01T14:00:00-04:00", timezone: America/New_York}}
  e: {id: 9b000001-0000-4000-8000-000000000015, name: E, message: "Hi. Reply STOP to opt out", state: draft, schedule: ~}
  f: {id: 9b000001-0000-4000-8000-000000000016, name: F, message: "Hi. Reply STOP to opt out"}
`,
};

/** Runs `main` on `args`; what a user sees of it. */
function run(main, args) {
  const child = spawnSync(process.execPath, [main, "validate", ...args], {
    env: {
      ...process.env,
      NO_COLOR: "1",
      CAMPAIGNCTL_VALIDATE_WORKERS: process.env.CAMPAIGNCTL_VALIDATE_WORKERS,
    },
    maxBuffer: 1024 * 1024 * 1024,
    encoding: "utf8",
  });
  // A process warning (the yaml library's, on a complex key) names the process id.
  return {
    status: child.status,
    stdout: child.stdout,
    stderr: child.stderr.replace(/\(node:\d+\)/g, "(node:PID)"),
  };
}

function firstDifference(a, b) {
  const x = a.split("\n");
  const y = b.split("\n");
  for (let i = 0; i < Math.max(x.length, y.length); i++)
    if (x[i] !== y[i]) return `line ${i + 1}:\n  this: ${x[i]}\n  ref:  ${y[i]}`;
  return "(none)";
}

let compared = 0;
function same(label, args) {
  for (const format of [["--format", "json"], ["--no-color"]]) {
    const mine = run(cli, [...args, ...format]);
    const theirs = run(ref, [...args, ...format]);
    for (const part of ["status", "stdout", "stderr"]) {
      if (mine[part] === theirs[part]) continue;
      console.log(`DIFFERENT: ${label} ${format.join(" ")}: ${part}`);
      console.log(firstDifference(String(mine[part]), String(theirs[part])));
      process.exitCode = 1;
      return false;
    }
    compared++;
    console.log(`same: ${label} ${format.join(" ")} (exit ${mine.status}, ${mine.stdout.length} bytes)`);
  }
  return true;
}

const yamlFiles = (dir) =>
  readdirSync(dir, { recursive: true })
    .map((name) => join(dir, String(name)))
    .filter((path) => path.endsWith(".yaml") && statSync(path).isFile())
    .sort();

inTempDir("campaignctl-bench-same-", (dir) => {
  const now = ["--now", SCALE_NOW];
  let ok = same("examples/", [join(repo, "examples"), ...now]);
  for (const file of [
    ...yamlFiles(join(repo, "examples")),
    ...yamlFiles(join(repo, "test/fixtures")),
    ...yamlFiles(join(repo, "test/gallery")),
  ]) {
    if (!ok) return;
    ok = same(file.slice(repo.length), [file, ...now]);
  }
  const small = join(dir, "small");
  writeFileSync(join(dir, "projects.yaml"), projectsText("p", 400));
  writeFileSync(join(dir, "templates.yaml"), templatesText(120));
  for (const name of ["projects.yaml", "templates.yaml"])
    if (ok) ok = same(`lsp corpus ${name}`, [join(dir, name), ...now]);
  for (const [name, text] of Object.entries(CRAFTED)) {
    if (!ok) return;
    writeFileSync(join(dir, name), text);
    ok = same(`crafted ${name}`, [join(dir, name), ...now]);
  }
  if (!ok || process.env.BENCH_QUICK) return;
  const scale = join(dir, "scale");
  spawnSync("mkdir", [scale, small]);
  for (const [name, text] of scaleFiles(10_000, 100)) writeFileSync(join(scale, name), text);
  for (const [name, text] of scaleFiles(300, 3)) writeFileSync(join(small, name), text);
  ok =
    same("scale 300 projects in 3 files", [small, ...now]) &&
    same("scale 10,000 projects in 100 files", [scale, ...now]);
  if (!ok) return;
  writeFileSync(join(dir, "everything.yaml"), oneFile().text);
  same("one-file", [join(dir, "everything.yaml"), "--now", ONE_FILE_NOW]);
});
console.log(
  process.exitCode === 1
    ? "validate's output DIFFERS from the reference build"
    : `same bytes in all ${compared} runs`,
);
