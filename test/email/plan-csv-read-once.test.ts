/**
 * `plan` counts an email list's rows and takes its digest from one read of one open file: the
 * digest it records (which `apply` checks the CSV against before sending) is that of the rows it
 * shows. Before, it counted the rows through one open of the path and hashed the file through a
 * second: a CSV rewritten in between (an export still being written) was shown with its old rows
 * and recorded with the new file's digest, so apply sent rows the plan never showed. The file is
 * rewritten here at the second open of the CSV (`fs/promises.open` is wrapped), which the plan no
 * longer makes; real HTTP against the sandbox.
 */
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { TestBed } from "../apply/helpers.js";
import { csvText, emailBed, planWorld } from "./world.js";

/**
 * Runs at each open of a file by path (`fs/promises.open`, which every CSV read goes through), while
 * a test sets it. The builtin is wrapped process-wide and put back after each test (the suite's
 * workers share their module cache, so a module mock would not reach the modules already loaded).
 */
let onOpen: ((path: string) => void) | undefined;
const fsp = createRequire(import.meta.url)("node:fs/promises") as { open: (...args: unknown[]) => unknown };
const realOpen = fsp.open;
beforeEach(() => {
  fsp.open = (...args: unknown[]) => {
    if (typeof args[0] === "string") onOpen?.(args[0]);
    return realOpen(...args);
  };
  syncBuiltinESMExports();
});

let beds: TestBed[] = [];
afterEach(async () => {
  onOpen = undefined;
  fsp.open = realOpen;
  syncBuiltinESMExports();
  for (const b of beds) {
    await b.close();
    rmSync(b.world.dir, { recursive: true, force: true });
  }
  beds = [];
});

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("plan reads an email list's CSV once", () => {
  test("a CSV rewritten after the plan first opened it: the digest recorded is that of the rows shown", async () => {
    const bed = await emailBed({ campaigns: false, donors: false, childRows: 3, texts: {} });
    beds.push(bed);
    const csv = join(bed.world.dir, "campaign", "lists", "young.csv");
    const shown = readFileSync(csv);
    let opens = 0;
    onOpen = (path) => {
      if (path !== csv) return;
      opens++;
      if (opens === 2) writeFileSync(csv, csvText(500, "unshown"));
    };
    const run = await planWorld(bed, { json: true });
    expect(opens).toBeGreaterThanOrEqual(1);
    const list = JSON.parse(run.stdout).email.lists[0];
    expect(list).toMatchObject({ rows: 3, to_send: 3 });
    expect(list.sha256).toBe(sha256(shown));
  }, 60_000);
});
