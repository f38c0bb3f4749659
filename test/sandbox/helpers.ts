/** Shared helpers of the sandbox tests: start a sandbox, call it over real HTTP, example ids. */
import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import type { Fixture } from "../../src/sandbox/fixture/types.js";
import { type SandboxHandle, type SandboxOptions, startSandbox } from "../../src/sandbox/index.js";

export const EXAMPLE_FIXTURE = fileURLToPath(new URL("../../examples/sandbox.yaml", import.meta.url));

let parsedExample: Fixture | undefined;

/** A fresh deep copy of the example fixture, to derive variants from (the file is parsed once). */
export function exampleFixture(): Fixture {
  parsedExample ??= parse(readFileSync(EXAMPLE_FIXTURE, "utf8")) as Fixture;
  return structuredClone(parsedExample);
}

export const ORG = "0b6f3c1e-5d2a-4c41-9a8e-2f1d7c9e0a01";
export const CHILD_ORG = "0b6f3c1e-5d2a-4c41-9a8e-2f1d7c9e0a02";
export const PARENT_KEY = "pc_live_sbx_rv_rw_7Hq2mX9vT4";
export const CHILD_KEY = "pc_live_sbx_yd_rw_K3p8Zt1wQ6";
export const WRITE_ONLY_KEY = "pc_live_sbx_rv_wo_R5n4Lc2eP8";
export const GOTV_REMINDER = "9a000000-0000-4000-8000-000000000001";
export const GOTV_FOLLOWUP = "9a000000-0000-4000-8000-000000000002";
export const VOLUNTEERS = "9a000000-0000-4000-8000-000000000003";
export const EARLY_VOTE = "9a000000-0000-4000-8000-000000000004";
export const BRAND = "b1a2c3d4-0000-4000-8000-000000000001";
export const TCR_CAMPAIGN = "c1a2c3d4-0000-4000-8000-000000000001";

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test code reads arbitrary JSON members
  readonly body: any;
}

export interface CallOptions {
  readonly key?: string | null;
  readonly body?: unknown;
  readonly rawBody?: string;
  readonly idempotencyKey?: string;
}

/** Calls `/v1` (paths starting with `/`) with the parent key unless told otherwise (see {@link call}). */
export function api(
  sb: SandboxHandle,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? PARENT_KEY : options.key;
  if (key !== null) headers["x-api-key"] = key;
  if (options.idempotencyKey !== undefined) headers["idempotency-key"] = options.idempotencyKey;
  const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  return call(sb, method, `${sb.baseUrl}${path}`, headers, payload);
}

/**
 * A sandbox known only by its root URL: one another process started (`campaignctl sandbox`,
 * `--sandbox`), whose handle this process does not have.
 */
export interface SandboxAt {
  readonly rootUrl: string;
}

/** Calls a `/_sandbox` route (no key; see {@link call}). */
export function admin(
  sb: SandboxHandle | SandboxAt,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply> {
  return call(
    sb,
    method,
    `${sb.rootUrl}/_sandbox${path}`,
    {},
    body === undefined ? undefined : JSON.stringify(body),
  );
}

/**
 * The kept-alive connections of {@link call}, one agent per sandbox: a sandbox started later on the
 * port of a closed one (test/apply/saved-plan-rerun) never gets a connection to the closed one. An
 * agent's idle sockets close with their sandbox, and before the server's keep-alive timeout (the
 * agent reads its `Keep-Alive` hint). A SandboxAt made for one call gets an agent of its own: a
 * connection of its own, as `fetch` made, never one kept from an earlier sandbox on that port.
 */
const agents = new WeakMap<SandboxHandle | SandboxAt, Agent>();

function agentOf(sb: SandboxHandle | SandboxAt): Agent {
  let agent = agents.get(sb);
  if (agent === undefined) {
    agent = new Agent({ keepAlive: true });
    agents.set(sb, agent);
  }
  return agent;
}

/**
 * One request to `sb` over node:http, `payload` (JSON text) sent as `application/json`; the reply's
 * body parsed as JSON (undefined when empty). The tests make about 4,000 of these calls a pass, and
 * one costs about 0.5 ms of CPU less than through `fetch` (both ends are in the test's process;
 * issue 35, bench/README.md "ninth session: second-tier files"). A dropped connection rejects, as
 * `fetch` does.
 */
function call(
  sb: SandboxHandle | SandboxAt,
  method: string,
  url: string,
  headers: Record<string, string | number>,
  payload: string | undefined,
): Promise<Reply> {
  const bytes = payload === undefined ? undefined : Buffer.from(payload);
  const sent =
    bytes === undefined
      ? headers
      : { ...headers, "content-type": "application/json", "content-length": bytes.length };
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: sent, agent: agentOf(sb) }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const replyHeaders = new Headers();
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
          replyHeaders.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
        try {
          resolve({
            status: res.statusCode ?? 0,
            headers: replyHeaders,
            body: text === "" ? undefined : JSON.parse(text),
          });
        } catch (error) {
          reject(error);
        }
      });
    });
    req.on("error", reject);
    req.end(bytes);
  });
}

/** How many requests the sandbox has logged (`GET /_sandbox/requests`'s total). */
export async function requestTotal(sb: SandboxHandle | SandboxAt): Promise<number> {
  return (await admin(sb, "GET", "/requests")).body.data.total as number;
}

/** A sandbox on a random port with rate limits off unless asked (tests of limits turn them on). */
export function sandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  return startSandbox({ fixture: EXAMPLE_FIXTURE, rateLimits: false, ...options });
}
