/**
 * "Printed" means handed to the OS (docs/webhooks.md): the built listener's stdout is a pipe whose
 * reader stops reading, so a print larger than the pipe (and the reader's buffer) stays partly in
 * the listener's memory, where a SIGKILL loses it. An event may be answered 2xx only once its line
 * left the process: after the kill, every answered event is a whole line of the killed run's output,
 * or printed again (`recovered`) by the next start on the same --state.
 *
 * The moments, without timers: A (a small event) is answered and its line read; the reader stops;
 * B's line (about 900 KiB, the pipe holds 64 KiB) starts to arrive, so B was flushed and printed;
 * a duplicate of A, sent after that, is answered; then the kill. A listener that answers once its
 * print is queued (main before this test) has answered B in the same turn as that print, before
 * the duplicate: B is answered, marked printed, and its line cut short.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Readable, Writable } from "node:stream";
import { afterEach, describe, expect, test } from "vitest";
import { quietStream } from "../../cli/output/io.js";
import { BUILT_CLI } from "../helpers/run-cli.js";
import { expectValid, paddedDelivery } from "./harness.js";

const SECRET = "whsec_Zq7kR2mV9xL4pT8nW3yB6cD1";
const ENV = { ...process.env, NO_COLOR: "1", WH_SECRET: SECRET };
/** Bigger than the pipe (64 KiB) and the reader's buffer together, under the 1 MiB body limit. */
const PADDING = 900 * 1024;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const delivery = (id: string, padding: number) => paddedDelivery(SECRET, id, padding);

/** POSTs; the status, or null when the connection broke (the listener was killed first). */
async function post(url: string, d: ReturnType<typeof delivery>): Promise<number | null> {
  try {
    const res = await fetch(url, { method: "POST", headers: d.headers, body: d.body });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return null;
  }
}

function listen(stateDir: string): ChildProcessWithoutNullStreams {
  const flags = [
    "--port",
    "0",
    "--host",
    "127.0.0.1",
    "--json",
    "--state",
    stateDir,
    "--secret-env",
    "WH_SECRET",
  ];
  return spawn(process.execPath, [BUILT_CLI, "webhooks", "listen", ...flags], {
    env: ENV,
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/** Reads `stream` in flowing mode until `done(text so far)`; leaves it paused, its data listener removed. */
function readUntil(stream: Readable, seen: { text: string }, done: (text: string) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      seen.text += chunk.toString("latin1");
      if (!done(seen.text)) return;
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.pause();
      resolve();
    };
    const onEnd = () => reject(new Error(`the listener's stdout ended early:\n${seen.text.slice(0, 2000)}`));
    stream.on("data", onData);
    stream.on("end", onEnd);
    stream.resume();
  });
}

/** Everything left in `stream` until it ends. */
function rest(stream: Readable): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    stream.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
    });
    stream.on("end", () => resolve(text));
    stream.resume();
  });
}

/** A listener on `stateDir`, its first line read: the child, what it printed so far, its URL. */
async function started(
  stateDir: string,
): Promise<{ child: ChildProcessWithoutNullStreams; out: { text: string }; url: string }> {
  const child = listen(stateDir);
  const out = { text: "" };
  await readUntil(child.stdout, out, (t) => t.includes("\n"));
  const url = (JSON.parse(out.text.slice(0, out.text.indexOf("\n"))) as { url: string }).url;
  return { child, out, url };
}

/**
 * A listener on `stateDir` started and stopped by SIGTERM once its first line is out (the recovered
 * lines and their marker follow it before any delivery): all it printed; its exit code must be 0.
 */
async function startedAndStopped(stateDir: string): Promise<string> {
  const { child, out } = await started(stateDir);
  const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  child.kill("SIGTERM");
  const text = out.text + (await rest(child.stdout));
  expect(await closed).toBe(0);
  return text;
}

/** The `accepted` lines among the whole lines of `text` (a line cut short by the kill is not one). */
function acceptedLines(text: string): { event_id: string; recovered: boolean }[] {
  const whole = text.slice(0, text.lastIndexOf("\n") + 1);
  return whole
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as { type: string; event_id: string; recovered: boolean })
    .filter((l) => l.type === "accepted");
}

test("an event is answered 2xx only once its printed line left the process: a SIGKILL with stdout stalled loses none", async () => {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run npm run build first`);
  const stateDir = mkdtempSync(join(tmpdir(), "campaignctl-webhooks-printed-"));
  dirs.push(stateDir);

  const { child: first, out, url } = await started(stateDir);
  const answered: string[] = [];

  const a = delivery("evt_small", 0);
  expect(await post(url, a)).toBe(200);
  answered.push("evt_small");
  await readUntil(first.stdout, out, (t) => t.includes('"event_id":"evt_small"') && t.endsWith("\n"));

  // The reader stops: it takes what arrives into its buffer (up to its high-water mark) and no more.
  const printing = new Promise<void>((resolve) => first.stdout.once("readable", () => resolve()));
  const b = post(url, delivery("evt_large", PADDING));
  await printing;
  // A later turn of the listener: a listener that answers B on its print has answered it by now.
  expect(await post(url, a)).toBe(200);
  first.kill("SIGKILL");
  const exited = new Promise((resolve) => first.on("close", resolve));
  if ((await b) === 200) answered.push("evt_large");
  const firstOut = out.text + (await rest(first.stdout));
  await exited;
  // The test did what it says: B's line did not fit, so it was cut short (or never started) in the pipe.
  expect(firstOut.length).toBeLessThan(PADDING);

  const secondText = await startedAndStopped(stateDir);

  const printedFirst = new Set(acceptedLines(firstOut).map((l) => l.event_id));
  const recovered = acceptedLines(secondText).filter((l) => l.recovered);
  for (const line of secondText.split("\n").filter((l) => l !== ""))
    expectValid("webhook-listen-line", JSON.parse(line));
  const lost = answered.filter((id) => !printedFirst.has(id) && !recovered.some((l) => l.event_id === id));
  expect(lost).toEqual([]);
  // B is on disk either way (committed before its print): never answered, it is printed on the next start.
  expect([...printedFirst, ...recovered.map((l) => l.event_id)]).toContain("evt_large");
}, 60_000);

test("a stop held by a reader that stopped reading: a second SIGTERM ends the listener at once, and the next start prints what it held, recovered", async () => {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run npm run build first`);
  const stateDir = mkdtempSync(join(tmpdir(), "campaignctl-webhooks-printed-"));
  dirs.push(stateDir);

  const { child: first, out, url } = await started(stateDir);
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    first.on("close", (code, signal) => resolve({ code, signal })),
  );
  // The reader stops while B's line (larger than the pipe) is printed: B is on disk, held unanswered.
  const printing = new Promise<void>((resolve) => first.stdout.once("readable", () => resolve()));
  const b = post(url, delivery("evt_held", PADDING));
  await printing;
  // The first SIGTERM: the listener stops taking deliveries (its port refuses), then waits for
  // stdout to take B's line, which the stopped reader never does.
  first.kill("SIGTERM");
  let refused = false;
  for (let attempt = 0; attempt < 500 && !refused; attempt++)
    refused = (await post(url, delivery("evt_late", 0))) === null;
  expect(refused).toBe(true);
  // The second ends it at once (the first took the handler away: the default action).
  first.kill("SIGTERM");
  const left = rest(first.stdout);
  expect(await exited).toEqual({ code: null, signal: "SIGTERM" });
  expect(await b).not.toBe(200);
  const firstOut = out.text + (await left);
  expect(acceptedLines(firstOut).map((l) => l.event_id)).not.toContain("evt_held");

  const secondText = await startedAndStopped(stateDir);
  // B, and a late delivery the listener may have taken on before the signal (queued behind B's print).
  const recovered = acceptedLines(secondText);
  expect(recovered.map((l) => l.event_id)).toContain("evt_held");
  expect(recovered.every((l) => l.recovered)).toBe(true);
}, 60_000);

describe("stdoutFlushed (quietStream)", () => {
  /** A stream that hands a write on only when the test says so, as a pipe with a stopped reader. */
  function heldStream() {
    const held: ((error?: Error | null) => void)[] = [];
    const stream = new Writable({
      write(_chunk, _encoding, callback) {
        held.push(callback);
      },
    });
    return { stream, held };
  }
  const state = (p: Promise<void>) => {
    const s = { done: false };
    void p.then(() => {
      s.done = true;
    });
    return s;
  };
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

  test("resolves at once when nothing is held, else once every write so far was handed on", async () => {
    const { stream, held } = heldStream();
    const out = quietStream(stream, "stdout");
    const idle = state(out.flushed());
    await turn();
    expect(idle.done).toBe(true);
    out.write("one\n");
    out.write("two\n");
    const waiting = state(out.flushed());
    held.shift()?.();
    await turn();
    expect(waiting.done).toBe(false);
    held.shift()?.();
    await turn();
    expect(waiting.done).toBe(true);
  });

  test("a closed stdout (EPIPE: the reader is gone) resolves: nothing more can be delivered", async () => {
    const { stream } = heldStream();
    const out = quietStream(stream, "stdout");
    out.write("held\n");
    const waiting = state(out.flushed());
    stream.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    await turn();
    expect(waiting.done).toBe(true);
    out.write("dropped\n");
    const after = state(out.flushed());
    await turn();
    expect(after.done).toBe(true);
  });
});
