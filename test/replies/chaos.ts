/**
 * The acceptance scenario of issue 28, at any scale: contacts text in across two projects (English
 * and Spanish keywords, opt-outs, unmatched texts) while faults hit the reply endpoint (503 before,
 * 500 after committing, connection resets), a share of the webhook deliveries is dropped (every
 * attempt of a dropped event fails, so the sandbox gives it up as missed), and the worker is killed
 * and started again several times. `replies plan` runs first over the same window.
 *
 * A kill is modelled in-process at a request boundary: the killed worker's API connection (a proxy
 * of its own) forwards the request in flight, so a reply may commit, and then never answers it nor
 * any later one; its sleeps never end and its listener is closed. It can write nothing more: every
 * write to its state follows an API answer or a sleep. The next worker opens the same state directory.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import {
  Agent,
  createServer,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { seededRandom } from "../../src/sandbox/ids.js";
import { type SandboxHandle, startSandbox } from "../../src/sandbox/index.js";
import { admin, EXAMPLE_FIXTURE } from "../sandbox/helpers.js";
import {
  ANSWERS,
  answersAfter,
  campaignDir,
  listeningRun,
  planJson,
  type RunResult,
  runJson,
  TEXTS,
  textIn,
} from "./world.js";

export interface ChaosOptions {
  readonly inbounds: number;
  /** Share of webhook events whose every delivery fails (0 to 1). */
  readonly dropShare: number;
  readonly kills: number;
  readonly seed: number;
  /** Fault spec of the reply endpoint. */
  readonly faults: string;
  /** Real milliseconds the whole run may take before it is called stuck. */
  readonly budgetMs: number;
}

export const REPLY_FAULTS = [
  "POST /conversations/{conversation_id}/messages: status(503) p=0.15",
  "POST /conversations/{conversation_id}/messages: commit-then-fail(500) p=0.1",
  "POST /conversations/{conversation_id}/messages: reset p=0.05",
  "POST /conversations/{conversation_id}/messages: commit-then-fail(drop) p=0.05",
].join("; ");

export interface Sent {
  readonly messageId: string;
  readonly conversationId: string;
  readonly text: string;
  readonly rule: string | null;
  readonly at: number;
}

export interface ChaosResult {
  readonly sb: SandboxHandle;
  readonly sent: readonly Sent[];
  /** Inbound message ids whose webhook deliveries were all dropped. */
  readonly dropped: ReadonlySet<string>;
  // biome-ignore lint/suspicious/noExplicitAny: the plan document was checked against its schema
  readonly plan: any;
  readonly runs: readonly RunResult[];
  readonly kills: number;
  /** When each GET /conversations pass of the workers began (its first page; virtual ms), in order. */
  readonly passes: readonly number[];
  /** Answers of the reply endpoint by HTTP status (the faults show here), from the sandbox's log. */
  readonly replyStatuses: Readonly<Record<string, number>>;
  /** The lines of the worker's answered record (answered.jsonl), parsed. */
  readonly record: readonly {
    readonly t: string;
    readonly via: string;
    readonly inbound_message_id: string;
  }[];
  /** Per inbound with a rule: the answers in its thread. */
  readonly answers: ReadonlyMap<string, readonly string[]>;
  close(): Promise<void>;
}

const SECRET = "whsec_replies_chaos_secret_0123456789";

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** An answer relayed from the server behind a proxy: status, headers (lower-case names), body. */
interface Relayed {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

/** Keep-alive connections for the proxies' requests (a fresh connection per request costs more). */
const relayAgent = new Agent({ keepAlive: true });

/**
 * One request to `url` over node:http (a proxy's hop: the worker's own client is the one under
 * test; this hop is the test's plumbing, and `fetch` cost twice the CPU); null when it fails.
 */
function relay(
  url: string,
  method: string,
  headers: Readonly<Record<string, string>>,
  payload: Buffer | undefined,
): Promise<Relayed | null> {
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method,
        agent: relayAgent,
        headers: payload === undefined ? headers : { ...headers, "content-length": String(payload.length) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const out: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers))
            if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
          resolve({
            status: res.statusCode ?? 502,
            headers: out,
            text: Buffer.concat(chunks).toString("utf8"),
          });
        });
        res.on("error", () => resolve(null));
      },
    );
    req.on("error", () => resolve(null));
    req.end(payload);
  });
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

/** A worker's own connection to the sandbox, which a kill cuts: nothing is answered from then on. */
class ApiLine {
  dead = false;
  requests = 0;
  readonly server: Server;
  private readonly sockets = new Set<Socket>();
  url = "";
  constructor(
    target: string,
    private readonly killAt: number | null,
    private readonly onKill: () => void,
    private readonly onForward: (method: string, url: URL) => void,
  ) {
    this.server = createServer((req, res) => void this.forward(target, req, res));
    this.server.on("connection", (s) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
  }
  async start(): Promise<string> {
    this.url = `${await listen(this.server)}/v1`;
    return this.url;
  }
  private async forward(target: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const payload = await body(req);
    if (this.dead) return; // the process is gone: never answered
    this.requests++;
    this.onForward(req.method ?? "GET", new URL(req.url ?? "/", "http://line"));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === "string" && k !== "host" && k !== "connection" && k !== "content-length")
        headers[k] = v;
    const answer = await relay(
      `${target}${req.url ?? ""}`,
      req.method ?? "GET",
      headers,
      payload.length > 0 ? payload : undefined,
    );
    if (this.killAt !== null && this.requests >= this.killAt && !this.dead) {
      this.dead = true;
      this.onKill();
    }
    if (this.dead) return;
    if (answer === null) {
      res.destroy();
      return;
    }
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(answer.headers))
      if (k !== "content-length" && k !== "transfer-encoding" && k !== "connection" && k !== "keep-alive")
        out[k] = v;
    res.writeHead(answer.status, out);
    res.end(answer.text);
  }
  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

export async function chaos(o: ChaosOptions): Promise<ChaosResult> {
  const rnd = seededRandom(o.seed);
  const sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: true, seed: o.seed });
  const cwd = campaignDir();
  const sent: Sent[] = [];
  const dropped = new Set<string>();
  let listener: string | null = null;
  const dropsEvent = (eventId: string) =>
    createHash("sha256").update(`${o.seed}:${eventId}`).digest().readUInt32BE(0) / 2 ** 32 < o.dropShare;

  // The webhook endpoint: drops a share of the events (every attempt), else hands on to the live worker.
  const hooks = createServer((req, res) => {
    void (async () => {
      const payload = await body(req);
      const eventId = String(req.headers["x-event-id"] ?? "");
      if (dropsEvent(eventId)) {
        try {
          dropped.add(JSON.parse(payload.toString("utf8")).message_id);
        } catch {}
        res.writeHead(500).end();
        return;
      }
      if (listener === null) {
        res.writeHead(503).end();
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === "string" && k !== "host" && k !== "connection" && k !== "content-length")
          headers[k] = v;
      const answer = await relay(listener, "POST", headers, payload);
      res.writeHead(answer?.status ?? 502).end(answer?.text ?? "");
    })();
  });
  const hooksUrl = await listen(hooks);
  const endpoint = await admin(sb, "POST", "/webhook-endpoints", {
    url: hooksUrl,
    events: ["message.replied"],
    secret: SECRET,
  });
  if (endpoint.status >= 300) throw new Error(JSON.stringify(endpoint.body));

  // Contacts text in, one inbound per contact, 2 virtual seconds apart; nobody listens yet, so every
  // first delivery fails and the sandbox retries them (30 s, 2 min, 10 min later).
  for (let n = 0; n < o.inbounds; n++) {
    const t = TEXTS[Math.floor(rnd() * TEXTS.length)] ?? TEXTS[0];
    if (t === undefined) throw new Error("no texts");
    const at = sb.clock.nowMs();
    sent.push({ ...(await textIn(sb, t.project, n, t.text)), text: t.text, rule: t.rule, at });
    await sb.clock.advance(2_000);
  }
  const { plan } = await planJson(sb, cwd);
  await admin(sb, "DELETE", "/requests");
  await admin(sb, "POST", "/faults", { spec: o.faults });

  const runs: RunResult[] = [];
  const lines: ApiLine[] = [];
  const passes: number[] = [];
  let kills = 0;
  const started = Date.now();
  const lastAt = sent.at(-1)?.at ?? sb.clock.nowMs();
  const quietAfter = lastAt + 20 * 60_000;
  for (;;) {
    const final = kills >= o.kills;
    let dead = false;
    let stop: (() => void) | null = null;
    let closeListener: (() => Promise<void>) | null = null;
    const line = new ApiLine(
      sb.rootUrl,
      final ? null : 15 + Math.floor(rnd() * 60),
      () => {
        dead = true;
        listener = null;
        void closeListener?.();
      },
      (method, url) => {
        // The first page of a GET /conversations pass (later pages carry a cursor).
        if (method === "GET" && url.pathname === "/v1/conversations" && !url.searchParams.has("cursor"))
          passes.push(sb.clock.nowMs());
      },
    );
    lines.push(line);
    const baseUrl = await line.start();
    const never = new Promise<void>(() => {});
    const sleep = async (ms: number) => {
      if (dead) return never;
      await sb.clock.advance(ms);
      if (dead) return never;
    };
    const run = runJson(
      sb,
      cwd,
      { baseUrl, secretEnv: ["CHAOS_SECRET"] },
      {
        session: { clock: { now: () => sb.clock.nowMs() }, sleep },
        sleep,
        onInterrupt: (handler) => {
          stop = handler;
          return () => {};
        },
        onListening: (url, close) => {
          listener = url;
          closeListener = close;
        },
      },
      { CHAOS_SECRET: SECRET },
    );
    if (!final) {
      // Killed: its run never ends. Wait until the kill happened (or the run ended on its own).
      const ended = await Promise.race([
        run.then((r) => r),
        (async () => {
          while (!dead) await delay(2);
          return null;
        })(),
      ]);
      if (ended !== null) runs.push(ended);
      else kills++;
      if (Date.now() - started > o.budgetMs) throw new Error(`stuck: ${kills} kills after ${o.budgetMs} ms`);
      continue;
    }
    // Until the webhook retries are over and the backlog is settled (or long after: the checks then fail).
    const settled = () =>
      sent.every((s) => s.rule === null || answersAfter(sb, s.conversationId, s.messageId).length > 0);
    while (sb.clock.nowMs() < quietAfter || (!settled() && sb.clock.nowMs() < quietAfter + 4 * 3_600_000)) {
      if (Date.now() - started > o.budgetMs) throw new Error("stuck before the quiet time");
      await delay(5);
    }
    (stop as (() => void) | null)?.();
    runs.push(await run);
    break;
  }
  const log = (await admin(sb, "GET", "/requests")).body.data.requests as {
    method: string;
    route: string;
    status: number;
  }[];
  const replyStatuses: Record<string, number> = {};
  for (const r of log)
    if (r.method === "POST" && r.route === "/conversations/{conversation_id}/messages")
      replyStatuses[String(r.status)] = (replyStatuses[String(r.status)] ?? 0) + 1;
  const answers = new Map<string, string[]>();
  for (const s of sent) answers.set(s.messageId, answersAfter(sb, s.conversationId, s.messageId));
  return {
    sb,
    sent,
    dropped,
    plan,
    runs,
    kills,
    passes,
    replyStatuses,
    record: readFileSync(join(cwd, ".campaignctl/replies/answered.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l)),
    answers,
    async close() {
      for (const l of lines) await l.close();
      await new Promise<void>((r) => hooks.close(() => r()));
      await sb.close();
    },
  };
}

export { ANSWERS };

export interface SteadyOptions {
  readonly inbounds: number;
  /** All at one instant (`burst`), or one every `gapMs` of the virtual clock. */
  readonly mode: "burst" | "spaced";
  readonly gapMs: number;
  readonly seed: number;
  readonly budgetMs: number;
}

export interface SteadyResult {
  /** Inbound-to-answer latency of each answered inbound, on the API's (virtual) clock, ms, sorted. */
  readonly latenciesMs: readonly number[];
  readonly answered: number;
  readonly expected: number;
  /** Answers per minute of the API's clock, from the first inbound to the last answer. */
  readonly answersPerMinute: number;
  /** The most requests the sandbox saw in any 60 s window (the key allows 100). */
  readonly busiestMinute: number;
  readonly run: RunResult;
}

/**
 * Throughput and latency: matching inbounds only, webhooks delivered, no faults, one worker whose
 * idle waits move the virtual clock a second at a time (so an event is settled when it arrives, not
 * after a jump of the clock).
 */
export async function steady(o: SteadyOptions): Promise<SteadyResult> {
  const rnd = seededRandom(o.seed);
  const sb = await startSandbox({ fixture: EXAMPLE_FIXTURE, timeScale: 0, rateLimits: true, seed: o.seed });
  const cwd = campaignDir();
  let listener: string | null = null;
  const hooks = createServer((req, res) => {
    void (async () => {
      const payload = await body(req);
      if (listener === null) {
        res.writeHead(503).end();
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === "string" && k !== "host" && k !== "connection" && k !== "content-length")
          headers[k] = v;
      const answer = await relay(listener, "POST", headers, payload);
      res.writeHead(answer?.status ?? 502).end(answer?.text ?? "");
    })();
  });
  const hooksUrl = await listen(hooks);
  await admin(sb, "POST", "/webhook-endpoints", {
    url: hooksUrl,
    events: ["message.replied"],
    secret: SECRET,
  });
  const matching = TEXTS.filter((t) => t.rule !== null);
  const run = listeningRun(sb, cwd, { name: "CHAOS_SECRET", value: SECRET });
  listener = await run.url;
  const started = Date.now();
  const sent: Sent[] = [];
  for (let n = 0; n < o.inbounds; n++) {
    if (o.mode === "spaced" && n > 0) {
      const until = (sent.at(-1)?.at ?? 0) + o.gapMs;
      while (sb.clock.nowMs() < until) {
        if (Date.now() - started > o.budgetMs) throw new Error("stuck while spacing inbounds");
        await delay(1);
      }
    }
    const t = matching[Math.floor(rnd() * matching.length)] ?? matching[0];
    if (t === undefined) throw new Error("no texts");
    const at = sb.clock.nowMs();
    sent.push({ ...(await textIn(sb, t.project, n, t.text)), text: t.text, rule: t.rule, at });
  }
  const answerAt = (s: Sent): number | null => {
    const c = sb.store.world.conversations[s.conversationId];
    const i = c?.messages.findIndex((m) => m.message_id === s.messageId) ?? -1;
    const next = i < 0 ? undefined : c?.messages.slice(i + 1).find((m) => m.direction === "outbound");
    return next === undefined ? null : Date.parse(next.at);
  };
  while (sent.some((s) => answerAt(s) === null)) {
    if (Date.now() - started > o.budgetMs) break;
    await delay(2);
  }
  run.stop();
  const result = await run.result;
  const times = sent
    .map((s) => [s.at, answerAt(s)] as const)
    .filter((p): p is readonly [number, number] => p[1] !== null);
  const latenciesMs = times.map(([a, b]) => b - a).sort((x, y) => x - y);
  const first = Math.min(...sent.map((s) => s.at));
  const last = Math.max(...times.map(([, b]) => b));
  const log = (await admin(sb, "GET", "/requests")).body.data.requests as { at: string }[];
  const stamps = log.map((r) => Date.parse(r.at)).sort((a, b) => a - b);
  let busiest = 0;
  for (let from = 0, to = 0; to < stamps.length; to++) {
    while ((stamps[to] ?? 0) - (stamps[from] ?? 0) >= 60_000) from++;
    busiest = Math.max(busiest, to - from + 1);
  }
  await new Promise<void>((r) => hooks.close(() => r()));
  await sb.close();
  return {
    latenciesMs,
    answered: times.length,
    expected: sent.length,
    answersPerMinute: times.length === 0 ? 0 : (times.length * 60_000) / Math.max(60_000, last - first),
    busiestMinute: busiest,
    run: result,
  };
}

/** The `p`-th percentile (0 to 100) of sorted values, nearest rank. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}
