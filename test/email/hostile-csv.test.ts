/**
 * Hostile CSV files (issue 34, points 6 and 7): bad bytes are findings, never sent; only regular
 * files are read.
 *
 * - invalid UTF-8 (a Latin-1 export) and a NUL byte: `email.csv-encoding` at the row, naming the
 *   column; the row is refused before any request, the others go;
 * - a UTF-16 file, little- and big-endian, with and without a byte-order mark: one
 *   `email.csv-encoding` at the `csv:` line, with the iconv command that converts it;
 * - a named pipe, a directory, devices (/dev/zero, /dev/urandom, named directly or through a symlink
 *   in the repository): `email.csv-unreadable` at once, never a hang (a FIFO would block the read
 *   for ever: each test has a time limit far below vitest's);
 * - a column named `__proto__` (or `constructor`) is a merge field like any other, and is sent;
 * - validate, plan and apply agree: apply sends none of the refused rows (the sandbox's list holds
 *   exactly the good rows, with every column).
 */
import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { stringify } from "yaml";
import { requestLog, runApply, type TestBed } from "../apply/helpers.js";
import { runCli } from "../helpers/run-cli.js";
import { admin } from "../sandbox/helpers.js";
import { CHILD_LIST, emailBed } from "./world.js";

let dirs: string[] = [];
let beds: TestBed[] = [];
afterEach(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
  for (const b of beds) {
    await b.close();
    rmSync(b.world.dir, { recursive: true, force: true });
  }
  beds = [];
});

/** A repository with one email list whose CSV is `csv` (bytes), or a path made by `make`. */
function repo(csv: Uint8Array | ((path: string) => void), list: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "campaignctl-hostile-csv-"));
  dirs.push(dir);
  mkdirSync(join(dir, ".git"));
  mkdirSync(join(dir, "campaign", "lists"), { recursive: true });
  const path = join(dir, "campaign", "lists", "people.csv");
  if (typeof csv === "function") csv(path);
  else writeFileSync(path, csv);
  writeFileSync(
    join(dir, "campaign", "email.yaml"),
    stringify({ version: 1, email_lists: { people: { id: "el_1", csv: "lists/people.csv", ...list } } }),
  );
  return dir;
}

interface Found {
  code: string;
  message: string;
  hint?: string;
  range: { file: string; start: { line: number } };
}

async function validate(dir: string): Promise<{ code: number; found: Found[] }> {
  const run = await runCli(["validate", "--json", "campaign"], { cwd: dir });
  expect(run.stderr).not.toMatch(/internal error/);
  return { code: run.code, found: JSON.parse(run.stdout).diagnostics };
}

const at = (found: Found[]) => found.map((d) => `${d.range.file}:${d.range.start.line} ${d.code}`);
const bytes = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p))));

const HEADER = "email,first_name,city\n";

describe("bad bytes in a CSV are findings at their row and column, never sent", () => {
  test("invalid UTF-8 and a NUL byte: each row refused with its line and column; the good rows pass", async () => {
    const dir = repo(
      bytes(
        HEADER,
        "ann@example.org,Ann,Riverside\n",
        "jose@example.org,Jos",
        [0xe9],
        ",Riverside\n", // Latin-1 é: line 3, first_name
        "nul@example.org,Nu",
        [0x00],
        "l,Lakeview\n", // a NUL: line 4, first_name
        "ok@example.org,Zoë,M",
        [0xc3, 0xbc],
        "nchen\n", // valid UTF-8 (ü): sent
        "cut@example.org,Bo,",
        [0xe2, 0x82],
        "\n", // a sequence cut short at the end of the value: line 6, city
        "surrogate@example.org,",
        [0xed, 0xa0, 0x80],
        ",X\n", // an encoded surrogate is not UTF-8: line 7
      ),
    );
    const { code, found } = await validate(dir);
    expect(code).toBe(1);
    expect(at(found)).toEqual([
      "campaign/lists/people.csv:3 email.csv-encoding",
      "campaign/lists/people.csv:4 email.csv-encoding",
      "campaign/lists/people.csv:6 email.csv-encoding",
      "campaign/lists/people.csv:7 email.csv-encoding",
    ]);
    expect(found.map((d) => d.message)).toEqual([
      'line 3, column "first_name": the value is not valid UTF-8 (byte 0xE9 at byte 4 of the value); the row is not sent',
      'line 4, column "first_name": the value holds a NUL byte (at byte 3 of the value); the row is not sent',
      'line 6, column "city": the value is not valid UTF-8 (byte 0xE2 at byte 1 of the value); the row is not sent',
      'line 7, column "first_name": the value is not valid UTF-8 (byte 0xED at byte 1 of the value); the row is not sent',
    ]);
    expect(found[0]?.hint).toContain("iconv -f WINDOWS-1252 -t UTF-8");
  });

  test("a header that is not UTF-8 stops the list at line 1; a UTF-8 byte-order mark is read as before", async () => {
    const broken = await validate(repo(bytes("email,first_n", [0xe4], "me\nann@example.org,Ann\n")));
    expect(at(broken.found)).toEqual(["campaign/lists/people.csv:1 email.csv-encoding"]);
    const bom = await validate(repo(bytes([0xef, 0xbb, 0xbf], HEADER, "ann@example.org,Ann,X\nbad,Bo,Y\n")));
    expect(at(bom.found)).toEqual(["campaign/lists/people.csv:3 email.invalid-address"]);
  });

  test.each([
    ["little-endian, with a byte-order mark", "utf16le", true, "iconv -f UTF-16 -t UTF-8"],
    ["big-endian, with a byte-order mark", "utf16be", true, "iconv -f UTF-16 -t UTF-8"],
    ["little-endian, without a byte-order mark", "utf16le", false, "iconv -f UTF-16LE -t UTF-8"],
    ["big-endian, without a byte-order mark", "utf16be", false, "iconv -f UTF-16BE -t UTF-8"],
  ] as const)(
    "a UTF-16 file (%s): one finding at the csv: line, with how to convert it",
    async (_what, order, bom, hint) => {
      const text = `${bom ? "\uFEFF" : ""}${HEADER}ann@example.org,Ann,Riverside\n`;
      const le = Buffer.from(text, "utf16le");
      const file = order === "utf16le" ? le : Buffer.from(le).swap16();
      const { code, found } = await validate(repo(file));
      expect(code).toBe(1);
      expect(at(found)).toEqual(["campaign/email.yaml:5 email.csv-encoding"]);
      expect(found[0]?.message).toContain("is UTF-16");
      expect(found[0]?.hint).toContain(
        `${hint} campaign/lists/people.csv > campaign/lists/people-utf8.csv, then name campaign/lists/people-utf8.csv under csv:`,
      );
    },
  );

  test("a column named __proto__ or constructor is a merge field like any other", async () => {
    const dir = repo(bytes("email,__proto__,constructor\nann@example.org,a,b\n"));
    expect(await validate(dir)).toEqual({ code: 0, found: [] });
  });
});

describe("only regular files are read", () => {
  test("a named pipe (FIFO) is email.csv-unreadable at once, in validate and plan", {
    timeout: 10_000,
  }, async () => {
    const dir = repo((path) => execFileSync("mkfifo", [path]));
    const { code, found } = await validate(dir);
    expect(code).toBe(1);
    expect(at(found)).toEqual(["campaign/email.yaml:5 email.csv-unreadable"]);
    expect(found[0]?.message).toContain("a named pipe (FIFO), not a regular file");
    // A symlink in the repository to the pipe: the same.
    const linked = repo((path) => {
      execFileSync("mkfifo", [`${path}.fifo`]);
      symlinkSync(`${path}.fifo`, path);
    });
    expect(at((await validate(linked)).found)).toEqual(["campaign/email.yaml:5 email.csv-unreadable"]);
  });

  test("a directory, a socket, and devices named directly or through a symlink: unreadable at once", {
    timeout: 10_000,
  }, async () => {
    const directory = repo((path) => mkdirSync(path));
    const found = (await validate(directory)).found;
    expect(at(found)).toEqual(["campaign/email.yaml:5 email.csv-unreadable"]);
    expect(found[0]?.message).toContain("a directory, not a regular file");
    // A socket: a listening Unix socket at the CSV's path.
    let socket: Server | undefined;
    const listening = repo((path) => {
      socket = createServer();
      socket.listen(path);
    });
    await new Promise<void>((resolve) => socket?.once("listening", () => resolve()));
    const bySocket = (await validate(listening)).found;
    socket?.close();
    expect(at(bySocket)).toEqual(["campaign/email.yaml:5 email.csv-unreadable"]);
    for (const device of ["/dev/zero", "/dev/urandom"]) {
      const linked = repo((path) => symlinkSync(device, path));
      expect(at((await validate(linked)).found)).toEqual(["campaign/email.yaml:5 email.csv-unreadable"]);
      const named = repo(bytes(HEADER), { csv: device });
      expect(at((await validate(named)).found)).toEqual(["campaign/email.yaml:5 email.csv-unreadable"]);
    }
  });
});

describe("apply sends none of the refused rows", () => {
  test("invalid UTF-8, NUL and a __proto__ column: the list holds exactly the good rows, every column with them", async () => {
    const bed = await emailBed({ campaigns: false, childRows: 0, donors: false });
    beds.push(bed);
    writeFileSync(
      join(bed.world.dir, "campaign", "lists", "young.csv"),
      bytes(
        "email,consent_source,consent_at,first_name,__proto__\n",
        "ann@example.org,form,2026-03-01T09:30:00Z,Ann,a\n",
        "jose@example.org,form,2026-03-01T09:30:00Z,Jos",
        [0xe9],
        ",b\n",
        "nul@example.org,form,2026-03-01T09:30:00Z,Nu",
        [0x00],
        "l,c\n",
        "zoe@example.org,form,2026-03-01T09:30:00Z,Zo",
        [0xc3, 0xab],
        ",d\n",
      ),
    );
    const plan = await runCli(["plan", "campaign", "--base-url", bed.sb.baseUrl, "--json"], {
      cwd: bed.world.dir,
      env: bed.io.env,
      clock: bed.io.clock,
    });
    const listPlan = JSON.parse(plan.stdout).email.lists[0];
    expect(listPlan).toMatchObject({
      rows: 4,
      to_send: 2,
      refused: 2,
      refused_by_code: { "email.csv-encoding": 2 },
    });

    const run = await runApply(bed, ["campaign"], { autoApprove: true, json: true });
    expect(run.code, run.stderr).toBe(1);
    const contents = (await admin(bed.sb, "GET", `/email/lists/${CHILD_LIST}`)).body.data.contacts as {
      email: string;
      fields: Record<string, string>;
    }[];
    expect(contents.map((c) => c.email)).toEqual(["ann@example.org", "zoe@example.org"]);
    expect(contents.map((c) => JSON.stringify(c.fields))).toEqual([
      '{"first_name":"Ann","__proto__":"a"}',
      '{"first_name":"Zoë","__proto__":"d"}',
    ]);
    const posts = (await requestLog(bed.sb)).filter(
      (r) => r.method === "POST" && r.path.includes(CHILD_LIST),
    );
    expect(posts).toHaveLength(1);
    const journal = join(bed.world.dir, ".campaignctl", "journal");
    const results = readdirSync(journal)
      .filter((f) => f.startsWith("email-"))
      .flatMap((f) => readFileSync(join(journal, f), "utf8").trim().split("\n"))
      .map((l) => JSON.parse(l) as { line: number; status: string; reason: string | null })
      .sort((a, b) => a.line - b.line);
    expect(results.map((r) => [r.line, r.status])).toEqual([
      [2, "accepted"],
      [3, "refused"],
      [4, "refused"],
      [5, "accepted"],
    ]);
    expect(results[1]?.reason).toMatch(/^email\.csv-encoding: line 3, column "first_name"/);
  });
});
