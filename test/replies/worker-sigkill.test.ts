/**
 * The long-running worker (`replies run` with its webhook listener, not `--once`), as the built CLI
 * in a child process: contacts text in round after round; signed `message.replied` deliveries are
 * posted to its listener (a share never, as if every attempt had been lost; some twice), its poll
 * passes run (the sandbox's virtual clock moves a minute between rounds), and it is killed with
 * SIGKILL at a random moment of each round (seeded), then started again. In the end: every matching
 * inbound has exactly one answer in its thread (counted from the sandbox), no opt-out has one, and
 * every delivery the listener acknowledged (2xx) is in its record on disk and was settled (its
 * inbound answered, or judged, with no answer twice).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as pause } from "node:timers/promises";
import { afterAll, beforeAll, expect, test } from "vitest";
import { seededRandom } from "../../src/sandbox/ids.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { BUILT_CLI } from "../helpers/run-cli.js";
import { EXAMPLE_FIXTURE, PARENT_KEY } from "../sandbox/helpers.js";
import { ANSWERS, answersAfter, campaignDir, TEXTS, textIn } from "./world.js";

const SECRET = "whsec_worker_sigkill_0123456789abcdef";

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: false, seed: 13 });
});
afterAll(async () => {
  await sb.close();
});

interface Worker {
  readonly child: ChildProcess;
  readonly url: string;
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  stdout(): string;
  stderr(): string;
}

/** Starts the worker; resolves once its listener serves. */
async function startWorker(cwd: string): Promise<Worker> {
  const child = spawn(
    process.execPath,
    [
      BUILT_CLI,
      "replies",
      "run",
      "--json",
      "--port",
      "0",
      "--secret-env",
      "HOOK_SECRET",
      "--base-url",
      sb.baseUrl,
    ],
    {
      cwd,
      env: { ...process.env, CAMPAIGNCTL_API_KEY: PARENT_KEY, HOOK_SECRET: SECRET, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  let err = "";
  child.stdout?.on("data", (d) => {
    out += String(d);
  });
  child.stderr?.on("data", (d) => {
    err += String(d);
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  let url: string | null = null;
  const deadline = Date.now() + 10_000;
  while (url === null) {
    const started = out.split("\n").find((l) => l.includes('"type":"started"'));
    if (started !== undefined) url = JSON.parse(started).listening as string;
    else if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the worker did not start: ${err}`);
    else await pause(10);
  }
  return { child, url, exited, stdout: () => out, stderr: () => err };
}

interface Delivery {
  readonly eventId: string;
  readonly body: string;
  readonly messageId: string;
}

/** Posts one signed delivery; true when the listener acknowledged it (2xx). */
async function deliver(url: string, d: Delivery): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-webhook-signature": `sha256=${createHmac("sha256", SECRET).update(d.body).digest("hex")}`,
        "x-event-type": "message.replied",
        "x-event-id": d.eventId,
        "x-timestamp": String(Math.floor(Date.now() / 1000)),
      },
      body: d.body,
    });
    await res.arrayBuffer();
    return res.status >= 200 && res.status < 300;
  } catch {
    return false; // the worker died mid-request: not acknowledged
  }
}

test("SIGKILL the running worker at random moments: one answer per matching inbound, no acknowledged delivery lost", async () => {
  const cwd = campaignDir();
  const rnd = seededRandom(28);
  const sent: { messageId: string; conversationId: string; rule: string | null }[] = [];
  const deliveries: Delivery[] = [];
  const acknowledged = new Set<string>();
  // Three kills (seed 28: the first after its batch was acknowledged, the next two before any of
  // theirs was): each round is a start of the worker and its listener (0.35 s of CPU, most of the
  // file's); the two more that ran before landed where the second and third did.
  const kills = 3;
  let contact = 0;
  for (let round = 0; round <= kills; round++) {
    const final = round === kills;
    // A minute of the API's clock: the worker's first pass of this start is due.
    await sb.clock.advance(61_000);
    const worker = await startWorker(cwd);
    // Contacts text in while it runs; most deliveries are posted, some never (polling finds those).
    const fresh: Delivery[] = [];
    for (let i = 0; i < 5; i++) {
      const t = TEXTS[Math.floor(rnd() * TEXTS.length)] ?? TEXTS[0];
      if (t === undefined) throw new Error("no text");
      const n = contact++;
      const inbound = await textIn(sb, t.project, n, t.text);
      sent.push({ ...inbound, rule: t.rule });
      await sb.clock.advance(1_000);
      if (rnd() < 0.3) continue;
      const payload = {
        conversation_id: inbound.conversationId,
        message_id: inbound.messageId,
        from: `+1971555${String(1000 + n).padStart(4, "0")}`,
        to: t.project === "gotv" ? "+15035550102" : "+18445550103",
        text: t.text,
        is_opt_out: false,
        is_opt_in: false,
      };
      fresh.push({ eventId: `evt_kill_${n}`, body: JSON.stringify(payload), messageId: inbound.messageId });
    }
    deliveries.push(...fresh);
    // Each delivery posted after a random pause; one earlier delivery sent again (a retry of the API).
    const again = deliveries[Math.floor(rnd() * deliveries.length)];
    const batch = again === undefined ? fresh : [...fresh, again];
    const posting = Promise.all(
      batch.map(async (d) => {
        await pause(Math.floor(rnd() * 200));
        if (await deliver(worker.url, d)) acknowledged.add(d.eventId);
      }),
    );
    if (!final) {
      await pause(20 + Math.floor(rnd() * 300));
      worker.child.kill("SIGKILL");
      await posting;
      expect((await worker.exited).signal).toBe("SIGKILL");
      continue;
    }
    await posting;
    // The last start: one more contact texts in and its event wakes the running worker, which
    // answers it from the event (no pass is due: the API's clock has not moved a minute since this
    // start's first pass); then a minute of the API's clock later its pass, due again, finds the
    // inbounds no delivery brought. In this order, not the pass first: a pass due while the event
    // is on its way could answer that inbound first (by polling), a race the suite's load decided.
    const t = TEXTS[0];
    if (t === undefined) throw new Error("no text");
    const n = contact++;
    const last = await textIn(sb, t.project, n, t.text);
    sent.push({ ...last, rule: t.rule });
    const lastDelivery: Delivery = {
      eventId: `evt_kill_${n}`,
      body: JSON.stringify({
        conversation_id: last.conversationId,
        message_id: last.messageId,
        from: `+1971555${String(1000 + n).padStart(4, "0")}`,
        to: "+15035550102",
        text: t.text,
        is_opt_out: false,
        is_opt_in: false,
      }),
      messageId: last.messageId,
    };
    expect(await deliver(worker.url, lastDelivery)).toBe(true);
    acknowledged.add(lastDelivery.eventId);
    await sb.clock.advance(61_000);
    const deadline = Date.now() + 10_000;
    const settled = () =>
      sent.every((s) => s.rule === null || answersAfter(sb, s.conversationId, s.messageId).length > 0);
    // And its pass due after the minute has run (under load the inbounds may all be settled by the
    // start's first pass and the event before it: stopping then would leave it one pass).
    const passes = () =>
      worker
        .stdout()
        .split("\n")
        .filter((l) => l.includes('"type":"pass"')).length;
    while ((!settled() || passes() < 2) && Date.now() < deadline) await pause(25);
    // Let queued events finish, then stop it cleanly.
    await pause(200);
    worker.child.kill("SIGTERM");
    const end = await worker.exited;
    expect(end.code, worker.stderr()).toBe(0);
    expect(worker.stderr()).not.toContain("internal error");
    // This run both took events and polled while it ran.
    const lines = worker
      .stdout()
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as { type: string; via?: string; outcome?: string });
    expect(lines.filter((l) => l.type === "pass").length).toBeGreaterThanOrEqual(2);
    expect(lines.some((l) => l.type === "inbound" && l.via === "event" && l.outcome === "answered")).toBe(
      true,
    );
  }

  for (const s of sent) {
    const answers = answersAfter(sb, s.conversationId, s.messageId);
    if (s.rule === null) expect(answers, s.messageId).toEqual([]);
    else expect(answers, s.messageId).toEqual([ANSWERS[s.rule as keyof typeof ANSWERS]]);
  }
  // Every acknowledged delivery is in the listener's record on disk, and handled (none left queued).
  const record = readFileSync(join(cwd, ".campaignctl/replies/webhooks/dedupe.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as { t?: string; event_id: string }];
      } catch {
        return [];
      }
    });
  const recorded = new Set(record.filter((l) => l.t === undefined).map((l) => l.event_id));
  const handled = new Set(record.filter((l) => l.t === "forwarded").map((l) => l.event_id));
  expect(acknowledged.size).toBeGreaterThan(0);
  for (const id of acknowledged) {
    expect(recorded.has(id), id).toBe(true);
    expect(handled.has(id), id).toBe(true);
  }
  // Each settled inbound once in the answered record.
  const answered = readFileSync(join(cwd, ".campaignctl/replies/answered.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { t: string; inbound_message_id: string });
  const ids = answered.filter((l) => l.t === "answered").map((l) => l.inbound_message_id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(new Set(ids)).toEqual(new Set(sent.filter((s) => s.rule !== null).map((s) => s.messageId)));
}, 60_000);
