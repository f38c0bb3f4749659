/**
 * A recording killed with SIGKILL (the built CLI as a real process, `node dist/cli/main.js results
 * record`) leaves no half batch, then the next recording completes the store exactly as one
 * uninterrupted recording makes it. The sandbox runs in this process on a frozen virtual clock, so
 * every run records the same hour. Only the run that is killed is a process; the uninterrupted
 * recording it is compared with and the run that completes the store after it run in-process
 * (`run` of cli/main.ts, the same flags and keys, the sandbox's clock as the machine's): their
 * outcome is the store they write, not the process.
 *
 * Files: 40 organizations (a file each) are written one after another, each batch through a synced
 * temporary file renamed over the month's file; the run is killed as soon as the first file
 * appears, in the middle of the batches. Every file then holds whole lines, each the line an
 * uninterrupted run writes (killed mid-write, an append would leave a torn tail here: this test saw
 * it before the files were written by renaming). PostgreSQL: the test holds a SHARE lock on the
 * snapshot table, so the run's transaction (its reads done) waits at its INSERT; the run is killed
 * there, the lock released, and no row of the batch exists.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as pause } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { BUILT_CLI, runCli } from "../helpers/run-cli.js";
import { generateOrgWorld, startOrgWorld, worldKeyEnvironment } from "../support/org-world.js";
import { storeLines } from "./harness.js";
import { freshDatabase, HAVE_POSTGRES, query, warnSkipped } from "./postgres.js";

warnSkipped("test/results/kill.test.ts");

const world = generateOrgWorld({ orgs: 40, projects: 25 });
let sb: SandboxHandle;

beforeAll(async () => {
  sb = await startOrgWorld(world, { timeScale: 0 });
});
afterAll(async () => {
  expect(sb.bugs).toEqual([]);
  await sb.close();
});

interface Run {
  readonly child: ChildProcess;
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

function startRecording(
  cwd: string,
  extraArgs: readonly string[] = [],
  env: Record<string, string> = {},
): Run {
  const child = spawn(
    process.execPath,
    [BUILT_CLI, "results", "record", "--base-url", sb.baseUrl, ...extraArgs],
    {
      cwd,
      env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", ...worldKeyEnvironment(world), ...env },
    },
  );
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => child.on("close", (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, done };
}

/** `results record` in-process to its end, on the files store (nothing kills it). */
async function recordInProcess(cwd: string): Promise<{ code: number; stderr: string }> {
  return runCli(["results", "record", "--base-url", sb.baseUrl], {
    cwd,
    env: worldKeyEnvironment(world),
    clock: () => sb.clock.nowMs(),
  });
}

/** A store's month files by path, each line without its `at` (the API's clock as each run read it, to the ms). */
const files = (cwd: string): Record<string, string> => {
  const dir = join(cwd, "results");
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  for (const org of readdirSync(dir).filter((n) => !n.startsWith(".")))
    for (const name of readdirSync(join(dir, org)).filter((n) => /^\d{4}-\d{2}\.jsonl$/.test(n)))
      out[`${org}/${name}`] = readFileSync(join(dir, org, name), "utf8").replace(/"at":"[^"]*",/g, "");
  return out;
};

describe("a recording killed mid-batch", () => {
  it("files: whole lines only, and the next run completes the store as one run makes it", {
    timeout: 120_000,
  }, async () => {
    const whole = mkdtempSync(join(tmpdir(), "campaignctl-results-whole-"));
    const uninterrupted = await recordInProcess(whole);
    expect(uninterrupted.code, uninterrupted.stderr).toBe(0);
    expect(Object.keys(files(whole))).toHaveLength(40);

    let killedMidway = false;
    for (let attempt = 0; attempt < 5 && !killedMidway; attempt++) {
      const cwd = mkdtempSync(join(tmpdir(), "campaignctl-results-kill-"));
      const run = startRecording(cwd);
      let exited = false;
      void run.done.then(() => {
        exited = true;
      });
      while (!exited && Object.keys(files(cwd)).length === 0) await pause(1);
      run.child.kill("SIGKILL");
      const killed = await run.done;
      const left = files(cwd);
      if (killed.signal !== "SIGKILL" || Object.keys(left).length >= 40) continue;
      killedMidway = true;
      storeLines(join(cwd, "results"));
      const complete = files(whole);
      for (const [file, text] of Object.entries(left)) {
        const a = text.split("\n");
        const b = (complete[file] ?? "").split("\n");
        const i = a.findIndex((line, n) => line !== b[n]);
        expect(a[i], `${file} line ${i + 1}`).toBe(b[i]);
      }
      const again = await recordInProcess(cwd);
      expect(again.code, again.stderr).toBe(0);
      const after = files(cwd);
      for (const [file, text] of Object.entries(complete)) expect(after[file], file).toBe(text);
      expect(Object.keys(after).sort()).toEqual(Object.keys(complete).sort());
      // A temporary file the kill left is gone.
      for (const org of readdirSync(join(cwd, "results")).filter((n) => !n.startsWith(".")))
        expect(readdirSync(join(cwd, "results", org)).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    }
    expect(killedMidway, "a kill landed while the batches were being written").toBe(true);
  });

  it.runIf(HAVE_POSTGRES)(
    "PostgreSQL: killed inside its transaction, no row of the batch exists; the next run writes it",
    { timeout: 120_000 },
    async () => {
      const db = await freshDatabase();
      const holder = new pg.Client({ connectionString: db.url });
      try {
        const env = { CAMPAIGNCTL_RESULTS_DATABASE_URL: db.url };
        const cwd = mkdtempSync(join(tmpdir(), "campaignctl-results-pgkill-"));
        // A first run migrates (and records); the test's hour then moves on.
        expect((await startRecording(cwd, ["--store", "postgres"], env).done).code).toBe(0);
        const count = async () =>
          Number(
            (await query<{ n: string }>(db.url, "SELECT count(*) AS n FROM campaignctl_results_snapshots"))[0]
              ?.n,
          );
        const before = await count();
        await sb.clock.advance(3_600_000);
        renameAll(); // so the next hour has something to write
        await holder.connect();
        await holder.query("BEGIN");
        await holder.query("LOCK TABLE campaignctl_results_snapshots IN SHARE MODE");
        const run = startRecording(cwd, ["--store", "postgres"], env);
        // Wait until the run's INSERT waits for the table (its transaction open, its reads done).
        for (let i = 0; i < 2000; i++) {
          const waiting = await query<{ n: string }>(
            db.url,
            "SELECT count(*) AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'campaignctl_results_snapshots' AND NOT l.granted AND l.mode = 'RowExclusiveLock'",
          );
          if (Number(waiting[0]?.n) > 0) break;
          await pause(10);
        }
        run.child.kill("SIGKILL");
        expect((await run.done).signal).toBe("SIGKILL");
        await holder.query("COMMIT");
        // The server ends the dead client's transaction without committing it.
        for (let i = 0; i < 500; i++) {
          const open = await query<{ n: string }>(
            db.url,
            "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND xact_start IS NOT NULL AND pid <> pg_backend_pid()",
          );
          if (Number(open[0]?.n) === 0) break;
          await pause(10);
        }
        expect(await count()).toBe(before);
        const again = await startRecording(cwd, ["--store", "postgres"], env).done;
        expect(again.code, again.stderr).toBe(0);
        expect(await count()).toBe(before + world.organizations.length * 25);
      } finally {
        await holder.end().catch(() => undefined);
        await db.drop();
      }
    },
  );
});

/** Renames every project (a dashboard edit), so each differs from its last snapshot. */
function renameAll(): void {
  sb.store.mutate((w) => {
    for (const p of Object.values(w.projects)) p.name = `${p.name} (renamed)`;
  });
}
