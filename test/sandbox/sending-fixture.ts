/** Helpers of the sending and webhook tests: fixture variants, scheduling, webhook receivers. */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Fixture } from "../../src/sandbox/fixture/types.js";
import type { SandboxHandle } from "../../src/sandbox/index.js";
import { admin, api, exampleFixture } from "./helpers.js";

export const WARD3 = "e1000000-0000-4000-8000-000000000001";
export const DO_NOT_TEXT = "e1000000-0000-4000-8000-000000000003";

/** The example fixture, edited in place by `edit`. */
export function fixtureWith(edit: (f: Fixture) => void): Fixture {
  const f = exampleFixture();
  edit(f);
  return f;
}

/** The audience the contract implies for a project on Ward 3 minus Do Not Text, from the fixture. */
export function expectedAudience(f: Fixture): string[] {
  const list = f.contact_lists?.find((l) => l.id === WARD3)?.contacts ?? [];
  const suppressed = new Set(
    (f.suppression_lists?.find((l) => l.id === DO_NOT_TEXT)?.contacts ?? []).map((c) => c.phone),
  );
  return list.filter((c) => !c.opted_out && !suppressed.has(c.phone)).map((c) => c.phone);
}

/** Makes the project `ready` (dashboard edit) and schedules it through the API. */
export async function scheduleProject(
  sb: SandboxHandle,
  id: string,
  at: string,
  dailyCapBypass = false,
): Promise<void> {
  const patched = await admin(sb, "PATCH", `/projects/${id}`, { status: "ready" });
  if (patched.status !== 200) throw new Error(`PATCH failed: ${JSON.stringify(patched.body)}`);
  const r = await api(sb, "POST", `/projects/${id}/schedule`, {
    body: { scheduled_at: at, scheduled_timezone: "America/Los_Angeles", daily_cap_bypass: dailyCapBypass },
  });
  if (r.status !== 200) throw new Error(`schedule failed: ${JSON.stringify(r.body)}`);
}

export const advance = (sb: SandboxHandle, ms: number) => admin(sb, "POST", "/clock/advance", { ms });
export const project = async (sb: SandboxHandle, id: string) =>
  (await admin(sb, "GET", `/projects/${id}`)).body.data;
export const messages = async (sb: SandboxHandle, q = "") =>
  (await admin(sb, "GET", `/messages${q}`)).body.data as SentMessage[];
export const events = async (sb: SandboxHandle, q = "") =>
  (await admin(sb, "GET", `/events${q}`)).body.data as SandboxEvent[];

export interface SentMessage {
  message_id: string;
  project_id: string;
  from: string;
  to: string;
  text: string;
  status: string;
  error_code: string | null;
  over_cap: boolean;
  cost_e4: number;
  segments: number;
  sent_at: string;
  conversation_id: string | null;
}

export interface SandboxEvent {
  id: string;
  kind: string;
  organization_id: string;
  payload: Record<string, unknown>;
  created_at: string;
}

/** One request a receiver got: headers and the exact raw body bytes. */
export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly raw: Buffer;
}

/** A webhook receiver on 127.0.0.1 answering `status` to everything. */
export interface Receiver {
  readonly url: string;
  readonly received: Received[];
  close(): Promise<void>;
}

export async function startReceiver(status = 200): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(status < 300 ? "ok" : "nope");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
