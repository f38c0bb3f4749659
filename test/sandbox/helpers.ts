/** Shared helpers of the sandbox tests: start a sandbox, call it over real HTTP, example ids. */
import { readFileSync } from "node:fs";
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

/** Calls `/v1` (paths starting with `/`) with the parent key unless told otherwise. */
export async function api(
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
  if (payload !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${sb.baseUrl}${path}`, { method, headers, body: payload });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === "" ? undefined : JSON.parse(text) };
}

/** Calls a `/_sandbox` route (no key). */
export async function admin(sb: SandboxHandle, method: string, path: string, body?: unknown): Promise<Reply> {
  const res = await fetch(`${sb.rootUrl}/_sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === "" ? undefined : JSON.parse(text) };
}

/** A sandbox on a random port with rate limits off unless asked (tests of limits turn them on). */
export function sandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  return startSandbox({ fixture: EXAMPLE_FIXTURE, rateLimits: false, ...options });
}
