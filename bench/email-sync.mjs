// Email list sync at scale (issue 29): rows per second and peak memory of `validate` (the CSV
// checked offline, streaming) and of `apply` (the CSV checked, then upserted in batches of 1,000
// to a standalone sandbox, with per-row result files), for a CSV of N rows generated in a temp dir.
// Targets: the memory of both commands does not grow with the rows beyond the duplicate index
// (12 bytes a distinct address): peak RSS at 1,000,000 rows under 2x the peak at 100,000, and under
// 300 MiB. Each apply is also checked (the issue's acceptance at sizes the suite cannot afford; the
// suite's test/email/sync.test.ts uses 10,005 rows): ceil(N / 1,000) upserts in the sandbox's
// request log, each 200; the per-row result file's accepted addresses equal the list's contents in
// the sandbox (GET /_sandbox/email/lists/{id}); and, up to 100,000 rows, a re-run replays every
// batch (no new write: the list's size is unchanged). Not part of campaignctl.
//
//   npm run build
//   node bench/email-sync.mjs                     # 100000 and 1000000 rows, validate and apply
//   node bench/email-sync.mjs 100000              # one size
//   BENCH_VALIDATE_ONLY=1 node bench/email-sync.mjs 1000000
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { mib, printMachine, runCli } from "./lib.mjs";

const cli = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const SIZES = sizes.length > 0 ? sizes : [100_000, 1_000_000];
const KEY = "pc_live_sbx_bench_rw_0123456789";
const ORG = "org_bench";
const LIST = "list_bench";

printMachine(1);
process.env.CAMPAIGNCTL_API_KEY = KEY;
const peaks = new Map();
let ok = true;

for (const rows of SIZES) {
  await inTempDirAsync(`campaignctl-email-bench-`, async (dir) => {
    await writeCsv(join(dir, "campaign", "people.csv"), rows);
    writeFileSync(
      join(dir, "campaign", "email.yaml"),
      `version: 1\norganization: Bench\nemail_lists:\n  people:\n    id: ${LIST}\n    csv: people.csv\n`,
    );
    const v = runCli(
      ["validate", "--format", "json", join(dir, "campaign")],
      join(dir, "rss-validate"),
      64 << 20,
    );
    const vOk = v.child.status === 0;
    ok &&= vOk;
    console.log(
      `validate ${rows} rows: ${v.wallMs.toFixed(0)} ms wall, ${Math.round(rows / (v.wallMs / 1000))} rows/s, cpu ${v.cpuMs} ms, peak RSS ${mib(v.peak, 1)}${vOk ? "" : ` FAILED (exit ${v.child.status})`}`,
    );
    peaks.set(`validate ${rows}`, v.peak);
    if (process.env.BENCH_VALIDATE_ONLY) return;
    const fixture = join(dir, "fixture.yaml");
    writeFileSync(
      fixture,
      [
        "version: 1",
        "clock:",
        '  start: "2026-12-01T15:00:00Z"',
        "organizations:",
        `  - id: ${ORG}`,
        "    name: Bench",
        '    created_at: "2025-01-01T00:00:00Z"',
        "    email_available: true",
        "api_keys:",
        "  - id: key_bench",
        `    key: ${KEY}`,
        "    name: bench",
        `    organization_id: ${ORG}`,
        "    type: read-write",
        "    scopes: [public:read, public:write]",
        "email:",
        "  lists:",
        `    - id: ${LIST}`,
        "      name: Bench list",
        `      organization_id: ${ORG}`,
        "",
      ].join("\n"),
    );
    const sandbox = spawn(
      process.execPath,
      [cli, "sandbox", "--port", "0", "--fixture", fixture, "--no-rate-limits", "--json"],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      const [line] = await once(sandbox.stdout, "data");
      const info = JSON.parse(String(line).split("\n")[0]);
      const applyArgs = [
        "apply",
        "--auto-approve",
        "--json",
        "--base-url",
        info.base_url,
        join(dir, "campaign"),
      ];
      const a = runCli(applyArgs, join(dir, "rss-apply"), 256 << 20, dir);
      const doc = a.child.status === 0 ? JSON.parse(a.child.stdout) : null;
      const accepted = doc?.email?.lists?.[0]?.accepted ?? 0;
      const aOk = a.child.status === 0 && accepted === rows;
      ok &&= aOk;
      console.log(
        `apply    ${rows} rows: ${a.wallMs.toFixed(0)} ms wall, ${Math.round(rows / (a.wallMs / 1000))} rows/s (read twice: plan, then sync), ${Math.ceil(rows / 1000)} batches, cpu ${a.cpuMs} ms, peak RSS ${mib(a.peak, 1)}${aOk ? "" : ` FAILED (exit ${a.child.status}, ${accepted} accepted): ${a.child.stderr.slice(0, 400)}`}`,
      );
      const checks = aOk ? await checkSync(info.root_url, doc, rows, dir) : "not checked (apply failed)";
      ok &&= checks.startsWith("ok");
      console.log(`check    ${rows} rows: ${checks}`);
      if (aOk && rows <= 100_000) {
        const r = runCli(applyArgs, join(dir, "rss-reapply"), 256 << 20, dir);
        const again = r.child.status === 0 ? JSON.parse(r.child.stdout) : null;
        const outcomes = again?.email?.lists?.[0]?.batches?.map((b) => b.outcome) ?? [];
        const size = (await admin(info.root_url, `/email/lists/${LIST}`)).contacts.length;
        const replayed =
          r.child.status === 0 &&
          outcomes.length === Math.ceil(rows / 1000) &&
          outcomes.every((o) => o === "replayed") &&
          size === rows;
        ok &&= replayed;
        console.log(
          `re-run   ${rows} rows: ${r.wallMs.toFixed(0)} ms wall, ${outcomes.length} batches, ${replayed ? "every batch replayed, list unchanged" : `NOT REPLAYED (exit ${r.child.status}, outcomes ${[...new Set(outcomes)].join(",")}, list ${size})`}`,
        );
      }
      peaks.set(`apply ${rows}`, a.peak);
    } finally {
      sandbox.kill();
    }
  });
}

if (SIZES.length === 2) {
  for (const cmd of ["validate", "apply"]) {
    const small = peaks.get(`${cmd} ${SIZES[0]}`);
    const large = peaks.get(`${cmd} ${SIZES[1]}`);
    if (small === undefined || large === undefined) continue;
    const flat = large < 2 * small && large < 300 * 1024 * 1024;
    ok &&= flat;
    console.log(
      `${cmd}: peak RSS ${mib(small, 1)} -> ${mib(large, 1)} for ${SIZES[1] / SIZES[0]}x the rows: ${flat ? "flat (target met)" : "GROWS (target missed)"}`,
    );
  }
}
process.exitCode = ok ? 0 : 1;

/** GET /_sandbox{path} of the standalone sandbox: the `data` of the answer. */
async function admin(rootUrl, path) {
  const res = await fetch(`${rootUrl}/_sandbox${path}`);
  if (!res.ok) throw new Error(`GET /_sandbox${path}: ${res.status}`);
  return (await res.json()).data;
}

/**
 * The acceptance checks of one apply: the upsert requests in the sandbox's log, and the result
 * file's accepted addresses (the file is relative to `cwd`, where apply ran) against the list's
 * contents. "ok: ..." or what differs.
 */
async function checkSync(rootUrl, doc, rows, cwd) {
  const log = await admin(rootUrl, "/requests");
  const upserts = log.requests.filter(
    (r) => r.method === "POST" && r.path.endsWith(`/email/lists/${LIST}/contacts`),
  );
  const batches = Math.ceil(rows / 1000);
  const logged = log.counts.per_route["POST /email/lists/{id}/contacts"] ?? 0;
  if (logged !== batches || upserts.length !== batches || !upserts.every((r) => r.status === 200))
    return `FAILED: ${logged} upserts logged (${upserts.length} kept, statuses ${[...new Set(upserts.map((r) => r.status))].join(",")}), expected ${batches} of 200`;
  const file = resolve(cwd, doc.email.results_files.people);
  const accepted = new Set();
  let lines = 0;
  for await (const line of createInterface({ input: createReadStream(file) })) {
    if (line === "") continue;
    lines += 1;
    const r = JSON.parse(line);
    if (r.status === "accepted") accepted.add(r.email);
  }
  const contents = (await admin(rootUrl, `/email/lists/${LIST}`)).contacts;
  const missing = contents.filter((c) => !accepted.has(c.email)).length;
  if (lines !== rows || accepted.size !== rows || contents.length !== rows || missing !== 0)
    return `FAILED: ${lines} result lines, ${accepted.size} accepted, ${contents.length} in the list, ${missing} of them not accepted in the results`;
  return `ok: ${batches} upserts of 200 in the sandbox's request log; the ${rows} accepted rows of the result file equal the list's ${contents.length} contacts`;
}

async function writeCsv(path, rows) {
  mkdirSync(join(path, ".."), { recursive: true });
  const out = createWriteStream(path);
  out.write("email,consent_source,consent_at,first_name,city\n");
  for (let i = 0; i < rows; i++) {
    if (!out.write(`voter${i}@example.org,signup form,2026-03-01T09:30:00Z,Voter ${i},Riverside\n`))
      await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

async function inTempDirAsync(prefix, body) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    await body(dir);
  } finally {
    if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
    else console.log(`kept:    ${dir}`);
  }
}
