/**
 * A write to the record that fails (a disk filling up, a file size limit), once or for a while:
 * an event is answered 200 only when its whole line is on disk, and a marker the disk refuses
 * (`printed`, after the event's line was flushed) loses only the marker: its event is answered,
 * and no later line is glued to the part of the marker that was written.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { DEDUPE_FILE_NAME, openRecordStore } from "../../src/webhooks/record-store.js";
import { BUILT_CLI } from "../helpers/run-cli.js";
import { MemoryLogs } from "../support/memory-log.js";
import { jsonLines, paddedDelivery, signedDelivery, testReceiver } from "./harness.js";

const SECRET = "whsec_Hn4tQ8wE2rY6uI0oP3aS5dF7";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const delivery = (id: string, padding: number) => paddedDelivery(SECRET, id, padding);

/**
 * The built listener on `state`, under a file size limit of `limitKiB` (bash's `ulimit -f`: a
 * write past it writes what fits and says so only in its count; the next write fails EFBIG).
 * Posts each delivery in turn (the status, or null when no answer came within 5 s), stops it, and
 * gives the statuses and the JSON lines it printed.
 */
async function listenerRun(
  state: string,
  limitKiB: number | null,
  deliveries: readonly ReturnType<typeof delivery>[],
): Promise<{ statuses: (number | null)[]; lines: Record<string, unknown>[] }> {
  const command = `${limitKiB === null ? "" : `ulimit -f ${limitKiB}; `}exec "${process.execPath}" "${BUILT_CLI}" webhooks listen --port 0 --json --state "${state}" --secret-env WH_SECRET`;
  const child = spawn("bash", ["-c", command], {
    env: { ...process.env, NO_COLOR: "1", WH_SECRET: SECRET },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      const first = stdout.split("\n")[0] ?? "";
      if (stdout.includes("\n")) resolve(String((JSON.parse(first) as { url: string }).url));
    });
    child.once("exit", () => reject(new Error(`listener ended before listening: ${stdout}`)));
  });
  const statuses: (number | null)[] = [];
  for (const d of deliveries) {
    try {
      const res = await fetch(`${url}/hooks`, {
        method: "POST",
        headers: d.headers,
        body: d.body,
        signal: AbortSignal.timeout(5000),
      });
      await res.arrayBuffer();
      statuses.push(res.status);
    } catch {
      statuses.push(null);
    }
  }
  child.kill("SIGTERM");
  await exited;
  return { statuses, lines: jsonLines(stdout) };
}

const acceptedIds = (lines: Record<string, unknown>[]) =>
  lines.filter((l) => l.type === "accepted").map((l) => l.event_id);

describe.skipIf(process.platform === "win32")("a record write the disk takes only part of", () => {
  test("the event whose line was cut short is answered 503 (not recorded), not printed; the next run takes its retry once", async () => {
    const state = mkdtempSync(join(tmpdir(), "campaignctl-short-write-"));
    dirs.push(state);
    const small = delivery("evt_small", 100);
    // Its record line (the body in base64 and the payload) runs past the 8 KiB limit.
    const big = delivery("evt_big", 9000);
    const first = await listenerRun(state, 8, [small, big, big]);
    expect(first.statuses).toEqual([200, 503, 503]);
    expect(acceptedIds(first.lines)).toEqual(["evt_small"]);
    const second = await listenerRun(state, null, [big, small]);
    expect(second.statuses).toEqual([200, 200]);
    expect(acceptedIds(second.lines)).toEqual(["evt_big"]);
    expect(second.lines.find((l) => l.type === "listening")?.remembered).toBe(1);
  }, 30_000);
});

describe("a marker the disk refuses", () => {
  test("the event is answered 200 all the same, and the line after it stands alone: a restart remembers both events, the cut marker skipped", async () => {
    const logs = new MemoryLogs();
    let refuse = 1;
    const failing = {
      read: (name: string) => logs.read(name),
      open: (name: string) => {
        const log = logs.open(name);
        return {
          ...log,
          append(text: string) {
            if (refuse > 0 && text.includes('"t":"printed"')) {
              refuse -= 1;
              log.append(text.slice(0, 10)); // part of it written, then the disk refuses
              throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
            }
            log.append(text);
          },
        };
      },
    };
    const opened = openRecordStore(failing, "state/dedupe.jsonl");
    if (!opened.ok) throw new Error(opened.diagnostic.message);
    const receiver = testReceiver(opened.file);
    const hung = new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 2000));
    const first = await Promise.race([receiver.receive(signedDelivery(1)).then((a) => a.status), hung]);
    expect(first).toBe(200);
    expect((await receiver.receive(signedDelivery(2))).status).toBe(200);
    const again = openRecordStore(logs, "state/dedupe.jsonl");
    if (!again.ok) throw new Error(again.diagnostic.message);
    expect(again.file.record.seen("evt_1", "other").kind).toBe("duplicate-event");
    expect(again.file.record.seen("evt_2", "other").kind).toBe("duplicate-event");
    // evt_2's `printed` marker covers every event before it.
    expect(again.file.recovery.unprinted).toEqual([]);
    expect(again.file.recovery.skipped).toBe(1);
    expect(logs.read(DEDUPE_FILE_NAME).toString("utf8").endsWith("\n")).toBe(true);
  });
});
